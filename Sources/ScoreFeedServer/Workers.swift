import APNs
import Foundation
import LiveActivity
import Logging
import PostgresClient
import PushDelivery
import Retry
import ScoreStore
import ServiceLifecycle
import Synchronization

/// Runs `body` until it returns or a graceful shutdown cancels it (which is not an error).
func untilGracefulShutdown(_ body: @escaping @Sendable () async throws -> Void) async throws {
    do {
        try await cancelWhenGracefulShutdown(body)
    } catch is CancellationError {
        // graceful shutdown
    }
}

/// A delivery worker as a service. On graceful shutdown it claims nothing more and lets the round in
/// flight finish for up to `drain`; what is still in flight then is cancelled and released at once
/// (not left claimed until its lease ends).
struct DeliveryService<Queue: DeliveryQueue>: Service {
    let worker: DeliveryWorker<Queue>
    let drain: Duration
    /// The database to LISTEN on for new messages (``TargetPushes/channel``), which wake the worker.
    let url: String
    let logger: Logger
    /// The delivery named in logs (`push delivery`, `broadcast delivery`, `push-to-start`).
    var what = "push delivery"
    /// Told when delivery pauses (until the server is restarted).
    var paused: @Sendable () -> Void = {}

    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

    func run() async throws {
        let (worker, drain, logger, what, onPause) = (self.worker, self.drain, self.logger, self.what, self.paused)
        let stopping = Flag()
        let wakeup = DeliveryWakeup()
        let follower = LogFollower(url: url, channel: TargetPushes.channel, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Ends with the group: the worker returning cancels it.
                try await follower.run { _ in
                    wakeup.signal()
                    return false
                }
            }
            group.addTask {
                let total = try await worker.run(untilEmpty: false, wakeup: wakeup, stop: { stopping.isSet })
                if let paused = total.paused {
                    onPause()
                    logger.critical("\(what) is paused until restarted: \(worker.queue.service) said \(paused)")
                    // Serve the rest (ingest, reads) until the server stops.
                    try? await gracefulShutdown()
                }
                logger.info(
                    "\(what) stopped", metadata: ["sent": "\(total.sent)", "released": "\(total.released)"])
            }
            group.addTask {
                do {
                    try await gracefulShutdown()
                } catch {
                    return  // cancelled: the worker ended first
                }
                stopping.set()
                try? await Task.sleep(for: drain)
                if !Task.isCancelled {
                    logger.warning("\(what) did not drain in time; releasing what is in flight")
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// Deletes the broadcast channels of games that are over once their dismissal window has passed
/// (channels are limited to 10,000 per environment), every minute. Stops on graceful shutdown.
struct ChannelJanitorService: Service {
    let channels: @Sendable (PushEnvironment) -> APNsChannelClient
    let dismissAfter: Int
    let database: Database
    let logger: Logger
    var interval: Duration = .seconds(60)

    func run() async throws {
        let pool = try await database.ready().pool
        let (channels, dismissAfter, logger, interval) = (self.channels, self.dismissAfter, self.logger, self.interval)
        try await untilGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let deleted = try await ChannelKeeper.deleteFinished(
                        now: Date(), dismissAfter: dismissAfter, client: channels, database: pool)
                    if deleted > 0 {
                        logger.info("deleted the channels of finished games", metadata: ["count": "\(deleted)"])
                    }
                } catch {
                    logger.warning("could not delete finished channels", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}

/// Runs `body` on a database connection of its own until it returns, again on a new connection
/// (after the shared reconnect backoff) whenever the connection is lost; the connection is closed
/// however `body` ends.
func onOwnConnection(
    url: String, logger: Logger, what: String, _ body: (PostgresConnection) async throws -> Void
) async throws {
    var failures = 0
    while !Task.isCancelled {
        do {
            let connection = try await PostgresConnection.connect(url)
            failures = 0
            do {
                try await body(connection)
                await connection.close()
                return
            } catch {
                await connection.close()
                throw error
            }
        } catch let error as PostgresError where error.kind == .connection {
            failures += 1
            let delay = Backoff.reconnect.delay(attempt: failures)
            logger.warning(
                "\(what) lost the database; reconnecting", metadata: ["error": "\(error)", "retry": "\(delay)"])
            try? await Task.sleep(for: delay)
        }
    }
}
