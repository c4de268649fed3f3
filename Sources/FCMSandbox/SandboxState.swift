import Foundation
import LocalServer
import NIOConcurrencyHelpers

/// The mutable state of a running sandbox: the ``SandboxCore`` and the records, behind one lock.
///
/// Synchronous (a lock), because requests are handled on the event loop.
final class SandboxState: Sendable {
    private struct State {
        var core: SandboxCore
        /// Completed records with their arrival number, in arrival order.
        var records: [(arrival: Int, message: FCMReceivedMessage)] = []
        var arrivals = 0
        var log: MessageLog?
    }

    private let state: NIOLockedValueBox<State>

    init(core: SandboxCore, messageLog: String?) throws(FCMSandboxError) {
        state = NIOLockedValueBox(State(core: core, log: try messageLog.map(MessageLog.init(path:))))
    }

    /// Sets the verifier of assertions (once the `token_uri` is known).
    func use(_ verifier: AssertionVerifier) { state.withLockedValue { $0.core.verifier = verifier } }

    // MARK: Requests

    func exchange(_ request: TokenRequest, now: Date) -> SandboxAnswer {
        state.withLockedValue { $0.core.exchange(request, now: now) }
    }

    /// Numbers a `messages:send` request on arrival (its place in ``messages()``).
    func arrive() -> Int {
        state.withLockedValue { state in
            state.arrivals += 1
            return state.arrivals
        }
    }

    func takeFault(device: String?) -> FCMFault? { state.withLockedValue { $0.core.takeFault(device: device) } }

    func send(_ request: SendRequest, now: Date) -> SandboxAnswer {
        state.withLockedValue { $0.core.send(request, now: now) }
    }

    /// Keeps a record at its arrival place (and appends it to the message log, in completion order).
    func record(_ message: FCMReceivedMessage, arrival: Int) {
        state.withLockedValue { state in
            let index = state.records.lastIndex { $0.arrival < arrival }.map { $0 + 1 } ?? 0
            state.records.insert((arrival, message), at: index)
            state.log?.append(message)
        }
    }

    // MARK: Inspection and control

    func messages() -> [FCMReceivedMessage] { state.withLockedValue { $0.records.map(\.message) } }

    func removeAllMessages() { state.withLockedValue { $0.records.removeAll() } }

    func inject(_ fault: FCMScriptedFault) { state.withLockedValue { $0.core.inject(fault) } }

    func pendingFaults() -> [FCMScriptedFault] { state.withLockedValue { $0.core.faults.pending } }

    func expireAccessTokens() { state.withLockedValue { $0.core.expireAccessTokens() } }

    func issuedAccessTokens() -> Int { state.withLockedValue { $0.core.tokens.issued } }

    /// Closes the message log; later records are only kept in memory.
    func close() {
        state.withLockedValue { state in
            state.log?.close()
            state.log = nil
        }
    }
}

/// `messages.jsonl`: one JSON line per `messages:send` request.
private struct MessageLog {
    let file: LineLog

    init(path: String) throws(FCMSandboxError) {
        guard let file = LineLog(path: path) else {
            throw FCMSandboxError(.cannotWriteFile, "cannot open the message log \(path)")
        }
        self.file = file
    }

    func append(_ message: FCMReceivedMessage) { file.append(Data(message.jsonLine.utf8)) }

    func close() { file.close() }
}
