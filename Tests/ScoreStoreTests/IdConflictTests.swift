import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import Testing

@testable import ScoreStore

@Suite("ids: one id means one message")
struct IdConflictTests {
    /// The game `g2`, scheduled by `n1`.
    static let otherGame = scheduledJSON.replacingOccurrences(of: "\"g1\"", with: "\"g2\"")
        .replacingOccurrences(of: "\"m1\"", with: "\"n1\"")
    static let started = #"{"id":"m2","gameId":"g1","at":"2026-04-01T17:10:00Z","type":"game.started"}"#
    static let run = #"{"id":"m3","gameId":"g1","at":"2026-04-01T17:20:00Z","type":"run.scored","team":"home"}"#

    private func rejection(_ ingestor: Ingestor, _ json: [String], partial: Bool = true) async throws
        -> IngestRejection?
    {
        let messages = try json.map(message)
        return await #expect(throws: IngestRejection.self) { try await ingestor.ingest(messages, partial: partial) }
    }

    @Test("the same id with the same content is a duplicate, in its canonical form (key order, defaults, offsets)")
    func sameContent() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            _ = try await ingestor.ingest(try [scheduledJSON, Self.started, Self.run].map(message))
            // The same run: other key order, "runs":1 written out, the same instant with an offset.
            let same =
                #"{"team":"home","runs":1,"type":"run.scored","at":"2026-04-01T13:20:00.000-04:00","#
                + #""gameId":"g1","id":"m3"}"#
            #expect(try await ingestor.ingest(try message(same)) == .duplicate(position: 3))
            let events = try await count("events", connection)
            #expect(events == 3)
        }
    }

    @Test(
        "the same id with other content is refused, naming the id and the stored message's game",
        arguments: [
            // Another game (the tester's case: acknowledged and dropped before).
            #"{"id":"m1","gameId":"g2","at":"2026-04-01T17:00:00Z","type":"game.started"}"#,
            // The same game, another field.
            #"{"id":"m3","gameId":"g1","at":"2026-04-01T17:20:00Z","type":"run.scored","team":"away"}"#,
            // The same game and event, another time.
            #"{"id":"m3","gameId":"g1","at":"2026-04-01T17:21:00Z","type":"run.scored","team":"home"}"#,
        ])
    func otherContent(_ json: String) async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            _ = try await ingestor.ingest(try [scheduledJSON, Self.started, Self.run].map(message))
            _ = try await ingestor.ingest(try message(Self.otherGame))
            let id = try message(json).id
            let refused = try await rejection(ingestor, [json])
            let position = id == "m1" ? 1 : 3
            #expect(refused?.error == .idConflict(IdConflict(messageId: id, gameId: "g1", position: position)))
            #expect(refused?.code == "id-conflict")
            #expect(
                refused?.description
                    == #"message "\#(id)" rejected: id-conflict: message id "\#(id)" already stands for another "#
                    + #"message, the message stored at position \#(position) (game "g1"); a new message needs a new id"#
            )
            let events = try await count("events", connection)
            #expect(events == 4)
        }
    }

    @Test("a batch holding one id twice with different content is refused whole, even a partial one")
    func batchConflict() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            let twice = Self.run.replacingOccurrences(of: "\"home\"", with: "\"away\"")
            for partial in [true, false] {
                let refused = try await rejection(
                    ingestor, [scheduledJSON, Self.started, Self.run, twice], partial: partial)
                #expect(refused?.index == 3)
                #expect(refused?.outcomes == [])
                #expect(refused?.error == .idConflict(IdConflict(messageId: "m3", gameId: "g1", position: nil)))
                let events = try await count("events", connection)
                #expect(events == 0)
            }
            // The same content twice in one batch: the second is a duplicate.
            let outcomes = try await ingestor.ingest(
                try [scheduledJSON, Self.started, Self.run, Self.run].map(message))
            #expect(outcomes.last == .duplicate(position: 3))
        }
    }

    @Test("a conflict with a stored message keeps the messages before it when partial, none when not")
    func partialConflict() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            _ = try await ingestor.ingest(try message(Self.otherGame))
            let reused = Self.started.replacingOccurrences(of: "\"m2\"", with: "\"n1\"")
            let whole = try await rejection(ingestor, [scheduledJSON, reused], partial: false)
            #expect(whole?.index == 1)
            #expect(try await count("events", connection) == 1)
            let prefix = try await rejection(ingestor, [scheduledJSON, reused])
            // The one-round-trip append tried first took positions the insert's conflict left as a hole.
            guard case .appended(_, version: 1) = prefix?.outcomes.first, prefix?.outcomes.count == 1 else {
                Issue.record("the message before the conflict is not kept: \(String(describing: prefix?.outcomes))")
                return
            }
            #expect(prefix?.error == .idConflict(IdConflict(messageId: "n1", gameId: "g2", position: 1)))
        }
    }

    @Test("the event log itself refuses a reused id with other content")
    func eventLog() async throws {
        try await withStore { connection in
            let first = try message(scheduledJSON)
            let other = try message(Self.otherGame.replacingOccurrences(of: "\"n1\"", with: "\"m1\""))
            _ = try await connection.transaction(beginning: EventLog.appendLock) {
                try EventLog.append([first], in: $0)
            }
            let error = await #expect(throws: StoreError.self) {
                try await connection.transaction(beginning: EventLog.appendLock) {
                    try EventLog.append([other], in: $0)
                }
            }
            #expect(error?.code == "id-conflict")
            let again = try await connection.transaction(beginning: EventLog.appendLock) {
                try EventLog.append([first], in: $0)
            }
            #expect(again == [.duplicate(position: 1)])
        }
    }

    @Test("two writers racing with one id and different content: one stored, the other refused")
    func race() async throws {
        try await TestDatabase.withSchema { url in
            let setup = try await PostgresConnection.connect(url)
            try await Migrator().migrate(setup, logger: quietLogger)
            let ingestor = Ingestor(connection: setup)
            let startedOther = Self.started.replacingOccurrences(of: "g1", with: "g2").replacingOccurrences(
                of: "m2", with: "n2")
            _ = try await ingestor.ingest(try [scheduledJSON, Self.otherGame, Self.started, startedOther].map(message))
            await setup.close()
            for round in 0..<5 {
                // Each writer on its own connection (two nodes): the same id, for g1 and for g2.
                let answers = try await withThrowingTaskGroup(of: String.self) { group in
                    for game in ["g1", "g2"] {
                        group.addTask {
                            let connection = try await PostgresConnection.connect(url)
                            let json =
                                #"{"id":"race-\#(round)","gameId":"\#(game)","#
                                + #""at":"2026-04-01T17:11:00Z","type":"bases.changed","first":true}"#
                            let answer: String
                            do {
                                let outcome = try await Ingestor(connection: connection).ingest(try message(json))
                                answer = "\(outcome)".hasPrefix("appended") ? "stored" : "\(outcome)"
                            } catch let rejection as IngestRejection {
                                answer = rejection.code
                            } catch let error as StoreError {
                                answer = error.code
                            }
                            await connection.close()
                            return answer
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }.sorted()
                }
                #expect(answers == ["id-conflict", "stored"], "round \(round)")
            }
        }
    }
}
