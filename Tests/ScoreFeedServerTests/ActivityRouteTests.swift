import Foundation
import ScoreFeedTesting
import Testing

@Suite("activities over HTTP")
struct ActivityRouteTests {
    let token = String(repeating: "ab", count: 32)
    let auth = ("Authorization", "Bearer " + appKey)
    let json = ("Content-Type", "application/json")

    /// A registration; the tests' games are never posted, so it says the game will come (`allowUnknownGame`).
    func body(
        _ token: String, environment: String = "sandbox", bundle: String = "com.example.scores",
        allowUnknownGame: Bool = true
    ) -> String {
        #"{"pushToken":"\#(token)","environment":"\#(environment)","bundleId":"\#(bundle)","frequentUpdates":true,"#
            + #""allowUnknownGame":\#(allowUnknownGame)}"#
    }

    @Test("201 registers, 204 removes, 404 for a token not active; validated like the CLI")
    func registerAndRemove() async throws {
        try await withServer { server in
            // A game ScoreFeed has never heard of: 404 naming it, unless the app says it will come.
            let unknown = try await server.request(
                .POST, "/v1/games/g1/activities", body: body(token, allowUnknownGame: false), headers: [auth, json])
            #expect(unknown.status == 404, "\(unknown.body)")
            #expect(unknown.body.contains(#"no game \"g1\" yet"#) && unknown.body.contains("allowUnknownGame"))
            let created = try await server.request(
                .POST, "/v1/games/g1/activities", body: body(token), headers: [auth, json])
            #expect(created.status == 201, "\(created.body)")
            #expect(created.object["gameId"] as? String == "g1")
            #expect(created.object["environment"] as? String == "sandbox")
            #expect(created.object["frequentUpdates"] as? Bool == true)
            #expect(created.object["active"] as? Bool == true)
            for (bad, field) in [
                (body("xyz"), "pushToken"), (body(token, environment: "staging"), "environment"),
                (body(token, bundle: "nodots"), "bundleId"), (#"{"environment":"sandbox"}"#, "pushToken"),
                (#"{"pushToken":42,"bundleId":"com.example.scores"}"#, "pushToken"),
            ] {
                let reply = try await server.request(
                    .POST, "/v1/games/g1/activities", body: bad, headers: [auth, json])
                #expect(reply.status == 400, "\(bad)")
                let details = (reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]]
                #expect(details?.first?["field"] as? String == field, "\(reply.body)")
            }
            let notJSON = try await server.request(.POST, "/v1/games/g1/activities", body: "{", headers: [auth, json])
            #expect(notJSON.status == 400)
            let badGame = try await server.request(
                .POST, "/v1/games/g%201/activities", body: body(token), headers: [auth, json])
            #expect(badGame.status == 400)
            let elsewhere = try await server.request(
                .POST, "/v1/games/g2/activities", body: body(token), headers: [auth, json])
            #expect(elsewhere.status == 409)
            let text = try await server.request(
                .POST, "/v1/games/g1/activities", body: body(token), headers: [auth, ("Content-Type", "text/plain")])
            #expect(text.status == 415)
            let removed = try await server.request(.DELETE, "/v1/activities/\(token)", headers: [auth])
            #expect(removed.status == 204)
            let again = try await server.request(.DELETE, "/v1/activities/\(token)", headers: [auth])
            #expect(again.status == 404)
            let malformed = try await server.request(.DELETE, "/v1/activities/not-a-token", headers: [auth])
            #expect(malformed.status == 400)
            #expect(again.errorCode == "not-found")
        }
    }

    @Test("GET shows the delivery picture; PATCH changes frequentUpdates and the budget follows; clear errors")
    func showAndUpdate() async throws {
        try await withServer { server in
            let created = try await server.request(
                .POST, "/v1/games/g1/activities", body: body(token), headers: [auth, json])
            #expect(created.status == 201)
            let shown = try await server.request(.GET, "/v1/activities/\(token)", headers: [auth])
            #expect(shown.status == 200, "\(shown.body)")
            let pushes = shown.object["pushes"] as? [String: Any]
            #expect(pushes?["planned"] as? Int == 0 && pushes?["superseded"] as? Int == 0)
            let high = shown.object["highPriorityLastHour"] as? [String: Any]
            #expect(high?["sent"] as? Int == 0)
            #expect(high?["budget"] as? Int == 40, "registered with frequent updates")
            #expect(shown.object["lastAnswer"] is NSNull && shown.object["channel"] is NSNull)

            let off = try await server.request(
                .PATCH, "/v1/activities/\(token)", body: #"{"frequentUpdates":false}"#, headers: [auth, json])
            #expect(off.status == 200, "\(off.body)")
            #expect(off.object["frequentUpdates"] as? Bool == false)
            let after = try await server.request(.GET, "/v1/activities/\(token)", headers: [auth])
            #expect((after.object["highPriorityLastHour"] as? [String: Any])?["budget"] as? Int == 12)
            #expect(after.object["frequentUpdates"] as? Bool == false)

            for (bad, field) in [
                (#"{"frequentUpdates":"yes"}"#, "frequentUpdates"), (#"{}"#, "frequentUpdates"),
                (#"{"frequentUpdates":true,"bundleId":"x.y"}"#, "bundleId"),
            ] {
                let reply = try await server.request(
                    .PATCH, "/v1/activities/\(token)", body: bad, headers: [auth, json])
                #expect(reply.status == 400, "\(bad)")
                let details = (reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]]
                #expect(details?.first?["field"] as? String == field, "\(reply.body)")
            }
            let unknown = String(repeating: "cd", count: 32)
            #expect(try await server.request(.GET, "/v1/activities/\(unknown)", headers: [auth]).status == 404)
            #expect(
                try await server.request(
                    .PATCH, "/v1/activities/\(unknown)", body: #"{"frequentUpdates":true}"#, headers: [auth, json]
                ).status == 404)
            #expect(try await server.request(.GET, "/v1/activities/not-a-token", headers: [auth]).status == 400)
            #expect(try await server.request(.GET, "/v1/activities/\(token)").status == 401)
            // Removed: still shown (inactive), no longer changeable.
            #expect(try await server.request(.DELETE, "/v1/activities/\(token)", headers: [auth]).status == 204)
            let gone = try await server.request(.GET, "/v1/activities/\(token)", headers: [auth])
            #expect(gone.status == 200 && gone.object["active"] as? Bool == false)
            #expect(
                try await server.request(
                    .PATCH, "/v1/activities/\(token)", body: #"{"frequentUpdates":true}"#, headers: [auth, json]
                ).status == 404)
        }
    }

    @Test("POST /v1/devices registers a push-to-start device; the activity it starts joins with startToken")
    func devices() async throws {
        try await withServer { server in
            let start = String(repeating: "9a", count: 32)
            let body =
                #"{"startToken":"\#(start)","follow":["BOS","NYY"],"bundleId":"com.example.scores","channels":true}"#
            let created = try await server.request(.POST, "/v1/devices", body: body, headers: [auth, json])
            #expect(created.status == 201, "\(created.body)")
            #expect(created.object["follow"] as? [String] == ["BOS", "NYY"])
            #expect(created.object["channels"] as? Bool == true)
            for (bad, field) in [
                (#"{"startToken":"xyz","follow":["BOS"],"bundleId":"com.example.scores"}"#, "startToken"),
                (#"{"startToken":"\#(start)","follow":"BOS","bundleId":"com.example.scores"}"#, "follow"),
                (#"{"startToken":"\#(start)","follow":[],"bundleId":"com.example.scores"}"#, "follow"),
                (#"{"startToken":"\#(start)","follow":["BOS"]}"#, "bundleId"),
                (
                    #"{"startToken":"\#(start)","follow":["BOS"],"bundleId":"com.example.scores","environment":"x"}"#,
                    "environment"
                ),
            ] {
                let reply = try await server.request(.POST, "/v1/devices", body: bad, headers: [auth, json])
                #expect(reply.status == 400, "\(bad)")
                let details = (reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]]
                #expect(details?.first?["field"] as? String == field, "\(reply.body)")
            }
            #expect(try await server.request(.POST, "/v1/devices", body: body, headers: [json]).status == 401)
            // An activity registered with the device's start token (its game has no start yet: nothing to join).
            let activity = try await server.request(
                .POST, "/v1/games/g1/activities",
                body:
                    #"{"pushToken":"\#(token)","bundleId":"com.example.scores","allowUnknownGame":true,"startToken":"\#(start)"}"#,
                headers: [auth, json])
            #expect(activity.status == 201, "\(activity.body)")
        }
    }

    @Test("401 without an app key, 403 with an ingest key or a wrong one")
    func appKeyRequired() async throws {
        try await withServer { server in
            let none = try await server.request(.POST, "/v1/games/g1/activities", body: body(token), headers: [json])
            #expect(none.status == 401)
            let ingest = try await server.request(
                .POST, "/v1/games/g1/activities", body: body(token),
                headers: [json, ("Authorization", "Bearer \(ingestKey)")])
            #expect(ingest.status == 403)
            let delete = try await server.request(.DELETE, "/v1/activities/\(token)")
            #expect(delete.status == 401)
            let wrong = try await server.request(
                .DELETE, "/v1/activities/\(token)", headers: [("Authorization", "Bearer wrong-key-00000000000")])
            #expect(wrong.status == 403)
        }
    }
}
