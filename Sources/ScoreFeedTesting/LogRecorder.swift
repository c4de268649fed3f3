import Logging
import Synchronization

/// Keeps every line a logger writes (message, level, metadata), at every level, for a test to read.
public final class LogRecorder: Sendable {
    public struct Entry: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: Logger.Metadata
    }

    private let lines = Mutex<[Entry]>([])

    public init() {}

    /// What was logged so far, in order.
    public var entries: [Entry] { lines.withLock { $0 } }

    /// A logger at `trace` whose lines this recorder keeps.
    public func logger(label: String = "test") -> Logger {
        Logger(label: label) { _ in Handler(recorder: self) }
    }

    fileprivate func append(_ entry: Entry) { lines.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(
                Entry(
                    level: event.level, message: event.message.description,
                    metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
        }
    }
}
