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
        let (total, broadcasts) = try await TracingBootstrap.withTracing(Runtime.environment) {
            try await Self.deliver(connection, settings: settings, untilEmpty: until)
        }
        await connection.close()
        Self.report(total, broadcasts)
        if let paused = total.paused ?? broadcasts.paused { throw CLIError("delivery paused: \(paused)") }
    }

    /// Prints what was delivered (broadcasts only when there were any).
    static func report(_ total: DeliveryRound, _ broadcasts: BroadcastRound) {
        Output.error(
            "delivered \(total.sent) push(es); \(total.retried) retried, \(total.deactivated) deactivated, "
                + "\(total.failed) failed")
        if broadcasts.sent + broadcasts.failed > 0 {
            Output.error(
                "delivered \(broadcasts.sent) broadcast(s); \(broadcasts.retried) retried, \(broadcasts.failed) failed")
        }
    }

    private enum Finished: Sendable {
        /// A push worker's totals, and the service it delivers to (`APNs`, `FCM`).
        case pushes(DeliveryRound, via: String)
        case broadcasts(BroadcastRound)
        /// A start worker stopped (it stops only when paused, or when nothing is left).
        case starts(paused: String?)
        case scheduler
    }

    /// Runs the delivery workers (also for `replay --deliver`), the tick scheduler beside them: with
    /// APNs settings the push, push-to-start and broadcast workers to APNs; with FCM settings the push
    /// worker (activities registered through FCM, Android followers) and the push-to-start worker to
    /// FCM, on a connection of their own (``DeliverySettings`` says which). Returns the pushes of both (a
    /// pause of any worker is reported) and the broadcasts.
    static func deliver(
        _ connection: PostgresConnection, settings: DeliverySettings, untilEmpty: Bool
    ) async throws -> (DeliveryRound, BroadcastRound) {
        let built = try settings.clients(logger: Runtime.logger)
        let (clients, fcmClient) = (built.apns, built.fcm)
        let url = try await Runtime.databaseURL()
        var opened: [PostgresConnection] = []
        func cleanUp() async {
            for extra in opened { await extra.close() }
            await built.shutdown()
        }
        do {
            // Each worker task: its own loop; `starts` then `then` (sequential until empty, so a game's
            // start goes before its broadcasts in a replay; side by side otherwise, as they never end).
            typealias Work = @Sendable () async throws -> Finished
            var workers: [Work] = []
            func startsThen(_ starts: StartWorker, label: String, _ then: @escaping Work) -> [Work] {
                let runStarts: Work = {
                    let started = try await starts.run(untilEmpty: untilEmpty)
                    if started.sent + started.failed > 0 {
                        Output.error("delivered \(started.sent) push-to-start(s)\(label); \(started.failed) failed")
                    }
                    return .starts(paused: started.paused.map { "push-to-start\(label): \($0)" })
                }
                guard untilEmpty else { return [runStarts, then] }
                return [
                    {
                        if case .starts(let paused?) = try await runStarts() { return .starts(paused: paused) }
                        return try await then()
                    }
                ]
            }
            if let clients {
                let worker = DeliveryWorker(
                    connection: connection, client: { clients.client($0) }, logger: Runtime.logger)
                workers.append { .pushes(try await worker.run(untilEmpty: untilEmpty), via: "APNs") }
                let broadcastConnection = try await PostgresConnection.connect(url)
                opened.append(broadcastConnection)
                let broadcaster = BroadcastWorker(
                    connection: broadcastConnection, client: { clients.broadcasts($0) }, logger: Runtime.logger)
                let starter = StartWorker(
                    connection: broadcastConnection, client: { clients.client($0) }, logger: Runtime.logger)
                workers += startsThen(starter, label: "") {
                    .broadcasts(try await broadcaster.run(untilEmpty: untilEmpty))
                }
            }
            if let fcmClient {
                let fcmConnection = try await PostgresConnection.connect(url)
                opened.append(fcmConnection)
                let worker = DeliveryWorker(
                    connection: fcmConnection, transport: .fcm(fcmClient), logger: Runtime.logger)
                let starter = StartWorker(connection: fcmConnection, transport: .fcm(fcmClient), logger: Runtime.logger)
                workers += startsThen(starter, label: " through FCM") {
                    .pushes(try await worker.run(untilEmpty: untilEmpty), via: "FCM")
                }
            }
            let tasks = workers
            let totals = try await withThrowingTaskGroup(of: Finished.self) { group in
                for work in tasks { group.addTask(operation: work) }
                // The tick scheduler runs beside the workers (as in `serve`): coalesced updates whose
                // interval closed, and ends before Apple's 8-hour limit, go into the outbox on the wall clock.
                group.addTask {
                    try await PushScheduler.run(url: url, planner: PushPlanner(), logger: Runtime.logger)
                    return .scheduler
                }
                defer { group.cancelAll() }
                var pushes = DeliveryRound()
                var broadcasts = BroadcastRound()
                var finished = 0
                while let result = try await group.next() {
                    switch result {
                    case .pushes(let total, let via):
                        pushes.add(total)
                        pushes.paused = pushes.paused ?? total.paused.map { "\(via) said \($0)" }
                    case .broadcasts(let total): broadcasts = total
                    case .starts(let paused): pushes.paused = pushes.paused ?? paused
                    case .scheduler: continue
                    }
                    finished += 1
                    // Until empty: every worker done. Otherwise the first that stops (paused) ends the run.
                    if finished == tasks.count || !untilEmpty { return (pushes, broadcasts) }
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
