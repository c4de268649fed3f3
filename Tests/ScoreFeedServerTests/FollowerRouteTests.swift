import Foundation
import ScoreFeedServer
import ScoreFeedTesting
import Testing

@Suite("Android followers and FCM registrations over HTTP")
struct FollowerRouteTests {
    let auth = ("Authorization", "Bearer " + appKey)
    let json = ("Content-Type", "application/json")

    @Test(
        "POST /v1/followers follows once (201), GET lists, DELETE unfollows (204, then 404); clear 4xx naming the field"
    )
    func followers() async throws {
        try await withServer { server in
            let body = #"{"gameId":"g1","fcmToken":"\#(androidRegistration)","allowUnknownGame":true}"#
            let unknown = try await server.request(
                .POST, "/v1/followers", body: #"{"gameId":"g1","fcmToken":"\#(androidRegistration)"}"#,
                headers: [auth, json])
            #expect(unknown.status == 404 && unknown.body.contains("allowUnknownGame"), "\(unknown.body)")
            let created = try await server.request(.POST, "/v1/followers", body: body, headers: [auth, json])
            #expect(created.status == 201, "\(created.body)")
            #expect(created.object["fcmToken"] as? String == androidRegistration)
            #expect(created.object["fid"] is NSNull && created.object["active"] as? Bool == true)
            let again = try await server.request(.POST, "/v1/followers", body: body, headers: [auth, json])
            #expect(again.object["id"] as? Int == created.object["id"] as? Int, "following twice is one follow")
            #expect(again.status == 200, "already following: 200, not 201")
            for (bad, field) in [
                (#"{"fcmToken":"\#(androidRegistration)"}"#, "gameId"),
                (#"{"gameId":"g1","allowUnknownGame":true}"#, "fcmToken"),
                (#"{"gameId":"g1","fcmToken":"no spaces allowed","allowUnknownGame":true}"#, "fcmToken"),
                (#"{"gameId":"g1","fid":"short","allowUnknownGame":true}"#, "fid"),
                (#"{"gameId":"g1","fcmToken":"\#(androidRegistration)","fid":"cAAAAAAAAAAAAAAAAAAAAA"}"#, "fid"),
                (#"{"gameId":"g 1","fcmToken":"\#(androidRegistration)","allowUnknownGame":true}"#, "gameId"),
                (#"{"gameId":"g1","fcmToken":"\#(androidRegistration)","at":"soon","allowUnknownGame":true}"#, "at"),
            ] {
                let reply = try await server.request(.POST, "/v1/followers", body: bad, headers: [auth, json])
                #expect(reply.status == 400, "\(bad)")
                let details = (reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]]
                #expect(details?.first?["field"] as? String == field, "\(reply.body)")
            }
            let anonymous = try await server.request(.POST, "/v1/followers", body: body, headers: [json])
            #expect(anonymous.status == 401)
            let list = try await server.request(.GET, "/v1/followers?gameId=g1", headers: [auth])
            #expect(list.status == 200)
            #expect((list.json as? [[String: Any]])?.count == 1)
            let unfollow = #"{"gameId":"g1","fcmToken":"\#(androidRegistration)"}"#
            let byQuery = try await server.request(
                .DELETE, "/v1/followers?gameId=g1&fcmToken=\(androidRegistration)", headers: [auth])
            #expect(byQuery.status == 204, "\(byQuery.body)")
            #expect(try await server.request(.POST, "/v1/followers", body: body, headers: [auth, json]).status == 201)
            let removed = try await server.request(.DELETE, "/v1/followers", body: unfollow, headers: [auth, json])
            #expect(removed.status == 204)
            let twice = try await server.request(.DELETE, "/v1/followers", body: unfollow, headers: [auth, json])
            #expect(twice.status == 404 && twice.errorCode == "not-found")
            let after = try await server.request(.GET, "/v1/followers", headers: [auth])
            #expect((after.json as? [[String: Any]])?.first?["active"] as? Bool == false)
        }
    }

    @Test("an app with ANDROID_TOPICS: the follow's answer names the game's topic; an app without it gets null")
    func topics() async throws {
        let topics: @Sendable (inout ServerConfiguration) -> Void = { $0.appKeys.apps[0].androidTopics = true }
        try await withServer(configure: topics) { server in
            let body = #"{"gameId":"sr:match:1","fcmToken":"\#(androidRegistration)","allowUnknownGame":true}"#
            let created = try await server.request(.POST, "/v1/followers", body: body, headers: [auth, json])
            #expect(created.status == 201, "\(created.body)")
            #expect(created.object["topic"] as? String == "scorefeed.default.sr%3Amatch%3A1", "\(created.body)")
            let list = try await server.request(.GET, "/v1/followers", headers: [auth])
            #expect(
                (list.json as? [[String: Any]])?.map { $0["topic"] as? String } == ["scorefeed.default.sr%3Amatch%3A1"])
            let other = try await server.request(
                .POST, "/v1/followers",
                body: body.replacingOccurrences(of: "android-device-0001", with: "android-device-0002"),
                headers: [("Authorization", "Bearer " + otherAppKey), json])
            #expect(other.status == 201 && other.object["topic"] is NSNull, "\(other.body)")
        }
    }

    @Test("an activity and a push-to-start device registered through FCM say so; fcmToken and fid are exclusive")
    func fcmRegistrations() async throws {
        try await withServer { server in
            let token = String(repeating: "cd", count: 32)
            let created = try await server.request(
                .POST, "/v1/games/g1/activities",
                body:
                    #"{"pushToken":"\#(token)","bundleId":"com.example.scores","fcmToken":"\#(fcmIOSRegistration)","allowUnknownGame":true}"#,
                headers: [auth, json])
            #expect(created.status == 201, "\(created.body)")
            #expect(created.object["route"] as? String == "fcm")
            #expect(created.object["fcmToken"] as? String == fcmIOSRegistration)
            let both = try await server.request(
                .POST, "/v1/games/g1/activities",
                body:
                    #"{"pushToken":"\#(token)","bundleId":"com.example.scores","fcmToken":"\#(fcmIOSRegistration)","fid":"cAAAAAAAAAAAAAAAAAAAAA","allowUnknownGame":true}"#,
                headers: [auth, json])
            #expect(both.status == 400 && both.body.contains("not both"), "\(both.body)")
            let device = try await server.request(
                .POST, "/v1/devices",
                body:
                    #"{"startToken":"\#(String(repeating: "ef", count: 32))","follow":["BOS"],"bundleId":"com.example.scores","fid":"cAAAAAAAAAAAAAAAAAAAAA"}"#,
                headers: [auth, json])
            #expect(device.status == 201, "\(device.body)")
            #expect(device.object["fid"] as? String == "cAAAAAAAAAAAAAAAAAAAAA")
        }
    }
}
