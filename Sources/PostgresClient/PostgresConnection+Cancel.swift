import CLibPQ
import Dispatch
import Foundation
import Synchronization

/// Asks the server to stop what a connection is running (libpq's `PQcancel`), from any thread.
final class StatementCanceller: Sendable {
    /// libpq's cancel handle (`nil` once the connection is closed), used under the lock only.
    private let cancel: Mutex<SendableHandle?>

    init(handle: OpaquePointer) { cancel = Mutex(PQgetCancel(handle).map(SendableHandle.init)) }

    /// Sends a cancel request; a connection that runs nothing ignores it.
    func send() {
        cancel.withLock { cancel in
            guard let cancel else { return }
            var reason = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel.pointer, &reason, Int32(reason.count))
        }
    }

    /// Frees the handle: later requests do nothing.
    func close() {
        cancel.withLock { cancel in
            if let cancel { PQfreeCancel(cancel.pointer) }
            cancel = nil
        }
    }

    deinit { close() }
}

/// A libpq pointer moved between threads; every use is under a lock.
struct SendableHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Where a cancellable session is (queued, running, done), and whether its task was cancelled.
private final class CancellableRun: Sendable {
    private struct State {
        var started = false
        var finished = false
        var cancelled = false
        /// Cancelled while its body ran: the server was told, and the connection's state is unknown.
        var interrupted = false
    }
    private let state = Mutex(State())

    /// Marks the body started on the connection's queue; `false` if the task was cancelled first
    /// (then nothing runs: another caller's statement on the queue before it is never cancelled).
    func start() -> Bool {
        state.withLock { state in
            state.started = !state.cancelled
            return state.started
        }
    }

    /// Marks the run cancelled; `true` if its body is running (so the server must be told).
    func cancel() -> Bool {
        state.withLock { state in
            state.cancelled = true
            state.interrupted = state.interrupted || (state.started && !state.finished)
            return state.interrupted
        }
    }

    /// Marks the run finished; `true` if it was cancelled while its body ran (the connection's state
    /// is then unknown). A cancellation after the body returned changes nothing.
    func finish() -> Bool {
        state.withLock { state in
            state.finished = true
            return state.interrupted
        }
    }

    var isRunning: Bool { state.withLock { $0.started && !$0.finished } }
}

extension PostgresConnection {
    /// Runs `body` as ``withSession(_:)`` does, but the task's cancellation stops it: the statement
    /// running is cancelled on the server, and so is every later one (the request is repeated every
    /// 100 ms until `body` returns), so `body` fails with the server's cancellation error (SQLSTATE
    /// 57014) and its transaction rolls back.
    ///
    /// For work that may wait long and is all or nothing, such as migrations. A body cut off this way
    /// may leave the connection in any state, so the connection is then closed (later calls throw
    /// `.closed`); a task cancelled before its body starts runs nothing (`CancellationError`) and
    /// leaves the connection as it was.
    public func withCancellableSession<T: Sendable>(
        _ body: @escaping @Sendable (PostgresSession) throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        let run = CancellableRun()
        let canceller = self.canceller
        do {
            let value = try await withTaskCancellationHandler {
                try await withSession { session in
                    guard run.start() else { throw CancellationError() }
                    defer { _ = run.finish() }
                    return try body(session)
                }
            } onCancel: {
                guard run.cancel() else { return }
                DispatchQueue.global().async {
                    while run.isRunning {
                        canceller.send()
                        usleep(100_000)
                    }
                }
            }
            if run.finish() { await close() }
            return value
        } catch {
            if run.finish() { await close() }
            throw error
        }
    }
}
