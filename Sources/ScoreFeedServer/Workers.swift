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

/// The push delivery worker as a service. On graceful shutdown it claims nothing more and lets
/// the round in flight finish for up to `drain`; what is still in flight then is cancelled and
/// released at once (not left claimed until its lease ends).
struct DeliveryService: Service {
    let worker: DeliveryWorker
    let drain: Duration
    /// The database to LISTEN on for new pushes (``ActivityPushes/channel``), which wake the worker.
    let url: String
    let logger: Logger

    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

    func run() async throws {
        let (worker, drain, logger) = (self.worker, self.drain, self.logger)
        let stopping = Flag()
        let wakeup = DeliveryWakeup()
        let follower = LogFollower(url: url, channel: ActivityPushes.channel, logger: logger)
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
                    logger.critical("push delivery is paused until restarted: \(worker.transport.name) said \(paused)")
                    // Serve the rest (ingest, reads) until the server stops.
                    try? await gracefulShutdown()
                }
                logger.info(
                    "delivery worker stopped",
                    metadata: ["sent": "\(total.sent)", "released": "\(total.released)"])
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
                    logger.warning("delivery did not drain in time; releasing the pushes in flight")
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

/// The broadcast worker as a service: on a connection of its own (again after a lost one), woken by
/// the outbox's notifications; it stops on graceful shutdown (what is in flight is released).
struct BroadcastService: Service {
    let client: @Sendable (PushEnvironment) -> APNsClient
    let metrics: ServerMetrics
    /// The device (push host) client, for push-to-start (none: starts wait in their outbox).
    let devices: (@Sendable (PushEnvironment) -> APNsClient)?
    let database: Database
    let logger: Logger

    func run() async throws {
        _ = try await database.ready()
        let (client, devices, url, logger, metrics) = (self.client, self.devices, database.url, self.logger, metrics)
        try await untilGracefulShutdown {
            try await onOwnConnection(url: url, logger: logger, what: "broadcast delivery") { connection in
                let wakeup = DeliveryWakeup()
                let follower = LogFollower(url: url, channel: ActivityPushes.channel, logger: logger)
                var broadcaster = BroadcastWorker(connection: connection, client: client, logger: logger)
                broadcaster.observe = { metrics.push(outcome: $0, reason: $1, target: "channel") }
                let worker = broadcaster
                let starts = devices.map { devices -> StartWorker in
                    var starts = StartWorker(connection: connection, client: devices, logger: logger)
                    starts.observe = { metrics.push(outcome: $0, reason: $1, target: "pushToStart") }
                    return starts
                }
                let total = try await withThrowingTaskGroup(of: BroadcastRound?.self) { group in
                    group.addTask {
                        try await follower.run { _ in
                            wakeup.signal()
                            return false
                        }
                        return nil
                    }
                    group.addTask { try await worker.run(untilEmpty: false, wakeup: wakeup) }
                    if let starts {
                        group.addTask {
                            // Starts go to device tokens, on the push host.
                            let (_, _, paused) = try await starts.run(untilEmpty: false, wakeup: nil)
                            if let paused {
                                metrics.deliveryPaused(service: "apns")
                                logger.critical("push-to-start is paused until restarted: APNs said \(paused)")
                            }
                            return nil
                        }
                    }
                    defer { group.cancelAll() }
                    while let result = try await group.next() {
                        if let total = result { return total }
                    }
                    return BroadcastRound()
                }
                if let paused = total.paused {
                    metrics.deliveryPaused(service: "apns")
                    logger.critical("broadcast delivery is paused until restarted: APNs said \(paused)")
                }
            }
        }
        logger.info("broadcast worker stopped")
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
