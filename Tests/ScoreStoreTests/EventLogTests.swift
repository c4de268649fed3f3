import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("event log")
struct EventLogTests {
    private func append(_ json: String, expected: Int, _ connection: PostgresConnection) async throws -> AppendOutcome {
        let msg = try message(json)
        return try await connection.transaction { tx in
            try EventLog.lockForAppend(tx)
            return try EventLog.append(msg, expectedVersion: expected, in: tx)
        }
    }

    private func started(_ id: String, game: String = "g1", at: String = "2026-04-01T17:10:00Z") -> String {
        #"{"id":"\#(id)","gameId":"\#(game)","at":"\#(at)","type":"game.started"}"#
    }

    @Test("appends with an expected version; a stale version is a typed conflict")
    func expectedVersion() async throws {
        try await withStore { connection in
            let first = try await append(scheduledJSON, expected: 0, connection)
            #expect(first == .appended(position: 1, version: 1))
            let second = try await append(started("m2"), expected: 1, connection)
            #expect(second == .appended(position: 2, version: 2))
            let error = await #expect(throws: StoreError.self) {
                try await append(started("m3"), expected: 1, connection)
            }
            #expect(error?.code == "version-conflict")
            #expect(error?.description == #"version conflict on game "g1": expected version 1, the stream is at 2"#)
            let events = try await count("events", connection)
            #expect(events == 2)
        }
    }

    @Test("the same message id again is a reported duplicate, not a second event")
    func idempotent() async throws {
        try await withStore { connection in
            _ = try await append(scheduledJSON, expected: 0, connection)
            #expect(try await append(scheduledJSON, expected: 1, connection) == .duplicate(position: 1))
            let value1 = try await count("events", connection)
            #expect(value1 == 1)
        }
    }

    @Test("reads one stream in version order and everything from a global position")
    func reads() async throws {
        try await withStore { connection in
            let other = scheduledJSON.replacingOccurrences(of: "\"g1\"", with: "\"g2\"")
                .replacingOccurrences(of: "\"m1\"", with: "\"n1\"")
            _ = try await append(scheduledJSON, expected: 0, connection)
            _ = try await append(other, expected: 0, connection)
            _ = try await append(started("m2"), expected: 1, connection)
            _ = try await append(started("n2", game: "g2"), expected: 1, connection)
            let stream = try await connection.withSession { try EventLog.readStream("g1", in: $0) }
            #expect(stream.map(\.message.id) == ["m1", "m2"])
            #expect(stream.map(\.version) == [1, 2])
            #expect(stream.map(\.position) == [1, 3])
            #expect(stream[0].message == (try message(scheduledJSON)))
            let all = try await connection.withSession { try EventLog.readAll(afterPosition: 1, limit: 2, in: $0) }
            #expect(all.map(\.message.id) == ["n1", "m2"])
            let tail = try await connection.withSession { try EventLog.readAll(afterPosition: 3, in: $0) }
            #expect(tail.map(\.position) == [4])
            let later = try await connection.withSession { try EventLog.readStream("g1", afterVersion: 1, in: $0) }
            #expect(later.map(\.message.id) == ["m2"])
        }
    }

    @Test(
        "the log is append-only: UPDATE, DELETE and TRUNCATE are refused",
        arguments: [
            "UPDATE events SET type = 'x'", "DELETE FROM events", "TRUNCATE events",
        ])
    func appendOnly(_ statement: String) async throws {
        try await withStore { connection in
            _ = try await append(scheduledJSON, expected: 0, connection)
            let error = await #expect(throws: PostgresError.self) { try await connection.execute(script: statement) }
            // TRUNCATE is refused even before the trigger: other tables reference the log (0A000).
            #expect(["23001", "0A000"].contains(error?.sqlState ?? ""))
            let value2 = try await count("events", connection)
            #expect(value2 == 1)
        }
    }

    @Test("reading one game's stream uses the (stream_id, stream_version) index")
    func streamReadUsesIndex() async throws {
        try await withStore { connection in
            try await connection.execute(script: "SET enable_seqscan = off")
            let plan = try await connection.query(
                "EXPLAIN SELECT position FROM events WHERE stream_id = 'g1' AND stream_version > 0 ORDER BY stream_version"
            )
            let text = plan.rows.map { $0.text(at: 0) ?? "" }.joined(separator: "\n")
            #expect(text.contains("events_stream_version_key"))
        }
    }

    @Test(
        "an append at known versions is one round trip; when a stream moved or an id is stored it stores nothing and says so"
    )
    func atKnownVersions() async throws {
        try await withStore { connection in
            func entries(_ jsons: [String]) throws -> [EventLog.Entry] {
                try jsons.map { EventLog.Entry(try message($0)) }
            }
            let first = try entries([scheduledJSON, started("m2")])
            let appended = try await connection.withSession { try EventLog.append(first, atKnown: ["g1": 0], in: $0) }
            #expect(appended == [.appended(position: 1, version: 1), .appended(position: 2, version: 2)])
            let next = try entries([started("m3"), started("n1", game: "g2")])
            // Behind, ahead, a game missing its head, an id already stored, an id twice: nothing stored.
            for (batch, versions) in [
                (next, ["g1": 1, "g2": 0]), (next, ["g1": 3, "g2": 0]), (next, ["g1": 2, "g2": 1]),
                (try entries([started("m2"), started("n1", game: "g2")]), ["g1": 2, "g2": 0]),
                (try entries([started("n1", game: "g2"), started("n1", game: "g2")]), ["g2": 0]),
            ] {
                let outcome = try await connection.withSession { try EventLog.append(batch, atKnown: versions, in: $0) }
                #expect(outcome == nil)
                #expect(try await count("events", connection) == 2)
            }
            let later = try await connection.withSession {
                try EventLog.append(next, atKnown: ["g1": 2, "g2": 0], in: $0)
            }
            // A refused insert used up positions (an identity is not rolled back): the order holds, not the count.
            guard case .appended(let third, 3) = later?[0], case .appended(let fourth, 1) = later?[1] else {
                Issue.record("not appended at versions 3 and 1: \(String(describing: later))")
                return
            }
            #expect(2 < third && third < fourth)
            let stream = try await connection.withSession { try EventLog.readStream("g1", in: $0) }
            #expect(stream.map(\.version) == [1, 2, 3])
            #expect(connection.results.live == 0)
        }
    }

    @Test(
        "batches pipelined at known versions are stored in batch order; from a refused one on, nothing is, even a batch of other games sent behind it"
    )
    func pipelined() async throws {
        try await withStore { connection in
            func batch(_ ids: [String], game: String) throws -> [EventLog.Entry] {
                try ids.map { EventLog.Entry(try message(started($0, game: game))) }
            }
            // 30 batches over three games, two of them per batch.
            let games = ["g1", "g2", "g3"]
            let batches = try (0..<30).map { n in
                try batch(["a\(n)"], game: games[n % 3]) + batch(["b\(n)"], game: games[(n + 1) % 3])
            }
            /// Appends `batches` pipelined: what was appended, the ids refused, the versions after,
            /// and the ids of the first batch not taken.
            func pipeline(_ batches: [[EventLog.Entry]], at versions: [String: Int]) async throws -> (
                appended: [[AppendOutcome]], refused: [[String]], versions: [String: Int], untaken: [String]?
            ) {
                try await connection.withSession { session in
                    var iterator = batches.makeIterator()
                    var versions = versions
                    var appended: [[AppendOutcome]] = []
                    let refused = try EventLog.append(pipelining: &iterator, atKnown: &versions, in: session) {
                        appended.append($1)
                    }
                    return (
                        appended, refused.map { $0.map(\.message.id) }, versions, iterator.next()?.map(\.message.id)
                    )
                }
            }
            let first = try await pipeline(batches, at: [:])
            #expect(first.refused.isEmpty && first.appended.count == 30)
            #expect(first.versions == ["g1": 20, "g2": 20, "g3": 20])
            let positions = first.appended.joined().compactMap { outcome -> Int? in
                guard case .appended(let position, _) = outcome else { return nil }
                return position
            }
            #expect(positions == positions.sorted() && Set(positions).count == 60)
            // Batch 1 holds an id already stored; batch 2, of another game only, is sent behind it.
            let more = try [
                batch(["c1"], game: "g1"), batch(["a0", "c2"], game: "g2"), batch(["c3"], game: "g4"),
                batch(["c4"], game: "g4"),
            ]
            let second = try await pipeline(more, at: first.versions)
            #expect(second.appended.count == 1 && second.versions["g1"] == 21 && second.versions["g4"] == nil)
            #expect(second.refused == [["a0", "c2"], ["c3"]])
            #expect(second.untaken == ["c4"], "none taken after the refusal was known")
            #expect(try await count("events", connection) == 61)
            // An id twice in a batch is kept back untried, after the batches sent before it.
            let twice = try await pipeline(
                [try batch(["d1"], game: "g4"), try batch(["d2", "d2"], game: "g4")], at: second.versions)
            #expect(twice.refused == [["d2", "d2"]] && twice.versions["g4"] == 1)
            #expect(connection.results.live == 0)
        }
    }
}
