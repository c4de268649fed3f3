import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("projector: checkpointed, rebuildable")
struct ProjectorTests {
    private func replayAll(_ connection: PostgresConnection) async throws {
        let files = ["plain-nine", "extra-innings-walkoff", "delayed-postponed"].map { fixture("\($0).jsonl") }
        try await registerActivities(for: files[0], connection)
        _ = try await Replayer(ingestor: Ingestor(connection: connection)).replay(files: files) { _, _ in }
    }

    private func rows(_ table: String, _ connection: PostgresConnection) async throws -> [String] {
        let result = try await connection.query("SELECT row_to_json(t)::text AS r FROM \(table) t ORDER BY 1")
        return result.rows.map { $0.text(at: 0) ?? "" }
    }

    @Test("rebuild gives the same score_states, row for row, and plans no push twice")
    func rebuild() async throws {
        try await withStore { connection in
            try await replayAll(connection)
            let live = try await rows("score_states", connection)
            let pushes = try await count("outbox", connection)
            #expect(pushes > 0)
            let folded = try await Projector(pageSize: 37).rebuild(connection)
            #expect(folded == 93 + 76 + 36)
            #expect(try await rows("score_states", connection) == live)
            let after = try await count("outbox", connection)
            #expect(after == pushes)
            let checkpoint = try await connection.withSession { try Projector.checkpoint(in: $0) }
            #expect(checkpoint == 205)
        }
    }

    @Test("the projection equals the fold of each game's log")
    func projectionMatchesLog() async throws {
        try await withStore { connection in
            try await replayAll(connection)
            let games = try await connection.withSession { try ScoreProjection.all(in: $0) }
            #expect(games.count == 3)
            for game in games {
                let events = try await connection.withSession { try EventLog.readStream(game.gameId, in: $0) }
                var folded: ScoreState?
                for event in events { folded = try ScoreFold.apply(event.message, to: folded) }
                #expect(folded == game)
            }
        }
    }

    @Test("a page rolled back leaves rows, pushes, throttles and checkpoint as they were; the next step redoes it")
    func atomicPage() async throws {
        struct Crash: Error {}
        try await withStore { connection in
            let messages = try FeedFile.read(fixture("plain-nine.jsonl")).map(\.message)
            try await registerActivities(for: fixture("plain-nine.jsonl"), connection)
            let throttles = try await rows("activities", connection)
            _ = try await Ingestor(connection: connection).ingest(messages)
            // A projector that dies after writing but before committing.
            await #expect(throws: Crash.self) {
                try await connection.transaction { tx in
                    var audience: Audience?
                    let planning = ProjectionPage.Planning(planner: PushPlanner(), clock: .eventTime)
                    _ = try Projector.applyPage(pageSize: 10, planning: planning, audience: &audience, in: tx)
                    throw Crash()
                }
            }
            let states = try await count("score_states", connection)
            #expect(states == 0)
            let pushes = try await count("outbox", connection)
            #expect(pushes == 0)
            #expect(try await rows("activities", connection) == throttles)
            #expect(try await connection.withSession { try Projector.checkpoint(in: $0) } == 0)
            #expect(try await Projector(pageSize: 10).step(connection) == 10)
            #expect(try await connection.withSession { try Projector.checkpoint(in: $0) } == 10)
            try await Projector().catchUp(connection)
            let planned = try await count("outbox", connection)
            let golden = try String(contentsOfFile: fixture("plain-nine.pushes.jsonl"), encoding: .utf8)
            #expect(planned == golden.split(separator: "\n").count)
        }
    }
}
