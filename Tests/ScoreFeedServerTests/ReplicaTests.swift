import Foundation
import LocalPostgres
import PostgresClient
import ScoreFeedTesting
import Testing

/// A hot standby of the test run's throw-away primary, copied with `pg_basebackup -R`.
struct Standby {
    let cluster: LocalCluster
    let primaryHost: String
    var host: String { cluster.home.path }

    /// `url` (of the primary) pointing at the standby instead.
    func reading(_ url: String) -> String {
        url.replacingOccurrences(of: "host=\(escape(primaryHost))", with: "host=\(escape(host))")
    }

    private func escape(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(["&", "=", "+"])) ?? path
    }

    static func with<T: Sendable>(_ body: (Standby) async throws -> T) async throws -> T {
        let primary = try TestDatabase.url()
        let query = URLComponents(string: primary)?.queryItems ?? []
        guard let host = query.first(where: { $0.name == "host" })?.value, host.hasPrefix("/"),
            let port = query.first(where: { $0.name == "port" })?.value.flatMap(Int.init)
        else {
            throw TestDatabaseError(
                "the replica test copies the throw-away primary that scripts/test starts (a unix socket in "
                    + "SCOREFEED_DATABASE_URL) into a hot standby; \(primary) is not one")
        }
        let home = URL(fileURLWithPath: "/tmp/sf-standby-\(UUID().uuidString.prefix(8))")
        let cluster = LocalCluster(home: home)
        try await cluster.startStandby(primaryHost: host, primaryPort: port, logger: quietLogger)
        do {
            let value = try await body(Standby(cluster: cluster, primaryHost: host))
            try await cluster.stop()
            try? FileManager.default.removeItem(at: home)
            return value
        } catch {
            _ = try? await cluster.stop()
            try? FileManager.default.removeItem(at: home)
            throw error
        }
    }
}

@Suite("reads from a streaming replica", .serialized)
struct ReplicaTests {
    @Test(
        "the read API reads a hot standby, writes stay on the primary, the replica's lag is a metric, and the stream never skips while the replica lags"
    )
    func replica() async throws {
        try await Standby.with { standby in
            try await withServer(streamMemory: 1, readURL: { standby.reading($0) }) { server in
                let replicaURL = standby.reading(server.databaseURL)
                let replica = try await PostgresConnection.connect(replicaURL)
                #expect(try await replica.query("SELECT pg_is_in_recovery() AS r")[0].bool("r"))
                #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1"))]").status == 202)
                var game = try await server.request(.GET, "/v1/games/g1")
                for _ in 0..<200 where game.object["status"] as? String != "inprogress" {
                    try await Task.sleep(for: .milliseconds(50))
                    game = try await server.request(.GET, "/v1/games/g1")
                }
                #expect(game.object["status"] as? String == "inprogress", "\(game.body)")
                // The replica stops replaying: the primary goes on, the reads show the replica's past.
                _ = try await replica.query("SELECT pg_wal_replay_pause()")
                #expect(try await server.ingest("[\(run("g1", 1))]").status == 202)
                let primary = try await PostgresConnection.connect(server.databaseURL)
                var projected = 0
                for _ in 0..<200 where projected == 0 {
                    projected = try await primary.query(
                        "SELECT count(*) AS n FROM score_states WHERE game_id = 'g1' AND (state->>'homeScore')::int = 1"
                    )[0].int("n")
                    if projected == 0 { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(projected == 1)
                #expect(try await server.request(.GET, "/v1/games/g1").object["homeScore"] as? Int == 0)
                let metrics = try await server.request(.GET, "/metrics").body
                #expect(metrics.contains("scorefeed_replica_lag_events 1"), "\(metrics)")
                #expect(metrics.contains("scorefeed_replica_lag_seconds"))
                // A client resuming from the start: the hub holds one change, the replica lags, so the
                // stream reads the primary and misses nothing.
                let stream = try await readEvents(server, "/v1/games/g1/stream", lastEventID: 0, count: 3)
                #expect(stream.events.map { $0.state["version"] as? Int } == [1, 2, 3])
                let ids = stream.events.compactMap(\.id)
                #expect(ids == ids.sorted() && Set(ids).count == ids.count)
                // Replay goes on: the reads catch up.
                _ = try await replica.query("SELECT pg_wal_replay_resume()")
                var score = 0
                for _ in 0..<200 where score != 1 {
                    score = try await server.request(.GET, "/v1/games/g1").object["homeScore"] as? Int ?? 0
                    if score != 1 { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(score == 1)
                await replica.close()
                await primary.close()
            }
        }
    }
}
