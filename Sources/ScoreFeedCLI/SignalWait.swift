import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM (their default actions are replaced while the process runs).
enum SignalWait {
    /// Keeps the dispatch sources alive while waiting; they are only touched to cancel them.
    private final class Sources: @unchecked Sendable {
        let all: [any DispatchSourceSignal]
        init(_ all: [any DispatchSourceSignal]) { self.all = all }
    }

    static func interruptOrTerminate() async {
        let stream = AsyncStream<Int32> { continuation in
            let sources = Sources(
                [SIGINT, SIGTERM].map { number in
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                    source.setEventHandler { continuation.yield(number) }
                    source.resume()
                    return source
                })
            continuation.onTermination = { _ in sources.all.forEach { $0.cancel() } }
        }
        for await _ in stream { return }
    }
}
