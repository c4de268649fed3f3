import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@testable import ScoreFeedServer

@Suite("the server outlives lost database connections")
struct ReconnectTests {
    @Test("requests that meet a cut connection get 503 JSON; the next ones are served on new connections")
    func reconnects() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            _ = try await server.waitForGame("g1", version: 1)
            let database = try #require(server.server?.database)
            var pids = try await database.ready().pool.backendPIDs()
            pids.append(try await database.ingestor().connection.withSession { $0.backendPID })
            let admin = try await PostgresConnection.connect(server.databaseURL)
            for pid in pids { _ = try await admin.query("SELECT pg_terminate_backend($1)", [pid]) }
            await admin.close()
            var statuses: [Int] = []
            for _ in 0..<6 {
                let reply = try await server.request(.GET, "/v1/games/g1")
                statuses.append(reply.status)
                if reply.status == 503 { #expect(reply.errorCode == "database-unavailable") }
            }
            #expect(statuses.suffix(3) == [200, 200, 200], "\(statuses)")
            var ingest = try await server.ingest("[\(started("g1"))]")
            if ingest.status == 503 { ingest = try await server.ingest("[\(started("g1"))]") }
            #expect(ingest.status == 202, "\(ingest.body)")
            let game = try await server.waitForGame("g1", version: 2)
            #expect(game["status"] as? String == "inprogress")
        }
    }

    @Test("readyz says `database unavailable` and nothing of the server's text when the database is gone")
    func readyWithoutDatabase() async throws {
        try await withServer { server in
            let database = try #require(server.server?.database)
            let pids = try await database.ready().pool.backendPIDs()
            let admin = try await PostgresConnection.connect(server.databaseURL)
            for pid in pids { _ = try await admin.query("SELECT pg_terminate_backend($1)", [pid]) }
            await admin.close()
            var refused: [RunningServer.Reply] = []
            for _ in 0..<pids.count {
                let reply = try await server.request(.GET, "/readyz")
                if reply.status != 200 { refused.append(reply) }
            }
            #expect(!refused.isEmpty)
            for reply in refused {
                #expect(reply.status == 503)
                let error = reply.object["error"] as? [String: Any]
                #expect(error?["message"] as? String == "database unavailable", "\(reply.body)")
                #expect(!reply.body.contains("terminat"), "\(reply.body)")
            }
        }
    }
}
