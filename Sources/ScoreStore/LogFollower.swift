import Logging
import PostgresClient
import Retry

/// Follows the event log: runs a reader's step until it is caught up, then sleeps until an
/// appending transaction commits (LISTEN/NOTIFY as a wake-up) or the poll interval passes (the
/// fallback when a notification is lost). A dropped connection is re-established with backoff and
/// the reader resumes from its own checkpoint, so nothing is lost or repeated.
public struct LogFollower: Sendable {
    /// One unit of a reader's work: read and handle what follows its checkpoint on `connection`.
    /// Returns `true` when it did something (it is called again at once), `false` when caught up.
    public typealias Step = @Sendable (PostgresConnection) async throws -> Bool

    public let url: String
    /// The channel whose notifications wake the reader.
    public let channel: String
    /// The longest wait between two steps without a notification.
    public let pollInterval: Double
    public let logger: Logger

    public init(url: String, channel: String = EventLog.channel, pollInterval: Double = 0.5, logger: Logger) {
        self.url = url
        self.channel = channel
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Runs `step` until the task is cancelled, then returns.
    ///
    /// - Parameter connected: called with the server process id after each (re)connection.
    /// - Throws: the first error of `step` that is not a lost connection.
    public func run(connected: @Sendable (Int) async -> Void = { _ in }, step: Step) async throws {
        var failures = 0
        while !Task.isCancelled {
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(url)
                let pid = try await connection.withSession { session in
                    try session.execute(script: "LISTEN \(channel)")
                    return session.backendPID
                }
                await connected(pid)
            } catch let error as PostgresError where error.kind == .connection {
                failures += 1
                let delay = Backoff.reconnect.delay(attempt: failures)
                logger.warning(
                    "cannot reach the database; retrying", metadata: ["error": "\(error)", "retry": "\(delay)"])
                try? await Task.sleep(for: delay)
                continue
            }
            do {
                try await follow(connection, step: step)
                await connection.close()
                return
            } catch let error as PostgresError where error.kind == .connection {
                logger.warning("lost the database connection; reconnecting", metadata: ["error": "\(error)"])
                await connection.close()
                failures = 0
            }
        }
    }

    private func follow(_ connection: PostgresConnection, step: Step) async throws {
        let interval = pollInterval
        while !Task.isCancelled {
            if try await step(connection) { continue }
            _ = try await connection.withSession { try $0.waitForNotifications(timeout: interval) }
        }
    }
}
