import Foundation
import NIOHTTP1
import PostgresClient
import ScoreFeedServer
import ScoreFeedTesting
import ScoreStore
import Testing

/// Issue 25: an app key belongs to one app, and what it registered is that app's.
@Suite("app keys: each app's registrations are its own")
struct AppKeyTests {
    let json = ("Content-Type", "application/json")
    let mine = ("Authorization", "Bearer " + appKey)
    let other = ("Authorization", "Bearer " + otherAppKey)
    let token = String(repeating: "ab", count: 32)
    let startToken = String(repeating: "5e", count: 32)

    func field(_ reply: RunningServer.Reply) -> String? {
        ((reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]])?.first?["field"] as? String
    }

    /// Registers each (key, token, bundle id) as an activity of game g1.
    func register(_ tokens: [((String, String), String, String)], on server: RunningServer) async throws {
        for (auth, token, bundle) in tokens {
            let reply = try await server.request(
                .POST, "/v1/games/g1/activities", body: #"{"pushToken":"\#(token)","bundleId":"\#(bundle)"}"#,
                headers: [auth, json])
            #expect(reply.status == 201, "\(reply.body)")
        }
    }

    /// g1's pushes listing, read again until `ready` holds (5 s at most).
    func pushes(
        of server: RunningServer, until ready: ([String: Any]) -> Bool
    ) async throws -> RunningServer.Reply {
        var all = try await server.request(.GET, "/v1/games/g1/pushes")
        for _ in 0..<100 where !ready(all.object) {
            try await Task.sleep(for: .milliseconds(50))
            all = try await server.request(.GET, "/v1/games/g1/pushes")
        }
        return all
    }

    @Test("SCOREFEED_APP_KEYS: APP:KEY pairs and bare keys of the default app; per-app bundle ids and Firebase project")
    func configuration() throws {
        let bare = try ServerConfiguration.fromEnvironment([
            "SCOREFEED_APP_KEYS": "key-of-the-only-app-01,second-key-of-the-app"
        ])
        #expect(
            bare.appKeys
                == AppKeys(apps: [
                    AppSettings(name: "default", keys: ["key-of-the-only-app-01", "second-key-of-the-app"])
                ]))
        let named = try ServerConfiguration.fromEnvironment([
            "SCOREFEED_APP_KEYS":
                "ios:ios-key-0000000000001, android-beta:and-key-000000000001,ios:ios-key-0000000000002",
            "SCOREFEED_APP_IOS_BUNDLE_IDS": "com.example.scores, com.example.scores.beta",
            "SCOREFEED_APP_ANDROID_BETA_FIREBASE_PROJECT": "scores-android-beta",
            "SCOREFEED_APP_ANDROID_BETA_ANDROID_TOPICS": "true",
        ])
        #expect(
            named.appKeys
                == AppKeys(apps: [
                    AppSettings(
                        name: "ios", keys: ["ios-key-0000000000001", "ios-key-0000000000002"],
                        bundleIds: ["com.example.scores", "com.example.scores.beta"]),
                    AppSettings(
                        name: "android-beta", keys: ["and-key-000000000001"], firebaseProject: "scores-android-beta",
                        androidTopics: true),
                ]))
        // Printed (a log line, a failed expectation), the apps show no key.
        for printed in ["\(named.appKeys.apps)", "\(named.appKeys.apps[0])"] {
            #expect(printed.contains("ios") && !printed.contains("-key-"), "\(printed)")
        }
        for (env, message) in [
            (["SCOREFEED_APP_KEYS": "ios:short"], "at least 16 characters"),
            (["SCOREFEED_APP_KEYS": "ios:same-key-00000000001,tv:same-key-00000000001"], "two apps (ios and tv)"),
            (
                ["SCOREFEED_APP_KEYS": "ios:ios-key-0000000000001", "SCOREFEED_APP_TV_BUNDLE_IDS": "com.example.tv"],
                "SCOREFEED_APP_TV_BUNDLE_IDS names no app"
            ),
            (
                ["SCOREFEED_APP_KEYS": "ios:ios-key-0000000000001", "SCOREFEED_APP_IOS_BUNDLE_IDS": "nodots"],
                "reverse-DNS"
            ),
            (
                [
                    "SCOREFEED_APP_KEYS": "ios:ios-key-0000000000001",
                    "SCOREFEED_APP_IOS_FIREBASE_PROJECT": "Bad_Project",
                ],
                "Firebase project id"
            ),
            (
                ["SCOREFEED_APP_KEYS": "ios:ios-key-0000000000001", "SCOREFEED_APP_IOS_ANDROID_TOPICS": "yes"],
                "SCOREFEED_APP_IOS_ANDROID_TOPICS must be true or false"
            ),
        ] {
            #expect {
                try ServerConfiguration.fromEnvironment(env)
            } throws: { error in
                let text = "\(error)"
                return text.contains(message) && !text.contains("same-key") && !text.contains("ios-key")
            }
        }
    }

    @Test("another app's key gets 404 for an activity, cannot list or remove followers, take over or re-route a token")
    func isolation() async throws {
        try await withServer { server in
            let (token, startToken) = (token, startToken)
            let register =
                #"{"pushToken":"\#(token)","bundleId":"com.example.scores","fcmToken":"\#(fcmIOSRegistration)","allowUnknownGame":true}"#
            #expect(
                try await server.request(.POST, "/v1/games/g1/activities", body: register, headers: [mine, json]).status
                    == 201)
            let follow = #"{"gameId":"g1","fcmToken":"\#(androidRegistration)","allowUnknownGame":true}"#
            #expect(
                try await server.request(.POST, "/v1/followers", body: follow, headers: [mine, json]).status == 201)
            let device = #"{"startToken":"\#(startToken)","follow":["BOS"],"bundleId":"com.example.scores"}"#
            #expect(try await server.request(.POST, "/v1/devices", body: device, headers: [mine, json]).status == 201)

            // The activity: not found for the other app, whatever it does.
            #expect(try await server.request(.GET, "/v1/activities/\(token)", headers: [other]).status == 404)
            let patch = try await server.request(
                .PATCH, "/v1/activities/\(token)", body: #"{"frequentUpdates":false}"#, headers: [other, json])
            #expect(patch.status == 404)
            #expect(try await server.request(.DELETE, "/v1/activities/\(token)", headers: [other]).status == 404)
            // Registering the token again (to APNs: a re-route; or for another game) is refused.
            for (game, body) in [
                ("g1", #"{"pushToken":"\#(token)","bundleId":"com.other.scores","allowUnknownGame":true}"#),
                ("g2", #"{"pushToken":"\#(token)","bundleId":"com.other.scores","allowUnknownGame":true}"#),
            ] {
                let reply = try await server.request(
                    .POST, "/v1/games/\(game)/activities", body: body, headers: [other, json])
                #expect(
                    reply.status == 409 && reply.errorCode == "token-in-use" && field(reply) == "pushToken",
                    "\(reply.body)")
            }
            let shown = try await server.request(.GET, "/v1/activities/\(token)", headers: [mine])
            #expect(shown.object["route"] as? String == "fcm" && shown.object["frequentUpdates"] as? Bool == false)
            #expect(
                shown.object["active"] as? Bool == true && shown.object["fcmToken"] as? String == fcmIOSRegistration)

            // The followers: the other app lists none, removes none, cannot follow with the address.
            for path in ["/v1/followers", "/v1/followers?gameId=g1"] {
                let list = try await server.request(.GET, path, headers: [other])
                #expect(list.status == 200 && (list.json as? [Any])?.isEmpty == true, "\(list.body)")
            }
            let unfollow = try await server.request(
                .DELETE, "/v1/followers?gameId=g1&fcmToken=\(androidRegistration)", headers: [other])
            #expect(unfollow.status == 404)
            let taken = try await server.request(.POST, "/v1/followers", body: follow, headers: [other, json])
            #expect(taken.status == 409 && field(taken) == "fcmToken", "\(taken.body)")
            let followers = try await server.request(.GET, "/v1/followers?gameId=g1", headers: [mine])
            #expect((followers.json as? [[String: Any]])?.map { $0["active"] as? Bool } == [true])

            // The device: its start token is the first app's; joining its start is not found.
            let otherDevice = #"{"startToken":"\#(startToken)","follow":["NYY"],"bundleId":"com.other.scores"}"#
            let device2 = try await server.request(.POST, "/v1/devices", body: otherDevice, headers: [other, json])
            #expect(device2.status == 409 && field(device2) == "startToken", "\(device2.body)")
            let mineToken = String(repeating: "cd", count: 32)
            for start in [startToken, String(repeating: "0f", count: 32)] {
                let join = try await server.request(
                    .POST, "/v1/games/g1/activities",
                    body:
                        #"{"pushToken":"\#(mineToken)","bundleId":"com.other.scores","startToken":"\#(start)","allowUnknownGame":true}"#,
                    headers: [other, json])
                #expect(join.status == 404 && field(join) == "startToken", "\(join.body)")
            }
            let badStart = try await server.request(
                .POST, "/v1/games/g1/activities",
                body:
                    #"{"pushToken":"\#(mineToken)","bundleId":"com.other.scores","startToken":"xyz","allowUnknownGame":true}"#,
                headers: [other, json])
            #expect(badStart.status == 400 && field(badStart) == "startToken", "\(badStart.body)")
            // The other app lists its bundle ids: another bundle id is refused naming the field.
            let foreignBundle = try await server.request(
                .POST, "/v1/games/g1/activities",
                body: #"{"pushToken":"\#(mineToken)","bundleId":"com.example.scores","allowUnknownGame":true}"#,
                headers: [other, json])
            #expect(foreignBundle.status == 400 && field(foreignBundle) == "bundleId", "\(foreignBundle.body)")
            // Nothing of the refused requests was stored.
            let own = try await server.request(
                .POST, "/v1/games/g1/activities",
                body: #"{"pushToken":"\#(mineToken)","bundleId":"com.other.scores","allowUnknownGame":true}"#,
                headers: [other, json])
            #expect(own.status == 201, "\(own.body)")
            #expect(try await server.request(.GET, "/v1/activities/\(mineToken)", headers: [mine]).status == 404)
        }
    }

    @Test("GET /v1/games/{id}/pushes with an app key lists and counts only that app's pushes")
    func pushesPerApp() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            let tokens = [
                (mine, String(repeating: "a1", count: 32), "com.example.scores"),
                (other, String(repeating: "b2", count: 32), "com.other.scores"),
            ]
            try await register(tokens, on: server)
            #expect(try await server.ingest("[\(started("g1")),\(run("g1", 1))]").status == 202)
            let all = try await pushes(of: server) { ($0["pushes"] as? [Any])?.count ?? 0 >= 2 }
            let everyone = all.object["pushes"] as? [[String: Any]] ?? []
            #expect(Set(everyone.compactMap { $0["pushToken"] as? String }) == ["a1a1a1a1…", "b2b2b2b2…"])
            for (auth, token, _) in tokens {
                let reply = try await server.request(.GET, "/v1/games/g1/pushes", headers: [auth])
                let pushes = reply.object["pushes"] as? [[String: Any]] ?? []
                #expect(!pushes.isEmpty && pushes.allSatisfy { $0["pushToken"] as? String == token }, "\(reply.body)")
                let counts = reply.object["counts"] as? [String: Any]
                #expect(counts?["planned"] as? Int == pushes.count)
                let activities = reply.object["activities"] as? [[String: Any]] ?? []
                #expect(activities.map { $0["pushToken"] as? String } == [token])
                #expect((reply.object["latest"] as? [String: Any])?["pushToken"] as? String == token)
            }
        }
    }

    @Test(
        "GET /v1/games/{id}/pushes lists a big group's messages and its members, per app, paged with the pushes by outbox id"
    )
    func groupMessages() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            _ = try await server.waitForGame("g1", version: 1)
            // 100 of this app and one of another: one group (registered before the game, same kind).
            let members = (1...100).map { (mine, String(format: "%064x", $0), "com.example.scores") }
            try await register(members + [(other, String(format: "%064x", 101), "com.other.scores")], on: server)
            #expect(try await server.ingest("[\(started("g1")),\(run("g1", 1))]").status == 202)
            let all = try await pushes(of: server) { !(($0["groupMessages"] as? [Any])?.isEmpty ?? true) }
            let messages = all.object["groupMessages"] as? [[String: Any]] ?? []
            #expect(!messages.isEmpty, "\(all.body)")
            #expect(messages.allSatisfy { $0["state"] as? String == "planned" && $0["walkedThrough"] as? Int == 0 })
            #expect(messages.allSatisfy { ($0["payload"] as? [String: Any])?["aps"] != nil })
            #expect((all.object["pushes"] as? [Any])?.isEmpty == true, "no row per member")
            #expect((all.object["groups"] as? [[String: Any]])?.map { $0["members"] as? Int } == [101])
            for (auth, members) in [(mine, 100), (other, 1)] {
                let reply = try await server.request(.GET, "/v1/games/g1/pushes", headers: [auth])
                #expect((reply.object["groups"] as? [[String: Any]])?.map { $0["members"] as? Int } == [members])
                #expect((reply.object["groupMessages"] as? [Any])?.count == messages.count)
            }
            // One id a page: every push and message once, in order, then an empty page.
            var after = 0
            var paged: [Int] = []
            for _ in 0..<50 {
                let page = try await server.request(.GET, "/v1/games/g1/pushes?after=\(after)&limit=1")
                let ids = ["pushes", "groupMessages"].flatMap {
                    (page.object[$0] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
                }
                #expect(ids.count <= 1)
                guard let id = ids.first else { break }
                #expect(page.object["next"] as? Int == id)
                paged.append(id)
                after = id
            }
            let pushIds = (all.object["pushes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            #expect(paged == (pushIds + messages.compactMap { $0["id"] as? Int }).sorted())
        }
    }

    @Test("a registration after the final is 409 game-over naming the end: activity, follower, device join, device")
    func afterTheFinal() async throws {
        try await withServer { server in
            let messages = [scheduled("g1"), started("g1"), run("g1", 1), final("g1")]
            #expect(try await server.ingest("[" + messages.joined(separator: ",") + "]").status == 202)
            _ = try await server.waitForGame("g1", version: 4)
            let device = #"{"startToken":"\#(startToken)","follow":["BOS"],"bundleId":"com.example.scores"}"#
            #expect(try await server.request(.POST, "/v1/devices", body: device, headers: [mine, json]).status == 201)
            for (path, body) in [
                ("/v1/games/g1/activities", #"{"pushToken":"\#(token)","bundleId":"com.example.scores"}"#),
                (
                    "/v1/games/g1/activities",
                    #"{"pushToken":"\#(token)","bundleId":"com.example.scores","startToken":"\#(startToken)"}"#
                ),
                ("/v1/followers", #"{"gameId":"g1","fcmToken":"\#(androidRegistration)"}"#),
                (
                    "/v1/devices",
                    #"{"startToken":"\#(startToken)","follow":["BOS","g1"],"bundleId":"com.example.scores"}"#
                ),
            ] {
                let reply = try await server.request(.POST, path, body: body, headers: [mine, json])
                #expect(reply.status == 409 && reply.errorCode == "game-over", "\(path) \(reply.body)")
                let end = ((reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]])?.first ?? [:]
                #expect(end["field"] as? String == "gameId" && end["gameId"] as? String == "g1")
                #expect(end["status"] as? String == "closed" && end["endedAt"] as? String == "2026-05-02T02:00:00Z")
                #expect(
                    end["homeScore"] as? Int == 1 && end["awayScore"] as? Int == 0 && end["home"] as? String == "BOS")
            }
            #expect(try await server.request(.GET, "/v1/activities/\(token)", headers: [mine]).status == 404)
            let followers = try await server.request(.GET, "/v1/followers", headers: [mine])
            #expect((followers.json as? [Any])?.isEmpty == true)
        }
    }

    @Test("small answers: DELETE /v1/followers names gameId; an error echoes a long id clipped")
    func smallAnswers() async throws {
        try await withServer { server in
            for headers in [[mine], [mine, json]] {
                let reply = try await server.request(.DELETE, "/v1/followers", headers: headers)
                #expect(reply.status == 400 && field(reply) == "gameId", "\(reply.body)")
            }
            let noGame = try await server.request(
                .DELETE, "/v1/followers?fcmToken=\(androidRegistration)", headers: [mine])
            #expect(noGame.status == 400 && field(noGame) == "gameId", "\(noGame.body)")
            let long = String(repeating: "x", count: 5000)
            for (path, headers) in [
                ("/v1/games/\(long)", [(String, String)]()), ("/v1/games/\(long)/pushes", []),
                ("/v1/games/\(long)/events", []),
                ("/v1/followers?gameId=\(long)&fcmToken=\(androidRegistration)", [mine]),
                ("/v1/games/\(long)/channel", [mine]),
            ] {
                let method: HTTPMethod = path.hasPrefix("/v1/followers") ? .DELETE : .GET
                let reply = try await server.request(method, path, headers: headers)
                #expect(
                    (400..<500).contains(reply.status) && reply.body.count < 600,
                    "\(path.prefix(40)): \(reply.body.prefix(200))")
            }
        }
    }

    @Test(
        "re-registered through FCM, then with a new FCM token: sent pushes keep the route and FCM target they went by")
    func routeHistory() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            let register = #"{"pushToken":"\#(token)","bundleId":"com.example.scores"}"#
            #expect(
                try await server.request(.POST, "/v1/games/g1/activities", body: register, headers: [mine, json]).status
                    == 201)
            #expect(try await server.ingest("[\(started("g1")),\(run("g1", 1))]").status == 202)
            var reply = try await server.request(.GET, "/v1/games/g1/pushes", headers: [mine])
            for _ in 0..<100 where (reply.object["pushes"] as? [Any])?.isEmpty ?? true {
                try await Task.sleep(for: .milliseconds(50))
                reply = try await server.request(.GET, "/v1/games/g1/pushes", headers: [mine])
            }
            // The pushes so far went to APNs (this server has no APNs client: the outbox records it).
            let connection = try await PostgresConnection.connect(server.databaseURL)
            let claimed = try await connection.transaction { try Outbox.claim(limit: 10, lease: 30, in: $0) }
            try await connection.transaction { tx in
                try Outbox.record(claimed.map { Outbox.Attempt($0, status: 200, reason: nil, outcome: .sent) }, in: tx)
            }
            await connection.close()
            let moved =
                #"{"pushToken":"\#(token)","bundleId":"com.example.scores","fcmToken":"\#(fcmIOSRegistration)"}"#
            #expect(
                try await server.request(.POST, "/v1/games/g1/activities", body: moved, headers: [mine, json]).status
                    == 201)
            // The end is planned at once: it goes the new way.
            #expect(try await server.ingest("[\(final("g1"))]").status == 202)
            for _ in 0..<100 {
                reply = try await server.request(.GET, "/v1/games/g1/pushes", headers: [mine])
                if (reply.object["pushes"] as? [[String: Any]] ?? []).contains(where: {
                    $0["state"] as? String == "planned"
                }) {
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            var pushes = reply.object["pushes"] as? [[String: Any]] ?? []
            let planned = pushes.filter { $0["state"] as? String == "planned" }
            #expect(
                !planned.isEmpty
                    && planned.allSatisfy {
                        $0["route"] as? String == "fcm" && $0["fcmTarget"] as? String == fcmIOSRegistration
                    }, "\(reply.body)")
            // Sent through FCM (this server has no FCM client either); then the app gets a new FCM token.
            let viaFCM = try await PostgresConnection.connect(server.databaseURL)
            try await viaFCM.query("UPDATE outbox SET next_attempt_at = now() WHERE state = 'pending'")
            let throughFCM = try await viaFCM.transaction {
                try Outbox.claim(limit: 10, lease: 30, routes: [.fcm], in: $0)
            }
            try await viaFCM.transaction { tx in
                try Outbox.record(
                    throughFCM.map { Outbox.Attempt($0, status: 200, reason: nil, outcome: .sent) }, in: tx)
            }
            await viaFCM.close()
            let renewed = "fcm-ios-device-0001:APA91bHsandboxIOSregistrationToken0002"
            let renew = #"{"pushToken":"\#(token)","bundleId":"com.example.scores","fcmToken":"\#(renewed)"}"#
            #expect(
                try await server.request(.POST, "/v1/games/g1/activities", body: renew, headers: [mine, json]).status
                    == 201)
            reply = try await server.request(.GET, "/v1/games/g1/pushes", headers: [mine])
            pushes = reply.object["pushes"] as? [[String: Any]] ?? []
            let sent = pushes.filter { $0["state"] as? String == "sent" }
            let sentAPNs = sent.filter { $0["route"] as? String == "apns" }
            let sentFCM = sent.filter { $0["route"] as? String == "fcm" }
            #expect(!sentAPNs.isEmpty && sentAPNs.count == claimed.count, "\(sent)")
            #expect(sentAPNs.allSatisfy { $0["fcmTarget"] is NSNull }, "\(sent)")
            // Sent to the old FCM token: shown so, not as the token registered since.
            #expect(!throughFCM.isEmpty && sentFCM.count == throughFCM.count, "\(sent)")
            #expect(sentFCM.allSatisfy { $0["fcmTarget"] as? String == fcmIOSRegistration }, "\(sent)")
        }
    }
}
