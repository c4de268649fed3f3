import Foundation
import ScoreFeedServer
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("registration defaults over HTTP")
struct RegistrationDefaultsTests {
    let token = String(repeating: "cd", count: 32)
    let json = ("Content-Type", "application/json")
    let otherAuth = ("Authorization", "Bearer " + otherAppKey)
    let defaultAuth = ("Authorization", "Bearer " + appKey)

    /// An activity registration without `bundleId`.
    var activity: String { #"{"pushToken":"\#(token)","environment":"sandbox","allowUnknownGame":true}"# }
    /// A device registration without `bundleId`.
    var device: String { #"{"startToken":"\#(token)","follow":["NYY"],"environment":"sandbox"}"# }

    /// The server's `SCOREFEED_APNS_BUNDLE_ID`.
    func serverBundle(_ bundle: String) -> @Sendable (inout ServerConfiguration) -> Void {
        { $0.apnsBundleId = bundle }
    }

    /// Only the default app, listing two bundle ids; no server bundle id.
    let twoBundles: @Sendable (inout ServerConfiguration) -> Void = {
        $0.appKeys = AppKeys(apps: [
            AppSettings(name: AppName.default, keys: [appKey], bundleIds: ["com.a.scores", "com.b.scores"])
        ])
    }

    @Test("bundleId defaults to the app's only bundle id, else SCOREFEED_APNS_BUNDLE_ID, else a 400 naming it")
    func bundleIdDefaults() async throws {
        // The harness's "other" app lists exactly one bundle id; the default app lists none.
        try await withServer(configure: serverBundle("com.server.scores")) { server in
            let own = try await server.request(
                .POST, "/v1/games/g1/activities", body: activity, headers: [otherAuth, json])
            #expect(own.status == 201, "\(own.body)")
            #expect(own.object["bundleId"] as? String == "com.other.scores")
            let fallback = try await server.request(
                .POST, "/v1/games/g2/activities",
                body: activity.replacingOccurrences(of: token, with: String(repeating: "ef", count: 32)),
                headers: [defaultAuth, json])
            #expect(fallback.status == 201, "\(fallback.body)")
            #expect(fallback.object["bundleId"] as? String == "com.server.scores")
            let ownDevice = try await server.request(.POST, "/v1/devices", body: device, headers: [otherAuth, json])
            #expect(ownDevice.status == 201, "\(ownDevice.body)")
            #expect(ownDevice.object["bundleId"] as? String == "com.other.scores")
            let fallbackDevice = try await server.request(
                .POST, "/v1/devices",
                body: device.replacingOccurrences(of: token, with: String(repeating: "ef", count: 32)),
                headers: [defaultAuth, json])
            #expect(fallbackDevice.status == 201, "\(fallbackDevice.body)")
            #expect(fallbackDevice.object["bundleId"] as? String == "com.server.scores")
        }
        // SCOREFEED_APNS_BUNDLE_ID is read with the other settings.
        let read = try ServerConfiguration.fromEnvironment(["SCOREFEED_APNS_BUNDLE_ID": "com.env.scores"])
        #expect(read.apnsBundleId == "com.env.scores")
        // Neither: the app lists no single bundle id and the server has none.
        try await withServer(configure: twoBundles) { server in
            for (path, body) in [("/v1/games/g1/activities", activity), ("/v1/devices", device)] {
                let reply = try await server.request(.POST, path, body: body, headers: [defaultAuth, json])
                #expect(reply.status == 400, "\(path): \(reply.body)")
                let details = (reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]]
                #expect(details?.first?["field"] as? String == "bundleId", "\(reply.body)")
            }
        }
    }
}
