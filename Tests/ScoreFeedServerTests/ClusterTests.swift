import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("N serve nodes on one database", .serialized)
struct ClusterTests {
    /// `GET /v1/cluster` of a node.
    func cluster(_ server: RunningServer) async throws -> [String: Any] {
        try await server.request(.GET, "/v1/cluster").object
    }

    /// Waits until `condition` holds for the node's view of the cluster (at most `seconds`).
    func wait(
        _ server: RunningServer, seconds: Double = 15, until condition: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        var view: [String: Any] = [:]
        for _ in 0..<Int(seconds * 10) {
            view = try await cluster(server)
            if condition(view) { return view }
            try await Task.sleep(for: .milliseconds(100))
        }
        return view
    }

    @Test(
        "two nodes: exactly one leads; both accept webhooks; the leader killed with SIGKILL, the other takes over within seconds and the projection goes on"
    )
    func failover() async throws {
        try await TestDatabase.withSchema { url in
            var env = ["SCOREFEED_DATABASE_URL": url, "SCOREFEED_INGEST_KEYS": ingestKey, "SCOREFEED_APP_KEYS": appKey]
            env["SCOREFEED_NODE_ID"] = "node-a"
            let a = try await ServeProcess(["serve"], environment: env)
            env["SCOREFEED_NODE_ID"] = "node-b"
            let b = try await ServeProcess(["serve"], environment: env)
            let servers = [
                "node-a": RunningServer(base: "http://127.0.0.1:\(a.port)", databaseURL: url, server: nil),
                "node-b": RunningServer(base: "http://127.0.0.1:\(b.port)", databaseURL: url, server: nil),
            ]
            let view = try await wait(servers["node-a"]!) { view in
                let nodes = view["nodes"] as? [[String: Any]] ?? []
                return nodes.filter { $0["alive"] as? Bool == true }.count == 2 && view["leader"] is String
            }
            let nodes = view["nodes"] as? [[String: Any]] ?? []
            #expect(Set(nodes.compactMap { $0["id"] as? String }) == ["node-a", "node-b"], "\(view)")
            #expect(nodes.filter { $0["leader"] as? Bool == true }.count == 1, "\(view)")
            let leader = try #require(view["leader"] as? String)
            let survivor = leader == "node-a" ? "node-b" : "node-a"
            // Both nodes accept webhooks; the leader projects.
            #expect(try await servers["node-a"]!.ingest("[\(scheduled("g1"))]").status == 202)
            #expect(try await servers["node-b"]!.ingest("[\(started("g1"))]").status == 202)
            let projected = try await wait(servers[survivor]!) {
                ($0["projector"] as? [String: Any])?["checkpoint"] as? Int == 2
            }
            #expect((projected["projector"] as? [String: Any])?["lag"] as? Int == 0, "\(projected)")
            let metrics = try await servers[leader]!.request(.GET, "/metrics").body
            #expect(metrics.contains("scorefeed_node_leader 1"), "\(metrics)")
            #expect(metrics.contains("scorefeed_cluster_nodes 2"), "\(metrics)")
            let firstStart = nodes.first { $0["id"] as? String == leader }?["startedAt"] as? String
            // The leader dies without a word. The view is the truth (pg_locks, pg_stat_activity): never
            // two leaders, and the dead node is neither leader nor alive within a second.
            try await (leader == "node-a" ? a : b).stop(signal: SIGKILL)
            let started = ContinuousClock.now
            var goneAfter: Duration?
            var after: [String: Any] = [:]
            while ContinuousClock.now - started < .seconds(10) {
                after = try await cluster(servers[survivor]!)
                let rows = after["nodes"] as? [[String: Any]] ?? []
                #expect(rows.filter { $0["leader"] as? Bool == true }.count <= 1, "\(after)")
                let dead = rows.first { $0["id"] as? String == leader }
                if goneAfter == nil, dead?["leader"] as? Bool == false, dead?["alive"] as? Bool == false {
                    goneAfter = ContinuousClock.now - started
                }
                if goneAfter != nil, after["leader"] as? String == survivor { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(after["leader"] as? String == survivor, "\(after)")
            #expect(
                try #require(goneAfter) < .seconds(1),
                "the killed leader was shown for \(String(describing: goneAfter))")
            let survivorMetrics = try await servers[survivor]!.request(.GET, "/metrics").body
            #expect(survivorMetrics.contains("scorefeed_node_leader 1"), "\(survivorMetrics)")
            #expect(try await servers[survivor]!.ingest("[\(run("g1", 1))]").status == 202)
            let caughtUp = try await wait(servers[survivor]!) {
                ($0["projector"] as? [String: Any])?["lag"] as? Int == 0
                    && ($0["projector"] as? [String: Any])?["checkpoint"] as? Int == 3
            }
            #expect((caughtUp["projector"] as? [String: Any])?["checkpoint"] as? Int == 3, "\(caughtUp)")
            let game = try await servers[survivor]!.request(.GET, "/v1/games/g1")
            #expect(game.object["homeScore"] as? Int == 1, "\(game.body)")
            // The killed node restarts under its id: it shows its new start, alive, not leading.
            env["SCOREFEED_NODE_ID"] = leader
            let restarted = try await ServeProcess(["serve"], environment: env)
            let back = try await wait(servers[survivor]!) { view in
                (view["nodes"] as? [[String: Any]] ?? []).contains {
                    $0["id"] as? String == leader && $0["alive"] as? Bool == true
                }
            }
            let row = (back["nodes"] as? [[String: Any]] ?? []).first { $0["id"] as? String == leader }
            #expect(row?["leader"] as? Bool == false, "\(back)")
            let newStart = try #require(row?["startedAt"] as? String)
            #expect(newStart > (firstStart ?? ""), "a restarted node keeps its first start: \(back)")
            try await restarted.stop(signal: SIGKILL)
            // A node stopped gracefully leaves the cluster.
            try await (leader == "node-a" ? b : a).stop()
            let connection = try await PostgresConnection.connect(url)
            let rows = try await connection.query("SELECT node_id FROM nodes").rows.map { try $0.string("node_id") }
            await connection.close()
            #expect(rows == [leader], "the killed node's row stays (shown as gone once its heartbeat is old)")
        }
    }
}
