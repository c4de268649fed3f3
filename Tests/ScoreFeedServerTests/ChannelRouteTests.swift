import APNs
import APNsSandbox
import Foundation
import ScoreFeedTesting
import Testing

@Suite("a game's broadcast channel over HTTP")
struct ChannelRouteTests {
    @Test("created on first use and served again; clear errors; 503 without APNs settings")
    func channel() async throws {
        let auth = ("Authorization", "Bearer \(appKey)")
        try await withLocalAPNs { sandbox, configuration in
            let channels = APNsChannelClient(
                configuration: configuration,
                logger: quietLogger)
            let broadcasts = APNsClient(configuration: channels.configuration, logger: quietLogger)
            try await withServer(channels: channels, broadcasts: broadcasts) { server in
                #expect(try await server.request(.GET, "/v1/games/g1/channel", headers: [auth]).status == 404)
                #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
                let first = try await server.request(.GET, "/v1/games/g1/channel", headers: [auth])
                #expect(first.status == 200, "\(first.body)")
                let id = try #require(first.object["channelId"] as? String)
                #expect(sandbox.channels.channel(id) != nil)
                #expect(first.object["environment"] as? String == "production")
                #expect(first.object["storagePolicy"] as? Int == 0)
                let again = try await server.request(.GET, "/v1/games/g1/channel", headers: [auth])
                #expect(again.object["channelId"] as? String == id)
                let sandboxed = try await server.request(
                    .GET, "/v1/games/g1/channel?environment=sandbox", headers: [auth])
                #expect(sandboxed.status == 200 && sandboxed.object["channelId"] as? String != id)
                let bad = try await server.request(.GET, "/v1/games/g1/channel?environment=staging", headers: [auth])
                #expect(bad.status == 400)
                let details = (bad.object["error"] as? [String: Any])?["details"] as? [[String: Any]]
                #expect(details?.first?["field"] as? String == "environment")
                #expect(try await server.request(.GET, "/v1/games/g1/channel").status == 401)
                #expect(sandbox.channels.all().count == 2)
                // The game starts: each open channel gets its broadcast, at once (a moment, priority 10).
                #expect(try await server.ingest("[\(started("g1"))]").status == 202)
                var received: [String] = []
                for _ in 0..<200 where received.count < 2 {
                    received = await sandbox.delivered().filter(\.isBroadcast).compactMap(\.channelId)
                    if received.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(Set(received) == Set(sandbox.channels.all()), "\(received)")
                #expect(await sandbox.delivered().filter(\.isBroadcast).allSatisfy { $0.priority == 10 })
                var metrics = ""
                for _ in 0..<100 where !metrics.contains(#"target="channel""#) {
                    metrics = try await server.request(.GET, "/metrics").body
                    if !metrics.contains(#"target="channel""#) { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(
                    metrics.contains(#"scorefeed_pushes_total{result="sent",reason="",target="channel"} 2"#),
                    "\(metrics)")
                // Another app gets a channel of its own (Apple keeps channels per bundle id), never the first app's.
                let other = try await server.request(
                    .GET, "/v1/games/g1/channel", headers: [("Authorization", "Bearer \(otherAppKey)")])
                let otherId = try #require(other.object["channelId"] as? String, "\(other.body)")
                #expect(otherId != id && otherId != sandboxed.object["channelId"] as? String)
                let mine = try await server.request(.GET, "/v1/games/g1/channel", headers: [auth])
                #expect(mine.object["channelId"] as? String == id)
            }
            await channels.shutdown()
            try await broadcasts.shutdown()
        }
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            let off = try await server.request(
                .GET, "/v1/games/g1/channel", headers: [("Authorization", "Bearer \(appKey)")])
            #expect(off.status == 503 && off.errorCode == "no-apns")
        }
    }
}
