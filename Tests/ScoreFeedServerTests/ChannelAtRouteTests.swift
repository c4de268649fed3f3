import APNs
import APNsSandbox
import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import Testing

@Suite("a game's broadcast channel over HTTP, registered as of ?at=")
struct ChannelAtRouteTests {
    let auth = ("Authorization", "Bearer \(appKey)")

    @Test("?at= registers a new channel as of that time; a malformed or out-of-range at is a 400 naming at")
    func registeredAt() async throws {
        try await withLocalAPNs { sandbox, configuration in
            let channels = APNsChannelClient(
                configuration: configuration,
                logger: quietLogger)
            try await withServer(channels: channels) { server in
                #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
                for at in ["yesterday", "1849-12-31T23:59:59Z", "2201-01-01T00:00:00Z", "2026-05-01T22:50:00"] {
                    let bad = try await server.request(.GET, "/v1/games/g1/channel?at=\(at)", headers: [auth])
                    #expect(bad.status == 400, "\(at): \(bad.body)")
                    let details = (bad.object["error"] as? [String: Any])?["details"] as? [[String: Any]]
                    #expect(details?.first?["field"] as? String == "at", "\(bad.body)")
                    #expect(bad.body.contains("1850-01-01"), "\(bad.body)")
                }
                #expect(sandbox.channels.all().isEmpty, "a refused at creates no channel")
                let made = try await server.request(
                    .GET, "/v1/games/g1/channel?at=2026-05-01T22:50:00Z", headers: [auth])
                #expect(made.status == 200, "\(made.body)")
                let connection = try await PostgresConnection.connect(server.databaseURL)
                let stored = try await connection.query("SELECT registered_at FROM channels").rows.map {
                    try $0.date("registered_at")
                }
                await connection.close()
                #expect(stored == [try #require(InputRules.timestamp("2026-05-01T22:50:00Z"))])
            }
            await channels.shutdown()
        }
    }
}
