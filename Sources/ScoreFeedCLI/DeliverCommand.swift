import APNs
import ArgumentParser
import Foundation
import PostgresClient
import PushDelivery

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
        let clients = try PushClients(try apns.configuration(), logger: Runtime.logger)
        let worker = DeliveryWorker(connection: connection, client: { clients.client($0) }, logger: Runtime.logger)
        do {
            let total = try await worker.run(untilEmpty: untilEmpty)
            await clients.shutdown()
            return total
        } catch {
            await clients.shutdown()
            throw error
        }
    }
}
