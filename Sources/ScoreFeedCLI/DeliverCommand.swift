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
            (SCOREFEED_FCM_CREDENTIALS), a second worker delivers the activities registered through FCM \
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
        let connection = try await Runtime.openDatabase()
        let (total, broadcasts) = try await Self.deliver(connection, apns: apns, fcm: fcm, untilEmpty: untilEmpty)
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
        case pushes(DeliveryRound)
        case fcm(DeliveryRound)
        case broadcasts(BroadcastRound)
        case starts
        case scheduler
    }

    /// Runs the push and broadcast workers with the configured APNs clients (also used by
    /// `replay --deliver`), the tick scheduler beside them.
    /// With FCM settings, the FCM worker runs beside them on a connection of its own; its totals are
    /// added to the pushes' (a pause of either is reported).
    static func deliver(
        _ connection: PostgresConnection, apns: APNsOptions, fcm: FCMOptions, untilEmpty: Bool
    ) async throws -> (DeliveryRound, BroadcastRound) {
        let fcmClient = try fcm.client(logger: Runtime.logger)
        let fcmConnection: PostgresConnection? =
            fcmClient == nil ? nil : try await PostgresConnection.connect(try await Runtime.databaseURL())
        let fcmWorker: DeliveryWorker? =
            if let fcmConnection, let fcmClient {
                DeliveryWorker(connection: fcmConnection, transport: .fcm(fcmClient), logger: Runtime.logger)
            } else {
                nil
            }
        let clients = try PushClients(
            try apns.configuration(), connections: try apns.connectionCount(),
            channelsURL: try apns.channelsURLSetting(), broadcastURL: try apns.broadcastURLSetting(),
            logger: Runtime.logger)
        let worker = DeliveryWorker(connection: connection, client: { clients.client($0) }, logger: Runtime.logger)
        let url = try await Runtime.databaseURL()
        let broadcastConnection = try await PostgresConnection.connect(url)
        let broadcaster = BroadcastWorker(
            connection: broadcastConnection, client: { clients.broadcasts($0) }, logger: Runtime.logger)
        let starter = StartWorker(
            connection: broadcastConnection, client: { clients.client($0) }, logger: Runtime.logger)
        do {
            // The tick scheduler runs beside the workers (as in `serve`): coalesced updates whose
            // interval closed, and ends before Apple's 8-hour limit, go into the outbox on the wall clock.
            let totals = try await withThrowingTaskGroup(of: Finished.self) { group in
                group.addTask { .pushes(try await worker.run(untilEmpty: untilEmpty)) }
                if let fcmWorker = fcmWorker {
                    group.addTask {
                        // Starts through FCM first, as on the APNs side.
                        let starts = StartWorker(
                            connection: fcmWorker.connection, transport: fcmWorker.transport, logger: Runtime.logger)
                        let started = try await starts.run(untilEmpty: untilEmpty)
                        if started.sent + started.failed > 0 {
                            Output.error(
                                "delivered \(started.sent) push-to-start(s) through FCM; \(started.failed) failed")
                        }
                        if let paused = started.paused {
                            var round = DeliveryRound()
                            round.paused = "push-to-start: \(paused)"
                            return .fcm(round)
                        }
                        return .fcm(try await fcmWorker.run(untilEmpty: untilEmpty))
                    }
                }
                group.addTask {
                    // Starts first: a game's start is planned before its updates.
                    let starts = try await starter.run(untilEmpty: untilEmpty)
                    if starts.sent + starts.failed > 0 {
                        Output.error("delivered \(starts.sent) push-to-start(s); \(starts.failed) failed")
                    }
                    return .broadcasts(try await broadcaster.run(untilEmpty: untilEmpty))
                }
                group.addTask {
                    try await PushScheduler.run(url: url, planner: PushPlanner(), logger: Runtime.logger)
                    return .scheduler
                }
                defer { group.cancelAll() }
                var pushes: DeliveryRound?
                var broadcasts: BroadcastRound?
                var fcmPushes: DeliveryRound? = fcmWorker == nil ? DeliveryRound() : nil
                func merged() -> DeliveryRound {
                    var total = pushes ?? DeliveryRound()
                    total.add(fcmPushes ?? DeliveryRound())
                    total.paused = pushes?.paused.map { "APNs said \($0)" } ?? fcmPushes?.paused.map { "FCM: \($0)" }
                    return total
                }
                while let result = try await group.next() {
                    switch result {
                    case .pushes(let total): pushes = total
                    case .fcm(let total): fcmPushes = total
                    case .broadcasts(let total): broadcasts = total
                    case .scheduler, .starts: break
                    }
                    // Until empty: every worker done. Otherwise the first that stops ends the run.
                    if pushes != nil, fcmPushes != nil, let broadcasts { return (merged(), broadcasts) }
                    if !untilEmpty, pushes != nil || broadcasts != nil || (fcmWorker != nil && fcmPushes != nil) {
                        return (merged(), broadcasts ?? BroadcastRound())
                    }
                }
                throw CancellationError()
            }
            await broadcastConnection.close()
            await clients.shutdown()
            await fcmConnection?.close()
            await fcmClient?.shutdown()
            return totals
        } catch {
            await broadcastConnection.close()
            await clients.shutdown()
            await fcmConnection?.close()
            await fcmClient?.shutdown()
            throw error
        }
    }
}
