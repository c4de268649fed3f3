import APNs
import APNsSandbox
import FCM
import FCMSandbox
import Foundation
import ScoreFeedTesting
import Testing

@Suite("serve delivers: pushes reach a local APNs server and are counted")
struct DeliveryMetricsTests {
    @Test("a run is pushed to a registered activity; metrics count sent pushes and coalesced updates")
    func deliversAndCounts() async throws {
        try await withLocalAPNs { sandbox, configuration in
            let client = APNsClient(
                configuration: configuration,
                requestTimeout: .seconds(30), logger: quietLogger)
            try await withServer(apns: client) { server in
                #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
                let register = try await server.request(
                    .POST, "/v1/games/g1/activities",
                    body: #"{"pushToken":"\#(String(repeating: "ab", count: 32))","bundleId":"com.example.scores"}"#,
                    headers: [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")])
                #expect(register.status == 201)
                // The start goes out at once; the runs right after it wait for the interval to close.
                #expect(try await server.ingest("[\(started("g1")),\(run("g1", 1)),\(run("g1", 2))]").status == 202)
                var sent = 0
                for _ in 0..<200 where sent == 0 {
                    let reply = try await server.request(.GET, "/v1/games/g1/pushes")
                    sent = (reply.object["counts"] as? [String: Any])?["sent"] as? Int ?? 0
                    if sent == 0 { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(sent >= 1)
                let metrics = try await server.request(.GET, "/metrics").body
                #expect(
                    metrics.contains(#"scorefeed_pushes_total{result="sent",reason="",target="liveActivity"} "#),
                    "\(metrics)")
                let coalesced = metrics.split(separator: "\n").first {
                    $0.hasPrefix("scorefeed_updates_coalesced_total ")
                }
                #expect((coalesced?.split(separator: " ").last).flatMap { Double($0) } ?? 0 >= 2, "\(metrics)")
                #expect(await sandbox.delivered().count >= sent)
            }
            try await client.shutdown()
        }
    }
}

@Suite("serve delivers through FCM: an iOS activity registered with an FCM token and an Android follower")
struct FCMServeTests {
    @Test("both get their pushes through the local FCM server, the end last; metrics count them as target fcm")
    func deliversThroughFCM() async throws {
        let sandbox = try await FCMSandbox.start(FCMSandbox.Configuration(), logger: quietLogger)
        let client = try fcmClient(talkingTo: sandbox)
        let headers = [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")]
        do {
            try await withServer(fcm: client) { server in
                #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
                let register = try await server.request(
                    .POST, "/v1/games/g1/activities",
                    body:
                        #"{"pushToken":"\#(fcmActivityToken)","bundleId":"com.example.scores","fcmToken":"\#(fcmIOSRegistration)"}"#,
                    headers: headers)
                #expect(register.status == 201, "\(register.body)")
                let follow = try await server.request(
                    .POST, "/v1/followers", body: #"{"gameId":"g1","fcmToken":"\#(androidRegistration)"}"#,
                    headers: headers)
                #expect(follow.status == 201, "\(follow.body)")
                #expect(
                    try await server.ingest("[\(started("g1")),\(run("g1", 1)),\(final("g1"))]").status == 202)
                var ends: [String] = []
                for _ in 0..<400 where ends.count < 2 {
                    ends = sandbox.accepted().filter {
                        $0.body.contains(#""event":"end""#) || $0.body.contains(#""type":"end""#)
                    }.compactMap(\.target)
                    if ends.count < 2 { try await Task.sleep(for: .milliseconds(25)) }
                }
                #expect(Set(ends) == [fcmIOSRegistration, androidRegistration])
                for target in [fcmIOSRegistration, androidRegistration] {
                    let mine = sandbox.accepted().filter { $0.target == target }
                    #expect(mine.count >= 2 && mine.last.map { ends.contains($0.target ?? "") } == true)
                }
                let metrics = try await server.request(.GET, "/metrics").body
                #expect(
                    metrics.contains(#"scorefeed_pushes_total{result="sent",reason="",target="fcm"} "#), "\(metrics)")
            }
        } catch {
            await client.shutdown()
            await sandbox.stop()
            throw error
        }
        await client.shutdown()
        await sandbox.stop()
    }
}

/// A client of `sandbox` (the local FCM server): its service account, URL and CA.
func fcmClient(talkingTo sandbox: FCMSandbox) throws -> FCMClient {
    FCMClient(
        configuration: try FCMConfiguration(
            serviceAccount: try ServiceAccount(contentsOfFile: sandbox.serviceAccountPath), baseURL: sandbox.url,
            additionalCAFile: sandbox.caCertificatePath),
        requestTimeout: .seconds(30), logger: quietLogger)
}
