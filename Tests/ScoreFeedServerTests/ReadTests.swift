import Foundation
import ScoreFeedTesting
import Testing

@Suite("read API")
struct ReadTests {
    @Test("games with status and date filters, one game, 404 JSON for an unknown one, 400 for bad filters")
    func games() async throws {
        try await withServer { server in
            let body = [
                scheduled("g1"), started("g1"), run("g1", 1), scheduled("g2", startsAt: "2026-05-02T18:00:00Z"),
            ].joined(separator: "\n")
            #expect(try await server.ingest(body, type: "application/x-ndjson").status == 202)
            _ = try await server.waitForGame("g2", version: 1)
            _ = try await server.waitForGame("g1", version: 3)
            let all = try await server.request(.GET, "/v1/games")
            #expect((all.json as? [[String: Any]])?.compactMap { $0["gameId"] as? String } == ["g2", "g1"])
            let live = try await server.request(.GET, "/v1/games?status=inprogress")
            #expect((live.json as? [[String: Any]])?.compactMap { $0["gameId"] as? String } == ["g1"])
            let day = try await server.request(.GET, "/v1/games?date=2026-05-02")
            #expect((day.json as? [[String: Any]])?.compactMap { $0["gameId"] as? String } == ["g2"])
            let none = try await server.request(.GET, "/v1/games?date=2026-05-03&status=scheduled")
            #expect(none.body.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
            for bad in ["/v1/games?status=live", "/v1/games?date=May", "/v1/games?date=2026-13-01"] {
                let reply = try await server.request(.GET, bad)
                #expect(reply.status == 400, "\(bad)")
                #expect(reply.errorCode == "bad-request")
            }
            let game = try await server.request(.GET, "/v1/games/g1")
            for key in ["gameId", "home", "away", "homeScore", "awayScore", "inning", "outs", "status", "version"] {
                #expect(game.object[key] != nil, "\(key)")
            }
            let unknown = try await server.request(.GET, "/v1/games/nope")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "not-found")
            #expect(unknown.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
            let route = try await server.request(.GET, "/v2/nothing")
            #expect(route.status == 404)
            #expect(route.errorCode == "not-found")
        }
    }

    @Test("a day in the viewer's time zone: ?date=…&tz=Area/City on the games and the scoreboard; a bad zone names tz")
    func daysInAZone() async throws {
        try await withServer { server in
            // 23:05 UTC on 1 May is 19:05 in New York (1 May) and 01:05 in Paris (2 May).
            let body = [scheduled("g1"), scheduled("g2", startsAt: "2026-05-02T03:30:00Z")].joined(separator: "\n")
            #expect(try await server.ingest(body, type: "application/x-ndjson").status == 202)
            _ = try await server.waitForGame("g2", version: 1)
            _ = try await server.waitForGame("g1", version: 1)
            func ids(_ path: String) async throws -> [String] {
                let reply = try await server.request(.GET, path)
                #expect(reply.status == 200, "\(path): \(reply.body)")
                return (reply.json as? [[String: Any]])?.compactMap { $0["gameId"] as? String } ?? []
            }
            #expect(try await ids("/v1/games?date=2026-05-01") == ["g1"])
            #expect(try await ids("/v1/games?date=2026-05-01&tz=America/New_York") == ["g2", "g1"])
            #expect(try await ids("/v1/games?date=2026-05-02&tz=Europe/Paris") == ["g2", "g1"])
            #expect(try await ids("/v1/games?date=2026-05-01&tz=Europe/Paris") == [])
            let board = try await server.request(.GET, "/v1/scoreboard?tz=America/New_York")
            #expect((board.object["days"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["2026-05-01"])
            let paris = try await server.request(.GET, "/v1/scoreboard?tz=Europe/Paris&date=2026-05-02")
            #expect((paris.object["games"] as? [Any])?.count == 2)
            for bad in ["/v1/games?tz=Mars/Olympus", "/v1/scoreboard?tz=%27;drop", "/v1/games?date=2026-05-01&tz="] {
                let reply = try await server.request(.GET, bad)
                #expect(reply.status == 400, "\(bad)")
                #expect(reply.body.contains("tz"), "\(bad): \(reply.body)")
            }
        }
    }

    @Test("events after a position, paged; 404 and 400 answers")
    func events() async throws {
        try await withServer { server in
            let messages = [scheduled("g1"), started("g1")] + (1...5).map { run("g1", $0) }
            #expect(try await server.ingest("[" + messages.joined(separator: ",") + "]").status == 202)
            let first = try await server.request(.GET, "/v1/games/g1/events?limit=3")
            let events = first.object["events"] as? [[String: Any]] ?? []
            #expect(events.count == 3)
            #expect((events.first?["message"] as? [String: Any])?["type"] as? String == "game.scheduled")
            let next = try #require(first.object["next"] as? Int)
            let rest = try await server.request(.GET, "/v1/games/g1/events?after=\(next)")
            let more = rest.object["events"] as? [[String: Any]] ?? []
            #expect(more.count == 4)
            #expect(more.compactMap { $0["version"] as? Int } == [4, 5, 6, 7])
            #expect(try await server.request(.GET, "/v1/games/none/events").status == 404)
            for bad in ["after=-1", "after=x", "limit=0", "limit=100000"] {
                #expect(try await server.request(.GET, "/v1/games/g1/events?\(bad)").status == 400, "\(bad)")
            }
        }
    }

    @Test("pushes: planned per activity with counts, tokens shortened without an app key; 404 for an unknown game")
    func pushes() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            let token = String(repeating: "cd", count: 32)
            let register = try await server.request(
                .POST, "/v1/games/g1/activities",
                body: #"{"pushToken":"\#(token)","bundleId":"com.example.scores"}"#,
                headers: [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")])
            #expect(register.status == 201, "\(register.body)")
            #expect(try await server.ingest("[\(started("g1")),\(run("g1", 1))]").status == 202)
            var reply = try await server.request(.GET, "/v1/games/g1/pushes")
            for _ in 0..<100 where (reply.object["pushes"] as? [Any])?.isEmpty ?? true {
                try await Task.sleep(for: .milliseconds(50))
                reply = try await server.request(.GET, "/v1/games/g1/pushes")
            }
            let pushes = reply.object["pushes"] as? [[String: Any]] ?? []
            #expect(pushes.first?["state"] as? String == "planned")
            #expect(pushes.first?["event"] as? String == "update")
            // Anyone may read the timeline, but only an app key sees the tokens in full.
            #expect(pushes.first?["pushToken"] as? String == "cdcdcdcd…")
            #expect(!reply.body.contains(token))
            #expect((reply.object["latest"] as? [String: Any])?["pushToken"] as? String == "cdcdcdcd…")
            let withKey = try await server.request(
                .GET, "/v1/games/g1/pushes", headers: [("Authorization", "Bearer \(appKey)")])
            #expect((withKey.object["pushes"] as? [[String: Any]])?.first?["pushToken"] as? String == token)
            let wrongKey = try await server.request(
                .GET, "/v1/games/g1/pushes", headers: [("Authorization", "Bearer \(ingestKey)")])
            #expect(wrongKey.status == 403)
            let counts = reply.object["counts"] as? [String: Any]
            #expect(counts?["planned"] as? Int == pushes.count)
            #expect(counts?["sent"] as? Int == 0)
            #expect((reply.object["latest"] as? [String: Any])?["id"] as? Int == pushes.last?["id"] as? Int)
            #expect(try await server.request(.GET, "/v1/games/none/pushes").status == 404)
        }
    }
}
