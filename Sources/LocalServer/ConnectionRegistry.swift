import NIOConcurrencyHelpers
import NIOCore

/// The open TCP connections of a local server (``LocalListener``), so its ``LocalListener/close()`` can
/// close them all.
///
/// Synchronous (a lock), because connections are registered by the channel initializer on the event loop.
final class ConnectionRegistry: Sendable {
    private struct State {
        var open: [Int: any Channel] = [:]
        var accepted = 0
        var isClosed = false
    }

    private let state = NIOLockedValueBox(State())

    /// Creates an empty registry.
    init() {}

    /// Registers a new connection and returns its number (1, 2, …); closes it at once after ``closeAll()``.
    /// - Parameter channel: The accepted connection; it leaves the registry when it closes.
    /// - Returns: The connection's number, counting every connection registered so far.
    func register(_ channel: any Channel) -> Int {
        let (id, isClosed) = state.withLockedValue { state in
            state.accepted += 1
            if !state.isClosed { state.open[state.accepted] = channel }
            return (state.accepted, state.isClosed)
        }
        if isClosed {
            channel.close(promise: nil)
        } else {
            channel.closeFuture.whenComplete { [self] _ in
                state.withLockedValue { _ = $0.open.removeValue(forKey: id) }
            }
        }
        return id
    }

    /// Closes every open connection and every one registered later.
    func closeAll() {
        let channels = state.withLockedValue { state in
            state.isClosed = true
            return Array(state.open.values)
        }
        for channel in channels {
            channel.close(promise: nil)
        }
    }

    /// How many connections were accepted in total.
    var acceptedCount: Int { state.withLockedValue { $0.accepted } }
}
