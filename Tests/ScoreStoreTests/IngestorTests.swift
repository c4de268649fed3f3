import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("ingest: fold before append, projection and commands in the same transaction")
struct IngestorTests {
    @Test("an accepted message appends, projects and plans a command")
    func accepted() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            let result = try await ingestor.ingest(try message(scheduledJSON))
            #expect(result.outcome == .appended(position: 1, version: 1))
            #expect(result.state?.status == .scheduled)
            let started = try await ingestor.ingest(
                try message(#"{"id":"m2","gameId":"g1","at":"2026-04-01T17:10:00Z","type":"game.started"}"#))
            #expect(started.command?.event == .update)
            #expect(started.command?.priority == 10)
            let stored = try await connection.withSession { try ScoreProjection.load("g1", in: $0) }
            #expect(stored == started.state)
            #expect(stored?.inning == "Top 1st")
            let commands = try await connection.withSession { try PushCommands.forGame("g1", in: $0) }
            #expect(commands.last == started.command)
            let checkpoint = try await connection.query("SELECT position FROM score_states WHERE game_id = 'g1'")
            #expect(try checkpoint[0].int("position") == 2)
        }
    }

    @Test("a message the fold refuses is rejected before it is appended: nothing of it is stored")
    func rejected() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            _ = try await ingestor.ingest(try message(scheduledJSON))
            let before = try await connection.withSession { try ScoreProjection.load("g1", in: $0) }
            let commandsBefore = try await count("push_commands", connection)
            let run = try message(
                #"{"id":"m2","gameId":"g1","at":"2026-04-01T17:20:00Z","type":"run.scored","team":"home"}"#)
            let error = await #expect(throws: StoreError.self) { try await ingestor.ingest(run) }
            #expect(error?.code == "not-in-progress")
            let value6 = try await count("events", connection)
            #expect(value6 == 1)
            let commandsAfter = try await count("push_commands", connection)
            #expect(commandsAfter == commandsBefore)
            #expect(try await connection.withSession { try ScoreProjection.load("g1", in: $0) } == before)
            // The refused id was not consumed: once the game starts, the same message is accepted.
            _ = try await ingestor.ingest(
                try message(#"{"id":"m3","gameId":"g1","at":"2026-04-01T17:10:00Z","type":"game.started"}"#))
            #expect(try await ingestor.ingest(run).outcome == .appended(position: 3, version: 3))
        }
    }

    @Test("a message for an unknown game is refused")
    func unknownGame() async throws {
        try await withStore { connection in
            let started = try message(#"{"id":"x","gameId":"nope","at":"2026-04-01T17:10:00Z","type":"game.started"}"#)
            let error = await #expect(throws: StoreError.self) {
                try await Ingestor(connection: connection).ingest(started)
            }
            #expect(error?.code == "game-not-scheduled")
            let value8 = try await count("events", connection)
            #expect(value8 == 0)
        }
    }

    @Test("a duplicate reports the stored position and plans nothing")
    func duplicate() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            _ = try await ingestor.ingest(try message(scheduledJSON))
            let again = try await ingestor.ingest(try message(scheduledJSON))
            #expect(again == IngestResult(outcome: .duplicate(position: 1), state: nil, command: nil))
        }
    }

    @Test("concurrent writers on one game never lose or fork the stream")
    func concurrentWriters() async throws {
        try await withStore { connection in
            _ = try await Ingestor(connection: connection).ingest(try message(scheduledJSON))
            _ = try await Ingestor(connection: connection).ingest(
                try message(#"{"id":"s","gameId":"g1","at":"2026-04-01T17:10:00Z","type":"game.started"}"#))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        let own = try await PostgresConnection.connect(try TestURL.current(connection))
                        let ingestor = Ingestor(connection: own)
                        for n in 0..<10 {
                            let run = try message(
                                #"{"id":"w\#(writer)-\#(n)","gameId":"g1","at":"2026-04-01T17:30:00Z","type":"run.scored","team":"away"}"#
                            )
                            _ = try await ingestor.ingest(run)
                        }
                        await own.close()
                    }
                }
                try await group.waitForAll()
            }
            let state = try await connection.withSession { try ScoreProjection.load("g1", in: $0) }
            #expect(state?.awayScore == 40)
            #expect(state?.version == 42)
            let versions = try await connection.query("SELECT stream_version FROM events ORDER BY position")
            #expect(try versions.rows.map { try $0.int("stream_version") } == Array(1...42))
            let timestamps = try await connection.query(
                "SELECT count(DISTINCT aps_timestamp) AS n, count(*) AS total FROM push_commands")
            #expect(try timestamps[0].int("n") == timestamps[0].int("total"))
        }
    }

    @Test("the projection equals the fold of the game's log")
    func projectionMatchesLog() async throws {
        try await withStore { connection in
            let replayer = Replayer(ingestor: Ingestor(connection: connection))
            _ = try await replayer.replay(files: [fixture("plain-nine.jsonl")]) { _ in }
            let games = try await connection.withSession { try ScoreProjection.all(in: $0) }
            for game in games {
                let events = try await connection.withSession { try EventLog.readStream(game.gameId, in: $0) }
                var folded: ScoreState?
                for event in events { folded = try ScoreFold.apply(event.message, to: folded) }
                #expect(folded == game)
            }
        }
    }
}

/// The URL of the schema a connection is using, so a test can open more connections to it.
enum TestURL {
    static func current(_ connection: PostgresConnection) async throws -> String {
        let schema = try await connection.query("SELECT current_schema() AS s")[0].string("s")
        return ScoreFeedTesting.TestDatabase.scoped(try ScoreFeedTesting.TestDatabase.url(), schema: schema)
    }
}
