import Foundation
import ScoreFeedTesting
import Testing

@Suite("input PostgreSQL cannot store: 400 naming the field, never 500")
struct InputLimitTests {
    /// `error.details` of a reply as one array of objects (the feed's and the other routes' shapes).
    private func fields(_ reply: RunningServer.Reply) -> [String] {
        let details = (reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]] ?? []
        return details.compactMap { $0["field"] as? String }
    }

    @Test(
        "the tester's messages: NUL in an id or a team name, a year 0 or 9999 with an extreme offset",
        arguments: [
            (#"{"id":"m\u00001","gameId":"g1","at":"2026-05-01T23:06:00Z","type":"game.started"}"#, "id"),
            (
                scheduled("g1").replacingOccurrences(of: "Boston Red Sox", with: #"Boston\u0000"#), "home.name"
            ),
            (#"{"id":"m1","gameId":"g1","at":"0000-01-01T00:00:00+23:59","type":"game.started"}"#, "at"),
            (#"{"id":"m1","gameId":"g1","at":"9999-12-31T23:59:59-23:59","type":"game.started"}"#, "at"),
            (scheduled("g1", startsAt: "0001-01-01T00:00:00Z"), "startsAt"),
        ])
    func messages(_ body: String, _ field: String) async throws {
        try await withServer { server in
            let reply = try await server.ingest(body)
            #expect(reply.status == 400, "\(reply.body)")
            #expect(fields(reply) == [field], "\(reply.body)")
        }
    }

    @Test("query values: a day outside 1850-2200 or NUL anywhere in the query is a 400 naming the parameter")
    func queries() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1"))]").status == 202)
            let auth = ("Authorization", "Bearer \(appKey)")
            for (path, field) in [
                ("/v1/games?date=0000-01-01", "date"), ("/v1/games?date=9999-12-31", "date"),
                ("/v1/games?date=1849-12-31", "date"), ("/v1/scoreboard?date=2201-01-01", "date"),
                ("/v1/followers?gameId=g1%00", "gameId"), ("/v1/games/g1/events?after=1%00", "after"),
            ] {
                let reply = try await server.request(.GET, path, headers: [auth])
                #expect(reply.status == 400, "\(path): \(reply.body)")
                #expect(fields(reply) == [field], "\(path): \(reply.body)")
            }
            for path in ["/v1/games?date=1850-01-01", "/v1/games?date=2200-12-31", "/v1/scoreboard?date=2019-04-01"] {
                let reply = try await server.request(.GET, path)
                #expect(reply.status == 200, "\(path): \(reply.body)")
            }
        }
    }

    @Test("a 404 echoes a long id or path clipped, never its 5,000 characters")
    func longIdsClipped() async throws {
        try await withServer { server in
            let long = String(repeating: "x", count: 5000)
            for path in ["/v1/games/\(long)", "/v1/games/\(long)/events", "/v1/\(long)"] {
                let reply = try await server.request(.GET, path)
                #expect(reply.status == 404 || reply.status == 400, "\(path.prefix(40)): \(reply.body.prefix(300))")
                #expect(reply.body.utf8.count < 1000, "\(path.prefix(40)): \(reply.body.utf8.count) bytes")
            }
        }
    }

    @Test(
        "registration bodies: NUL in any member, a far date: 400 naming the field",
        arguments: [
            ("/v1/games/g1/activities", #"{"pushToken":"\#(token)","bundleId":"com.example\u0000"}"#, "bundleId"),
            (
                "/v1/games/g1/activities",
                #"{"pushToken":"\#(token)","bundleId":"com.example.scores","fcmToken":"f\u0000"}"#, "fcmToken"
            ),
            (
                "/v1/devices",
                #"{"startToken":"\#(token)","bundleId":"com.example.scores","follow":["BOS","g\u0000"]}"#, "follow.1"
            ),
            ("/v1/followers", #"{"gameId":"g1","fcmToken":"x\u0000y"}"#, "fcmToken"),
            ("/v1/followers", #"{"gameId":"g1","fid":"\u0000"}"#, "fid"),
            ("/v1/followers", #"{"gameId":"g1","fcmToken":"fcm-1:APA91b","at":"0000-01-01T00:00:00+23:59"}"#, "at"),
        ])
    func registrations(_ path: String, _ body: String, _ field: String) async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1"))]").status == 202)
            let headers = [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")]
            let reply = try await server.request(.POST, path, body: body, headers: headers)
            #expect(reply.status == 400, "\(reply.body)")
            #expect(fields(reply) == [field], "\(reply.body)")
        }
    }

    static let token = String(repeating: "a1", count: 32)
}
