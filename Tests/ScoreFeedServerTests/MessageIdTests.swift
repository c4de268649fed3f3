import Foundation
import ScoreFeedTesting
import Testing

@Suite("POST /v1/feed: an id means one message")
struct MessageIdTests {
    /// `error.details` of a reply.
    private func details(_ reply: RunningServer.Reply) -> [String: Any] {
        (reply.object["error"] as? [String: Any])?["details"] as? [String: Any] ?? [:]
    }

    /// A started message with a provider's own id (`m1`, …).
    private func start(_ gameId: String, id: String, at: String = "2026-05-01T23:06:00Z") -> String {
        #"{"id":"\#(id)","gameId":"\#(gameId)","at":"\#(at)","type":"game.started"}"#
    }

    @Test("the same id for another game, or for the same game with other content: 409 naming the id and the game")
    func reused() async throws {
        try await withServer { server in
            let first = try await server.ingest("[\(scheduled("g1", id: "m1")),\(start("g1", id: "m2"))]")
            #expect(first.status == 202, "\(first.body)")
            // The tester's case: m1 again, for another game (answered 202 "duplicates":1 and dropped before).
            let other = try await server.ingest(scheduled("g2", id: "m1"))
            #expect(other.status == 409, "\(other.body)")
            #expect(other.errorCode == "id-conflict")
            #expect(details(other)["messageId"] as? String == "m1")
            #expect(details(other)["gameId"] as? String == "g1")
            #expect(details(other)["position"] as? Int == 1)
            #expect(details(other)["index"] as? Int == 0)
            let message = (other.object["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains(#""m1""#) && message.contains(#"game "g1""#), "\(message)")
            // The same game, the same type, another time.
            let later = try await server.ingest(start("g1", id: "m2", at: "2026-05-01T23:07:00Z"))
            #expect(later.status == 409, "\(later.body)")
            #expect(details(later)["gameId"] as? String == "g1")
            // The same content again (another key order, the same instant with an offset): a duplicate.
            let again = try await server.ingest(
                #"{"type":"game.started","at":"2026-05-01T19:06:00-04:00","gameId":"g1","id":"m2"}"#)
            #expect(again.status == 202, "\(again.body)")
            #expect(again.object["duplicates"] as? Int == 1)
            // g2 with a new id is a game of its own; nothing of the refused requests was stored.
            #expect(try await server.request(.GET, "/v1/games/g2/events").status == 404)
            #expect(try await server.ingest(scheduled("g2", id: "n1")).status == 202)
            let events = try await server.request(.GET, "/v1/games/g1/events")
            #expect((events.object["events"] as? [Any])?.count == 2)
        }
    }

    @Test("a batch holding one id twice: with other content refused whole, with the same content a duplicate")
    func batch() async throws {
        try await withServer { server in
            let twice = try await server.ingest(
                "[\(scheduled("g1", id: "m1")),\(start("g1", id: "m2")),\(start("g2", id: "m2"))]")
            #expect(twice.status == 409, "\(twice.body)")
            #expect(twice.errorCode == "id-conflict")
            #expect(details(twice)["index"] as? Int == 2)
            #expect(details(twice)["gameId"] as? String == "g1")
            #expect(details(twice)["position"] is NSNull)
            #expect(try await server.request(.GET, "/v1/games/g1/events").status == 404)
            let ndjson = try await server.ingest(
                "\(scheduled("g1", id: "m1"))\n\(start("g1", id: "m2"))\n\(start("g1", id: "m2"))\n",
                type: "application/x-ndjson")
            #expect(ndjson.status == 202, "\(ndjson.body)")
            #expect(ndjson.object["accepted"] as? Int == 2)
            #expect(ndjson.object["duplicates"] as? Int == 1)
        }
    }

    @Test("two providers racing with one id for two games: one is stored, the other gets 409")
    func race() async throws {
        try await withServer { server in
            let setup =
                "[\(scheduled("g1", id: "s1")),\(scheduled("g2", id: "s2")),"
                + "\(start("g1", id: "t1")),\(start("g2", id: "t2"))]"
            #expect(try await server.ingest(setup).status == 202)
            for round in 0..<10 {
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for game in ["g1", "g2"] {
                        group.addTask {
                            let json =
                                #"{"id":"m\#(round)","gameId":"\#(game)","at":"2026-05-01T23:1\#(round):00Z","#
                                + #""type":"bases.changed","first":true}"#
                            return try await server.ingest(json).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }.sorted()
                }
                #expect(statuses == [202, 409], "round \(round)")
            }
            let first = try await server.request(.GET, "/v1/games/g1/events")
            let second = try await server.request(.GET, "/v1/games/g2/events")
            let stored = [first, second].map { ($0.object["events"] as? [Any])?.count ?? 0 }.reduce(0, +)
            #expect(stored == 4 + 10)
        }
    }
}
