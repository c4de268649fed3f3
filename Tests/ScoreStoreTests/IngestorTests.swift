import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import Testing

@testable import ScoreStore

@Suite("ingest: the fold checks every message before it is appended")
struct IngestorTests {
    let started = #"{"id":"m2","gameId":"g1","at":"2026-04-01T17:10:00Z","type":"game.started"}"#
    let homeRun = #"{"id":"r1","gameId":"g1","at":"2026-04-01T17:20:00Z","type":"run.scored","team":"home"}"#

    @Test("accepted messages are appended; the projector then projects them and plans their pushes")
    func accepted() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            #expect(try await ingestor.ingest(try message(scheduledJSON)) == .appended(position: 1, version: 1))
            #expect(try await ingestor.ingest(try message(started)) == .appended(position: 2, version: 2))
            var audience: Audience? = Audience()
            let projected = try await Projector().catchUp(connection, audience: &audience)
            #expect(projected == 2)
            let stored = try await connection.withSession { try ScoreProjection.load("g1", in: $0) }
            #expect(stored?.status == .inprogress)
            #expect(stored?.inning == "Top 1st")
            #expect(stored?.version == 2)
            #expect(audience?.take().map(\.push.priority) == [5, 10])
            let checkpoint = try await connection.withSession { try Projector.checkpoint(in: $0) }
            #expect(checkpoint == 2)
            #expect(try await Projector().catchUp(connection) == 0)
        }
    }

    @Test("a message the fold refuses is not appended, and its id is not consumed")
    func rejected() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            _ = try await ingestor.ingest(try message(scheduledJSON))
            let error = await #expect(throws: IngestRejection.self) { try await ingestor.ingest(try message(homeRun)) }
            #expect(error?.code == "not-in-progress")
            #expect(error?.index == 0)
            let events = try await count("events", connection)
            #expect(events == 1)
            _ = try await ingestor.ingest(try message(started))
            #expect(try await ingestor.ingest(try message(homeRun)) == .appended(position: 3, version: 3))
        }
    }

    @Test("a message for an unknown game is refused")
    func unknownGame() async throws {
        try await withStore { connection in
            let start = try message(#"{"id":"x","gameId":"nope","at":"2026-04-01T17:10:00Z","type":"game.started"}"#)
            let error = await #expect(throws: IngestRejection.self) {
                try await Ingestor(connection: connection).ingest(start)
            }
            #expect(error?.code == "game-not-scheduled")
            let events = try await count("events", connection)
            #expect(events == 0)
        }
    }

    @Test("a batch is all or nothing when partial is off; with partial on, the messages before a refusal stay")
    func batches() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            let batch = try [scheduledJSON, started, homeRun].map(message)
            // A second start: refused before the game is scheduled, and again once it has started.
            let refused = try [started.replacingOccurrences(of: "\"m2\"", with: "\"m9\"")].map(message)
            let whole = await #expect(throws: IngestRejection.self) {
                try await ingestor.ingest(refused + batch, partial: false)
            }
            #expect(whole?.index == 0)
            let none = try await count("events", connection)
            #expect(none == 0)
            let prefix = await #expect(throws: IngestRejection.self) {
                try await ingestor.ingest(batch + refused + batch)
            }
            #expect(prefix?.index == 3)
            #expect(
                prefix?.outcomes == [
                    .appended(position: 1, version: 1), .appended(position: 2, version: 2),
                    .appended(position: 3, version: 3),
                ])
            let three = try await count("events", connection)
            #expect(three == 3)
        }
    }

    @Test("duplicates inside a batch and across batches take no version and report the stored position")
    func duplicates() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            let first = try await ingestor.ingest(try [scheduledJSON, scheduledJSON, started].map(message))
            #expect(
                first == [
                    .appended(position: 1, version: 1), .duplicate(position: 1), .appended(position: 2, version: 2),
                ])
            let second = try await ingestor.ingest(try [started, homeRun, homeRun].map(message))
            #expect(second == [.duplicate(position: 2), .appended(position: 3, version: 3), .duplicate(position: 3)])
        }
    }

    @Test("one batch can span several games, each stream gets its own versions")
    func manyGames() async throws {
        try await withStore { connection in
            let other = scheduledJSON.replacingOccurrences(of: "\"g1\"", with: "\"g2\"")
                .replacingOccurrences(of: "\"m1\"", with: "\"n1\"")
            let otherStart = started.replacingOccurrences(of: "\"g1\"", with: "\"g2\"")
                .replacingOccurrences(of: "\"m2\"", with: "\"n2\"")
            let outcomes = try await Ingestor(connection: connection).ingest(
                try [scheduledJSON, other, otherStart, started].map(message))
            #expect(
                outcomes == [
                    .appended(position: 1, version: 1), .appended(position: 2, version: 1),
                    .appended(position: 3, version: 2), .appended(position: 4, version: 2),
                ])
        }
    }

    @Test("writers with stale caches on one game never lose or fork the stream")
    func concurrentWriters() async throws {
        try await withStore { connection in
            _ = try await Ingestor(connection: connection).ingest(try [scheduledJSON, started].map(message))
            let url = try await TestURL.current(connection)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        let own = try await PostgresConnection.connect(url)
                        let ingestor = Ingestor(connection: own)
                        for n in 0..<10 {
                            _ = try await ingestor.ingest(
                                try message(
                                    #"{"id":"w\#(writer)-\#(n)","gameId":"g1","at":"2026-04-01T17:30:00Z","type":"run.scored","team":"away"}"#
                                ))
                        }
                        await own.close()
                    }
                }
                try await group.waitForAll()
            }
            var audience: Audience? = Audience()
            try await Projector().catchUp(connection, audience: &audience)
            let state = try await connection.withSession { try ScoreProjection.load("g1", in: $0) }
            #expect(state?.awayScore == 40)
            #expect(state?.version == 42)
            let versions = try await connection.query("SELECT stream_version FROM events ORDER BY position")
            #expect(try versions.rows.map { try $0.int("stream_version") } == Array(1...42))
            // 40 runs in the same second: pushes coalesce, their timestamps still strictly increase.
            audience?.flush(PushPlanner())
            let timestamps = audience?.take().map(\.push.timestamp) ?? []
            #expect(timestamps.count >= 2)
            #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test("a refusal is decided against the stream as committed, never against a stale cached state")
    func staleCacheNeverRefuses() async throws {
        try await withStore { connection in
            let url = try await TestURL.current(connection)
            let other = try await PostgresConnection.connect(url)
            let cached = Ingestor(connection: connection)
            _ = try await cached.ingest(try message(scheduledJSON))  // caches g1 as scheduled
            _ = try await Ingestor(connection: other).ingest(try message(started))  // another writer starts it
            // Valid against the committed stream (in progress), invalid against the cache (scheduled).
            #expect(try await cached.ingest(try message(homeRun)) == .appended(position: 3, version: 3))
            await other.close()
        }
    }

    @Test("one ingestor, many concurrent callers each on its own game: no caller's answer depends on another's")
    func interleavedCallers() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for game in 0..<16 {
                    group.addTask {
                        let rename = { (json: String) in
                            json.replacingOccurrences(of: "\"g1\"", with: "\"i\(game)\"")
                                .replacingOccurrences(of: "\"id\":\"", with: "\"id\":\"i\(game)-")
                        }
                        for json in [scheduledJSON, started, homeRun] {
                            let outcome = try await ingestor.ingest(try message(rename(json)))
                            guard case .appended = outcome else { throw IngestTestError("\(outcome)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let events = try await count("events", connection)
            #expect(events == 48)
        }
    }

    @Test("group commit: concurrent calls share transactions, each gets its own answer, a refused one spares the rest")
    func groupCommit() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            let rename: @Sendable (String, Int) -> String = { json, game in
                json.replacingOccurrences(of: "\"g1\"", with: "\"k\(game)\"")
                    .replacingOccurrences(of: "\"id\":\"", with: "\"id\":\"k\(game)-")
            }
            for game in 0..<40 { _ = try await ingestor.ingest(try message(rename(scheduledJSON, game))) }
            let before = await ingestor.transactions
            // 40 calls at once: every even game starts, every odd game gets a run before its start (refused).
            let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for game in 0..<40 {
                    group.addTask {
                        let json = rename(game % 2 == 0 ? started : homeRun, game)
                        do {
                            let outcome = try await ingestor.ingest(try message(json))
                            guard case .appended = outcome else { return (game, "\(outcome)") }
                            return (game, "appended")
                        } catch let rejection as IngestRejection {
                            return (game, rejection.code)
                        }
                    }
                }
                var answers: [Int: String] = [:]
                for try await (game, answer) in group { answers[game] = answer }
                return answers
            }
            for game in 0..<40 {
                #expect(answers[game] == (game % 2 == 0 ? "appended" : "not-in-progress"), "game \(game)")
            }
            let used = await ingestor.transactions - before
            #expect(used < 40, "40 concurrent calls used \(used) transactions")
            let events = try await count("events", connection)
            #expect(events == 60)
        }
    }
}

/// The URL of the schema a connection is using, so a test can open more connections to it.
enum TestURL {
    static func current(_ connection: PostgresConnection) async throws -> String {
        let schema = try await connection.query("SELECT current_schema() AS s")[0].string("s")
        return TestDatabase.scoped(try TestDatabase.url(), schema: schema)
    }
}

struct IngestTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The verdicts of one group, without a database.
@Suite("group commit: each call judged on its own, in order")
struct GroupJudgementTests {
    @Test("a refused call keeps nothing (or its prefix), the calls after it are judged on what is left")
    func verdicts() throws {
        let schedule = try message(scheduledJSON)
        let start = try message(#"{"id":"m2","gameId":"g1","at":"2026-04-01T17:10:00Z","type":"game.started"}"#)
        let run = try message(
            #"{"id":"r1","gameId":"g1","at":"2026-04-01T17:20:00Z","type":"run.scored","team":"home"}"#)
        var group = GroupJudgement(states: ["g1": nil], stored: [:])
        // A run before the game exists: refused, nothing kept; the schedule after it is judged afresh.
        let first = group.judge([run], partial: false)
        #expect(first.accepted == 0 && first.rejection?.code == "game-not-scheduled")
        #expect(group.judge([schedule], partial: false).accepted == 1)
        // Partial: the start is kept, the second start refused.
        let restart = try message(#"{"id":"m9","gameId":"g1","at":"2026-04-01T17:11:00Z","type":"game.started"}"#)
        let partial = group.judge([start, restart], partial: true)
        #expect(partial.accepted == 1 && partial.rejection?.index == 1)
        // The same id again in a later call of the group is a duplicate, never folded.
        #expect(group.judge([start, run], partial: false).accepted == 2)
        #expect(group.states["g1"]??.homeScore == 1)
    }
}

extension IngestorTests {
    @Test(
        "groups chained on a connection, beside another writer on the same games: no stream lost or forked, a duplicate is one, a refusal spares the rest"
    )
    func chained() async throws {
        try await withStore { connection in
            let other = try await PostgresConnection.connect(try await TestURL.current(connection))
            let ingestors = [Ingestor(connection: connection), Ingestor(connection: other)]
            let rename: @Sendable (String, Int) -> String = { json, game in
                json.replacingOccurrences(of: "\"g1\"", with: "\"c\(game)\"")
                    .replacingOccurrences(of: "\"id\":\"", with: "\"id\":\"c\(game)-")
            }
            for game in 0..<4 {
                for ingestor in ingestors {
                    _ = try await ingestor.ingest(try [scheduledJSON, started].map { try message(rename($0, game)) })
                }
            }
            // 16 writers on 4 games, half through each ingestor, 10 runs each, then each sends its
            // first run again; one more call is refused. The other ingestor's appends move the streams
            // under the first one's chain, so its chained groups are refused and judged again.
            let answers = try await withThrowingTaskGroup(of: [String].self) { group in
                for writer in 0..<16 {
                    group.addTask {
                        let ingestor = ingestors[writer % 2]
                        let run = { (n: Int) in
                            try message(
                                #"{"id":"w\#(writer)-\#(n)","gameId":"c\#(writer % 4)","at":"2026-04-01T17:30:00Z","type":"run.scored","team":"home"}"#
                            )
                        }
                        for n in 0..<10 {
                            guard case .appended = try await ingestor.ingest(try run(n)) else {
                                throw IngestTestError("w\(writer)-\(n)")
                            }
                        }
                        return ["\(try await ingestor.ingest(try run(0)))".components(separatedBy: "(")[0]]
                    }
                }
                group.addTask {
                    do {
                        _ = try await ingestors[0].ingest(try message(rename(homeRun, 9)))
                        return ["stored"]
                    } catch let rejection as IngestRejection {
                        return [rejection.code]
                    }
                }
                var all: [String] = []
                for try await part in group { all += part }
                return all
            }
            #expect(answers.sorted() == Array(repeating: "duplicate", count: 16) + ["game-not-scheduled"])
            #expect(try await count("events", connection) == 4 * 42)
            for game in 0..<4 {
                let versions = try await connection.query(
                    "SELECT stream_version FROM events WHERE stream_id = $1 ORDER BY position", ["c\(game)"])
                #expect(try versions.rows.map { try $0.int("stream_version") } == Array(1...42), "game c\(game)")
            }
            // Out of the chain: the connection runs other statements.
            #expect(try await connection.query("SELECT 1 AS one")[0].int("one") == 1)
            await other.close()
        }
    }
}
