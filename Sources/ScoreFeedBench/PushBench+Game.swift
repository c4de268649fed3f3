import APNs
import Foundation
import PostgresClient
import PushDelivery
import ScoreDomain
import ScoreFeedCLI
import ScoreStore

extension PushBench {
    /// `--registered-during-game F`: a whole game on its own clock (eight runs five minutes apart,
    /// then the end), with the fraction F of the activities registered one by one at random moments
    /// during it (each run's share in the five minutes before it) and the rest before the game;
    /// after each change the pushes are delivered and the scheduler ticks (merging groups whose
    /// states became the same), as in `serve`. Counts the row writes from the first registration to
    /// the last push recorded.
    func measureGame(url: String, fraction: Double) async throws -> [String: Any] {
        let connection = try await PostgresConnection.connect(url)
        try await Migrator().migrate(connection, logger: Runtime.logger)
        let count = activities
        let numbers = try await withBenchAPNs(envFile: envFile, connections: connections) {
            client, _ -> [String: Double] in
            let ingestor = Ingestor(connection: connection)
            let projector = Projector()
            let start = Date(timeIntervalSince1970: 1_780_300_800)
            let team = { (code: String) in Team(code: code, name: code, logo: "") }
            _ = try await ingestor.ingest(
                FeedMessage(
                    id: "game-0", gameId: "bench", at: start.addingTimeInterval(-3600),
                    event: .gameScheduled(home: team("HOM"), away: team("AWY"), startsAt: start)))
            try await projector.catchUp(connection)
            let writesBefore = try await rowWrites([connection])
            let late = Int((Double(count) * fraction).rounded())
            let token: @Sendable (Int) -> String = { String(format: "%064x", $0 + 1) }
            _ = try await connection.withSession { session in
                try Activities.registerMany(
                    gameId: "bench", tokens: (late..<count).map(token), environment: .production,
                    bundleId: "com.example.scores", frequentUpdates: false, at: start.addingTimeInterval(-900),
                    in: session)
            }
            // The same moments every run: a fixed seed.
            var random = SeededRandom(seed: 28)
            let moments = (0..<late).map { _ in (run: Int(random.next() % 8), before: 1 + Int(random.next() % 299)) }
            let worker = DeliveryWorker(connection: connection, client: { _ in client }, logger: Runtime.logger)
            var delivered = 0
            let changes: [ScoreEvent] = (0..<8).map { .runScored(team: $0 % 2 == 0 ? .home : .away, runs: 1) }
            for (index, event) in ([.gameStarted] + changes + [.gameEnded(.closed)]).enumerated() {
                let at = start.addingTimeInterval(Double(index * 300))
                let run = index - 1
                let registering = moments.indices.filter { moments[$0].run == run }
                    .sorted { moments[$0].before > moments[$1].before }
                for activity in registering {
                    _ = try await connection.withSession { session in
                        try Activities.register(
                            gameId: "bench", token: token(activity), environment: .production,
                            bundleId: "com.example.scores", frequentUpdates: false,
                            at: at.addingTimeInterval(-Double(moments[activity].before)), in: session)
                    }
                }
                _ = try await ingestor.ingest(
                    FeedMessage(id: "game-\(index + 1)", gameId: "bench", at: at, event: event))
                try await projector.catchUp(connection)
                delivered += try await worker.run(untilEmpty: true).sent
                _ = try await connection.transaction { tx in
                    try PushScheduler.tick(at: at.addingTimeInterval(1), planner: projector.planner, in: tx)
                }
            }
            let writes = try await rowWrites([connection]) - writesBefore
            let groups = try await connection.query(
                "SELECT count(*) AS n, count(*) FILTER (WHERE merged_into IS NOT NULL) AS merged FROM target_groups")
            return [
                "activities": Double(count), "registeredDuringGame": Double(late), "delivered": Double(delivered),
                "rowWrites": Double(writes), "groups": Double(try groups[0].int("n")),
                "groupsMerged": Double(try groups[0].int("merged")),
            ]
        }
        await connection.close()
        var result: [String: Any] = ["benchmark": "push", "scenario": "a game with activities registered during it"]
        for (key, value) in numbers { result[key] = Int(value) }
        return result
    }
}
