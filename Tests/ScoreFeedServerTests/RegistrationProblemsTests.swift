import Foundation
import ScoreFeedTesting
import Testing

@Suite("a registration body's 400 lists every problem at once")
struct RegistrationProblemsTests {
    let auth = ("Authorization", "Bearer " + appKey)
    let json = ("Content-Type", "application/json")

    /// The fields `details` names, in order, of a 400 `invalid-field`.
    func fields(_ reply: RunningServer.Reply) -> [String] {
        #expect(reply.status == 400 && reply.errorCode == "invalid-field", "\(reply.body)")
        let details = (reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]] ?? []
        #expect(details.allSatisfy { ($0["reason"] as? String)?.isEmpty == false }, "\(reply.body)")
        return details.compactMap { $0["field"] as? String }
    }

    @Test("activities, devices and followers: every field's problem in one 400, nothing stored")
    func everyProblem() async throws {
        try await withServer { server in
            let activity = try await server.request(
                .POST, "/v1/games/g1/activities",
                body: #"{"environment":"staging","bundleId":"com.example.scores","frequentUpdates":"yes"}"#,
                headers: [auth, json])
            #expect(fields(activity) == ["pushToken", "environment", "frequentUpdates"])
            #expect(
                (activity.object["error"] as? [String: Any])?["message"] as? String
                    == #"3 fields are invalid: pushToken: is required; environment: must be "production" or "sandbox"; "#
                    + "frequentUpdates: must be true or false", "as docs/openapi.yaml shows")
            // Values too: a malformed token, bundle id and FCM token are named together.
            let values = try await server.request(
                .POST, "/v1/games/g%201/activities",
                body: #"{"pushToken":"xyz","bundleId":"nodots","fcmToken":"bad token","allowUnknownGame":true}"#,
                headers: [auth, json])
            #expect(fields(values) == ["gameId", "pushToken", "bundleId", "fcmToken"])
            let device = try await server.request(
                .POST, "/v1/devices",
                body: #"{"startToken":42,"follow":"NYY","environment":"staging","channels":"yes"}"#,
                headers: [auth, json])
            #expect(fields(device) == ["startToken", "follow", "environment", "bundleId", "channels"])
            let deviceValues = try await server.request(
                .POST, "/v1/devices",
                body: #"{"startToken":"xyz","follow":["g 1"],"bundleId":"nodots"}"#, headers: [auth, json])
            #expect(fields(deviceValues) == ["startToken", "follow", "bundleId"])
            let follower = try await server.request(
                .POST, "/v1/followers", body: #"{"gameId":7,"at":"yesterday","allowUnknownGame":1}"#,
                headers: [auth, json])
            #expect(fields(follower) == ["gameId", "fcmToken", "at", "allowUnknownGame"])
            #expect(follower.body.contains("4 fields are invalid"), "\(follower.body)")
            // One problem: the message names it as before.
            let one = try await server.request(
                .POST, "/v1/games/g1/activities", body: #"{"bundleId":"com.example.scores"}"#, headers: [auth, json])
            #expect(fields(one) == ["pushToken"])
            #expect((one.object["error"] as? [String: Any])?["message"] as? String == "pushToken: is required")
            let stored = try await server.request(.GET, "/v1/followers", headers: [auth])
            #expect(stored.status == 200 && (stored.json as? [Any])?.isEmpty == true, "\(stored.body)")
        }
    }
}
