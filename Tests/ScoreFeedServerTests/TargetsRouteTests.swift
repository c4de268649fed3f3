import APNs
import Foundation
import ScoreFeedTesting
import Testing

@Suite("GET /v1/games/{id}/targets: an app's push targets of a game, for the operator view")
struct TargetsRouteTests {
    let auth = ("Authorization", "Bearer " + appKey)
    let json = ("Content-Type", "application/json")

    @Test("401 without a key, 403 with a key of no app; every route listed, removed ones marked; another app's unseen")
    func targets() async throws {
        try await withLocalAPNs { _, configuration in
            let channels = APNsChannelClient(configuration: configuration, logger: quietLogger)
            try await withServer(channels: channels) { server in
                #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
                _ = try await server.waitForGame("g1", version: 1)
                let register = { (body: String, key: String) in
                    try await server.request(
                        .POST, "/v1/games/g1/activities", body: body,
                        headers: [("Authorization", "Bearer \(key)"), json])
                }
                let token = { (byte: String) in String(repeating: byte, count: 32) }
                #expect(
                    try await register(#"{"pushToken":"\#(token("aa"))","bundleId":"com.example.scores"}"#, appKey)
                        .status == 201)
                #expect(
                    try await register(#"{"pushToken":"\#(token("bb"))","bundleId":"com.example.scores"}"#, appKey)
                        .status == 201)
                #expect(
                    try await server.request(.DELETE, "/v1/activities/\(token("bb"))", headers: [auth]).status == 204)
                let fcm =
                    #"{"pushToken":"\#(token("ce"))","fcmToken":"\#(fcmIOSRegistration)","bundleId":"com.example.scores"}"#
                #expect(try await register(fcm, appKey).status == 201)
                // Another app's activity of the same game.
                #expect(
                    try await register(#"{"pushToken":"\#(token("ef"))","bundleId":"com.other.scores"}"#, otherAppKey)
                        .status == 201)
                // A device following a team of the game, one following another team.
                for (start, team) in [("dd", "BOS"), ("de", "LAD")] {
                    let device = try await server.request(
                        .POST, "/v1/devices",
                        body:
                            #"{"startToken":"\#(token(start))","follow":["\#(team)"],"bundleId":"com.example.scores"}"#,
                        headers: [auth, json])
                    #expect(device.status == 201, "\(device.body)")
                }
                let follow = try await server.request(
                    .POST, "/v1/followers", body: #"{"gameId":"g1","fcmToken":"\#(androidRegistration)"}"#,
                    headers: [auth, json])
                #expect(follow.status == 201, "\(follow.body)")
                #expect(try await server.request(.GET, "/v1/games/g1/channel", headers: [auth]).status == 200)

                let anonymous = try await server.request(.GET, "/v1/games/g1/targets")
                #expect(anonymous.status == 401 && anonymous.headers.first(name: "WWW-Authenticate") == "Bearer")
                let ingest = try await server.request(
                    .GET, "/v1/games/g1/targets", headers: [("Authorization", "Bearer \(ingestKey)")])
                #expect(ingest.status == 403)
                #expect(try await server.request(.GET, "/v1/games/nothing/targets", headers: [auth]).status == 404)
                #expect(try await server.request(.GET, "/v1/games/g%201/targets", headers: [auth]).status == 400)

                let reply = try await server.request(.GET, "/v1/games/g1/targets", headers: [auth])
                #expect(reply.status == 200, "\(reply.body)")
                #expect(reply.object["app"] as? String == "default")
                let targets = try #require(reply.object["targets"] as? [[String: Any]])
                let listed = targets.map { "\($0["route"] ?? "") \($0["target"] ?? "") \($0["status"] ?? "")" }
                #expect(
                    listed == [
                        "apns aaaaaaaa… active", "apns bbbbbbbb… removed",
                        "channel \(String(describing: targets[2]["target"] ?? "")) active",
                        "push-to-start dddddddd… active", "fcm cececece… active", "android fcm-andr… active",
                    ])
                #expect(
                    reply.object["counts"] as? [String: Int]
                        == ["apns": 2, "channel": 1, "push-to-start": 1, "fcm": 1, "android": 1, "topic": 0])
                let removed = try #require(targets[1]["removed"] as? [String: Any])
                #expect(removed["reason"] as? String == "removed by the app" && removed["at"] is String)
                #expect(targets[0]["removed"] is NSNull)
                let budget = try #require(targets[0]["budget"] as? [String: Any])
                #expect(budget["used"] as? Int == 0 && budget["limit"] as? Int == 12)
                #expect(budget["counts"] as? String == "priority-10 pushes")
                #expect((targets[3]["budget"] as? [String: Any])?["limit"] as? Int == 10)
                #expect(targets[4]["via"] as? String == "fcm" && targets[4]["fcmTarget"] as? String == "fcm-ios-…")
                // The follow sent the game's state at once: planned, not yet answered (no FCM here).
                #expect((targets[5]["pushes"] as? [String: Int])?["pending"] == 1)
                #expect(!reply.body.contains("efefefef") && !reply.body.contains(token("aa")))

                let other = try await server.request(
                    .GET, "/v1/games/g1/targets", headers: [("Authorization", "Bearer \(otherAppKey)")])
                let theirs = try #require(other.object["targets"] as? [[String: Any]])
                #expect(theirs.map { "\($0["route"] ?? "") \($0["target"] ?? "")" } == ["apns efefefef…"])
            }
        }
    }
}
