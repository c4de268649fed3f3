import APNs
import APNsSandbox
import ArgumentParser
import Foundation
import PostgresClient
import PushDelivery
import ScoreDomain
import ScoreFeedCLI
import ScoreStore

/// `scorefeed-bench broadcast --json`: many games in progress, each with a broadcast channel; a run
/// scored in every one; how fast the broadcasts are accepted, and one game alone.
struct BroadcastBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broadcast",
        abstract: "N games in progress with a channel each, a run scored in every one: broadcasts/s and latency.",
        discussion: """
            Runs in a throw-away schema of the configured database with an in-process local APNs server \
            (channels created through its management API). Measures from the append of the runs to each \
            broadcast's acceptance, with the projector planning while the broadcast worker delivers; then \
            one more run in one game alone.
            """
    )

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Number of games, each with its channel.")
    var games = 2000

    func validate() throws {
        guard (1...10_000).contains(games) else { throw ValidationError("--games must be 1 to 10,000 (Apple's limit)") }
    }

    func run() async throws {
        try printJSON(try await withBenchSchema { try await measure(url: $0) })
    }

    private func measure(url: String) async throws -> [String: Any] {
        let connection = try await PostgresConnection.connect(url)
        let deliveryConnection = try await PostgresConnection.connect(url)
        try await Migrator().migrate(connection, logger: Runtime.logger)
        let count = games
        let numbers = try await withBenchAPNs { client, sandbox -> [String: Double] in
            guard let sandbox else { throw CLIError("bench broadcast needs the local APNs server") }
            let channels = APNsChannelClient(configuration: client.configuration, logger: Runtime.logger)
            let ingestor = Ingestor(connection: connection)
            let projector = Projector(clock: .wall({ Date() }))
            let now = Date()
            let team = { (code: String) in Team(code: code, name: code, logo: "") }
            let ids = (0..<count).map { "bench-\($0)" }
            _ = try await ingestor.ingest(
                ids.flatMap { game in
                    [
                        FeedMessage(
                            id: "\(game)-1", gameId: game, at: now.addingTimeInterval(-120),
                            event: .gameScheduled(
                                home: team("HOM"), away: team("AWY"), startsAt: now.addingTimeInterval(-60))),
                        FeedMessage(
                            id: "\(game)-2", gameId: game, at: now.addingTimeInterval(-60), event: .gameStarted),
                    ]
                })
            try await projector.catchUp(connection)
            for game in ids {
                let created = await channels.create()
                guard let channelId = created.channelId else { throw CLIError("no channel: \(created)") }
                _ = try await connection.withSession { session in
                    try Channels.insert(
                        gameId: game, environment: .production, channelId: channelId, storagePolicy: 0,
                        registeredAt: now.addingTimeInterval(-30), in: session)
                }
            }
            await channels.shutdown()
            let worker = DeliveryWorker(
                connection: deliveryConnection, broadcasts: { _ in client }, logger: Runtime.logger)
            // The channels' interval (3 s) closes before the runs, so each run goes out at once.
            try await Task.sleep(for: .seconds(3.2))
            await sandbox.removeAllDeliveries()

            func round(_ messages: [FeedMessage]) async throws -> (appendedAt: Date, seconds: Double, sent: Int) {
                let appendedAt = Date()
                let began = ContinuousClock.now
                _ = try await ingestor.ingest(messages)
                let planning = Task { try await projector.catchUp(connection) }
                var sent = 0
                while sent < messages.count {
                    let total = try await worker.run(untilEmpty: true, pollInterval: 0.001)
                    sent += total.sent
                    if total.sent == 0 { try await Task.sleep(for: .milliseconds(1)) }
                }
                _ = try await planning.value
                return (appendedAt, (ContinuousClock.now - began) / .seconds(1), sent)
            }
            let all = try await round(
                ids.map { FeedMessage(id: "\($0)-3", gameId: $0, at: Date(), event: .runScored(team: .home, runs: 1)) })
            let latencies = await sandbox.delivered().filter(\.isBroadcast)
                .map { $0.time.timeIntervalSince(all.appendedAt) * 1000 }.sorted()
            // One game alone, after its interval closed again.
            try await Task.sleep(for: .seconds(3.2))
            await sandbox.removeAllDeliveries()
            let one = try await round([
                FeedMessage(id: "bench-0-4", gameId: "bench-0", at: Date(), event: .runScored(team: .away, runs: 1))
            ])
            let oneLatency = await sandbox.delivered().filter(\.isBroadcast).first.map {
                $0.time.timeIntervalSince(one.appendedAt) * 1000
            }
            return [
                "games": Double(count), "broadcasts": Double(all.sent),
                "broadcastsPerSecond": rounded(Double(all.sent) / all.seconds, places: 0),
                "appendToLastBroadcastMs": rounded(all.seconds * 1000, places: 1),
                "p50AppendToBroadcastMs": rounded(nearestRank(latencies, 50), places: 1),
                "p99AppendToBroadcastMs": rounded(nearestRank(latencies, 99), places: 1),
                "oneGameAppendToBroadcastMs": rounded(oneLatency ?? -1, places: 1),
            ]
        }
        await connection.close()
        await deliveryConnection.close()
        var result: [String: Any] = ["benchmark": "broadcast"]
        for (key, value) in numbers { result[key] = value.rounded() == value ? Int(value) as Any : value as Any }
        return result
    }
}
