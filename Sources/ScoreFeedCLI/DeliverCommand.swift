import APNs
import ArgumentParser
import FCM
import Foundation
import LiveActivity
import PostgresClient
import PushDelivery
import ScoreStore

/// `scorefeed deliver [--until-empty]`: the delivery worker on its own.
struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract: "Deliver the push outbox to APNs and FCM (HTTP/2), retrying as each service asks.",
        discussion: """
            Claims due pushes with FOR UPDATE SKIP LOCKED (several workers may run), sends them, and \
            records every attempt. 410 and bad-token answers deactivate the activity; 429 and 5xx retry \
            with exponential backoff and jitter; 413 is never retried (a bug, logged); an invalid \
            provider token pauses delivery and exits with an error. With FCM settings \
            (SCOREFEED_FCM_CREDENTIALS; APNs settings are then optional), FCM workers deliver the activities and push-to-start devices registered through FCM \
            and the Android followers: UNREGISTERED and SENDER_ID_MISMATCH deactivate, QUOTA_EXCEEDED \
            honours Retry-After, UNAVAILABLE and INTERNAL retry, INVALID_ARGUMENT fails the push, \
            THIRD_PARTY_AUTH_ERROR and a refused OAuth exchange pause FCM delivery.
            """
    )

    @OptionGroup var apns: APNsOptions

    @OptionGroup var fcm: FCMOptions

    @Flag(help: "Stop when nothing is left to deliver (default: run until interrupted).")
    var untilEmpty = false

    func run() async throws {
        let settings = try DeliverySettings(apns: apns, fcm: fcm)
        let connection = try await Runtime.openDatabase()
        let until = untilEmpty
        let totals = try await TracingBootstrap.withTracing(Runtime.environment) {
            try await Self.deliver(connection, settings: settings, untilEmpty: until)
        }
        await connection.close()
        Self.report(totals)
        if let paused = totals.paused { throw CLIError("delivery paused: \(paused)") }
    }

    /// What the workers of one run delivered, by kind of message.
    struct Totals: Sendable {
        /// Pushes to targets (APNs and FCM).
        var pushes = DeliveryRound()
        var broadcasts = DeliveryRound()
        var starts = DeliveryRound()
        /// The first pause, naming its service and kind.
        var paused: String?
    }

    /// Prints what was delivered (broadcasts and starts only when there were any).
    static func report(_ totals: Totals) {
        let (total, broadcasts, starts) = (totals.pushes, totals.broadcasts, totals.starts)
        Output.error(
            "delivered \(total.sent) push(es); \(total.retried) retried, \(total.deactivated) deactivated, "
                + "\(total.failed) failed")
        if broadcasts.sent + broadcasts.failed > 0 {
            Output.error(
                "delivered \(broadcasts.sent) broadcast(s); \(broadcasts.retried) retried, \(broadcasts.failed) failed")
        }
        if starts.sent + starts.failed + starts.deactivated > 0 {
            Output.error(
                "delivered \(starts.sent) push-to-start(s); \(starts.failed + starts.deactivated) failed")
        }
    }

    /// The kind of message a worker delivers.
    private enum Kind: Sendable {
        case pushes, broadcasts, starts
    }

    /// A worker's totals: its kind and the service it delivers to (`APNs`, `FCM`).
    private typealias Finished = (kind: Kind, round: DeliveryRound, via: String)

    /// Runs the delivery workers (also for `replay --deliver`), the tick scheduler beside them: with
    /// APNs settings the workers of pushes, push-to-start and broadcasts to APNs; with FCM settings the
    /// workers of pushes (activities registered through FCM, Android followers) and push-to-start to
    /// FCM, on a connection of their own (``DeliverySettings`` says which). One ``DeliveryWorker`` type
    /// delivers every kind. A pause of any worker is reported.
    static func deliver(
        _ connection: PostgresConnection, settings: DeliverySettings, untilEmpty: Bool
    ) async throws -> Totals {
        let built = try settings.clients(logger: Runtime.logger)
        let (clients, fcmClient) = (built.apns, built.fcm)
        let url = try await Runtime.databaseURL()
        var opened: [PostgresConnection] = []
        func cleanUp() async {
            for extra in opened { await extra.close() }
            await built.shutdown()
        }
        do {
            // Each task: one worker, or starts then another (sequential until empty, so a game's start
            // goes before its broadcasts in a replay; side by side otherwise, as they never end).
            typealias Work = @Sendable () async throws -> [Finished]
            var workers: [Work] = []
            func work<Queue: DeliveryQueue>(_ worker: DeliveryWorker<Queue>, _ kind: Kind) -> Work {
                { [(kind, try await worker.run(untilEmpty: untilEmpty), worker.queue.service)] }
            }
            func startsThen(_ starts: @escaping Work, _ then: @escaping Work) -> [Work] {
                guard untilEmpty else { return [starts, then] }
                return [
                    {
                        let started = try await starts()
                        if started.contains(where: { $0.round.paused != nil }) { return started }
                        return started + (try await then())
                    }
                ]
            }
            let logger = Runtime.logger
            if let clients {
                workers.append(
                    work(
                        DeliveryWorker(connection: connection, client: { clients.client($0) }, logger: logger), .pushes)
                )
                let broadcastConnection = try await PostgresConnection.connect(url)
                opened.append(broadcastConnection)
                let broadcasts = DeliveryWorker(
                    connection: broadcastConnection, broadcasts: { clients.broadcasts($0) }, logger: logger)
                let starts = DeliveryWorker(
                    connection: broadcastConnection, starts: .apns({ clients.client($0) }), logger: logger)
                workers += startsThen(work(starts, .starts), work(broadcasts, .broadcasts))
            }
            if let fcmClient {
                let fcmConnection = try await PostgresConnection.connect(url)
                opened.append(fcmConnection)
                let pushes = DeliveryWorker(connection: fcmConnection, transport: .fcm(fcmClient), logger: logger)
                let starts = DeliveryWorker(connection: fcmConnection, starts: .fcm(fcmClient), logger: logger)
                workers += startsThen(work(starts, .starts), work(pushes, .pushes))
            }
            let tasks = workers
            let totals = try await withThrowingTaskGroup(of: [Finished]?.self) { group in
                for work in tasks { group.addTask { try await work() } }
                // The tick scheduler runs beside the workers (as in `serve`): coalesced updates whose
                // interval closed, and ends before Apple's 8-hour limit, go into the outbox on the wall clock.
                group.addTask {
                    try await PushScheduler.run(url: url, planner: PushPlanner(), logger: Runtime.logger)
                    return nil
                }
                defer { group.cancelAll() }
                var totals = Totals()
                var finished = 0
                while let result = try await group.next() {
                    guard let result else { continue }  // the scheduler
                    for (kind, round, via) in result {
                        switch kind {
                        case .pushes: totals.pushes.add(round)
                        case .broadcasts: totals.broadcasts.add(round)
                        case .starts: totals.starts.add(round)
                        }
                        let said: (String) -> String =
                            kind == .starts
                            ? { "push-to-start\(via == "FCM" ? " through FCM" : ""): \($0)" } : { "\(via) said \($0)" }
                        totals.paused = totals.paused ?? round.paused.map(said)
                    }
                    finished += 1
                    // Until empty: every worker done. Otherwise the first that stops (paused) ends the run.
                    if finished == tasks.count || !untilEmpty { return totals }
                }
                throw CancellationError()
            }
            await cleanUp()
            return totals
        } catch {
            await cleanUp()
            throw error
        }
    }
}
