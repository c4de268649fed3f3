import FCM
import FCMSandbox
import Foundation
import ScoreFeedTesting
import Testing

@Suite("serve exports scorefeed_delivery_paused per delivery service")
struct DeliveryPausedTests {
    @Test("FCM delivery paused by a refused OAuth exchange reads 1 for fcm; apns stays 0")
    func pausedFCMReadsOne() async throws {
        let sandbox = try await FCMSandbox.start(FCMSandbox.Configuration(), logger: quietLogger)
        let client = try fcmClient(talkingTo: sandbox)
        let headers = [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")]
        do {
            try await withServer(fcm: client) { server in
                let before = try await server.request(.GET, "/metrics").body
                #expect(before.contains(#"scorefeed_delivery_paused{service="fcm"} 0"#), "\(before)")
                #expect(before.contains(#"scorefeed_delivery_paused{service="apns"} 0"#), "\(before)")
                #expect(before.contains("# TYPE scorefeed_delivery_paused gauge"), "\(before)")
                sandbox.inject(.refuseToken, count: 1)
                #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
                let follow = try await server.request(
                    .POST, "/v1/followers", body: #"{"gameId":"g1","fcmToken":"\#(androidRegistration)"}"#,
                    headers: headers)
                #expect(follow.status == 201, "\(follow.body)")
                #expect(try await server.ingest("[\(started("g1")),\(run("g1", 1))]").status == 202)
                var metrics = ""
                for _ in 0..<400 where !metrics.contains(#"scorefeed_delivery_paused{service="fcm"} 1"#) {
                    try await Task.sleep(for: .milliseconds(25))
                    metrics = try await server.request(.GET, "/metrics").body
                }
                #expect(metrics.contains(#"scorefeed_delivery_paused{service="fcm"} 1"#), "\(metrics)")
                #expect(metrics.contains(#"scorefeed_delivery_paused{service="apns"} 0"#), "\(metrics)")
                #expect(metrics.contains(#"scorefeed_pushes_total{result="paused",reason="oauth",target="fcm"} "#))
                // Paused until restarted: a later scrape still reads 1.
                try await Task.sleep(for: .milliseconds(200))
                let later = try await server.request(.GET, "/metrics").body
                #expect(later.contains(#"scorefeed_delivery_paused{service="fcm"} 1"#), "\(later)")
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
