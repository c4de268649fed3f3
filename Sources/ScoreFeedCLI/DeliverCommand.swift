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
        let total = try await Self.deliver(connection, apns: apns, untilEmpty: untilEmpty)
        await connection.close()
        Output.error(
            "delivered \(total.sent) push(es); \(total.retried) retried, \(total.deactivated) deactivated, "
                + "\(total.failed) failed")
        if let paused = total.paused { throw CLIError("delivery paused: APNs said \(paused)") }
    }

    /// Runs a worker with the configured APNs clients (also used by `replay --deliver`).
    static func deliver(
        _ connection: PostgresConnection, apns: APNsOptions, untilEmpty: Bool
    ) async throws -> DeliveryRound {
        let clients = try PushClients(
            try apns.configuration(), connections: try apns.connectionCount(), logger: Runtime.logger)
        let worker = DeliveryWorker(connection: connection, client: { clients.client($0) }, logger: Runtime.logger)
        let url = try await Runtime.databaseURL()
        do {
            // The tick scheduler runs beside the worker (as in `serve`): coalesced updates whose
            // interval closed, and ends before Apple's 8-hour limit, go into the outbox on the wall clock.
            let total = try await withThrowingTaskGroup(of: DeliveryRound?.self) { group in
                group.addTask { try await worker.run(untilEmpty: untilEmpty) }
                group.addTask {
                    try await PushScheduler.run(url: url, planner: PushPlanner(), logger: Runtime.logger)
                    return nil
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let total = result { return total }
                }
                throw CancellationError()
            }
            await clients.shutdown()
            return total
        } catch {
            await clients.shutdown()
            throw error
        }
    }
}
