import APNs
import ArgumentParser
import Foundation
import LiveActivity
import PostgresClient
import PushDelivery
import ScoreStore

/// `scorefeed deliver [--until-empty]`: the delivery worker on its own.
struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract: "Deliver the Live Activity push outbox to APNs (HTTP/2), retrying as APNs asks.",
        discussion: """
            Claims due pushes with FOR UPDATE SKIP LOCKED (several workers may run), sends them, and \
            records every attempt. 410 and bad-token answers deactivate the activity; 429 and 5xx retry \
            with exponential backoff and jitter; 413 is never retried (a bug, logged); an invalid \
            provider token pauses delivery and exits with an error.
            """
    )

    @OptionGroup var apns: APNsOptions

    @Flag(help: "Stop when nothing is left to deliver (default: run until interrupted).")
    var untilEmpty = false

    func run() async throws {
        let connection = try await Runtime.openDatabase()
        let (total, broadcasts) = try await Self.deliver(connection, apns: apns, untilEmpty: untilEmpty)
        await connection.close()
        Self.report(total, broadcasts)
        if let paused = total.paused ?? broadcasts.paused { throw CLIError("delivery paused: APNs said \(paused)") }
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
        case broadcasts(BroadcastRound)
        case starts
        case scheduler
    }

    /// Runs the push and broadcast workers with the configured APNs clients (also used by
    /// `replay --deliver`), the tick scheduler beside them.
    static func deliver(
        _ connection: PostgresConnection, apns: APNsOptions, untilEmpty: Bool
    ) async throws -> (DeliveryRound, BroadcastRound) {
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
                while let result = try await group.next() {
                    switch result {
                    case .pushes(let total): pushes = total
                    case .broadcasts(let total): broadcasts = total
                    case .scheduler, .starts: break
                    }
                    // Until empty: both workers done. Otherwise the first that stops ends the run.
                    if let pushes, let broadcasts { return (pushes, broadcasts) }
                    if !untilEmpty, pushes != nil || broadcasts != nil {
                        return (pushes ?? DeliveryRound(), broadcasts ?? BroadcastRound())
                    }
                }
                throw CancellationError()
            }
            await broadcastConnection.close()
            await clients.shutdown()
            return totals
        } catch {
            await broadcastConnection.close()
            await clients.shutdown()
            throw error
        }
    }
}
