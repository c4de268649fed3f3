import Foundation
import LocalPostgres
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("failover of the primary", .serialized)
struct FailoverTests {
    /// Posts one message until the server acknowledges it (202), waiting out the outage's 503s and
    /// lost connections. Returns how many answers were not 202 before it.
    func post(_ server: RunningServer, _ line: String) async throws -> Int {
        var refused = 0
        for _ in 0..<600 {
            if let reply = try? await server.ingest("[\(line)]") {
                if reply.status == 202 { return refused }
                #expect(
                    [503, 500].contains(reply.status), "only 503 (or a 500 at the cut) during the outage: \(reply.body)"
                )
                if reply.status == 503 { #expect(reply.headers.first(name: "Retry-After") != nil) }
            }
            refused += 1
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestDatabaseError("the message was never acknowledged")
    }

    @Test(
        "a synchronous hot standby promoted mid-game: the server moves to it by itself and nothing acknowledged is lost"
    )
    func promote() async throws {
        let tag = UUID().uuidString.prefix(8)
        let primary = LocalCluster(home: URL(fileURLWithPath: "/tmp/sf-primary-\(tag)"))
        let standby = LocalCluster(home: URL(fileURLWithPath: "/tmp/sf-standby-\(tag)"))
        defer {
            try? FileManager.default.removeItem(at: primary.home)
            try? FileManager.default.removeItem(at: standby.home)
        }
        try await primary.start(logger: quietLogger)
        do {
            try await standby.startStandby(
                primaryHost: primary.home.path, primaryPort: LocalCluster.defaultPort, logger: quietLogger)
            // Synchronous: a commit is acknowledged only once the standby has it.
            let admin = try await PostgresConnection.connect(primary.url())
            try await admin.execute(script: "ALTER SYSTEM SET synchronous_standby_names = '*'")
            _ = try await admin.query("SELECT pg_reload_conf()")
            var sync = ""
            for _ in 0..<100 where sync != "sync" {
                sync =
                    try await admin.query("SELECT sync_state FROM pg_stat_replication").rows.first?.text("sync_state")
                    .flatMap { $0 } ?? ""
                if sync != "sync" { try await Task.sleep(for: .milliseconds(100)) }
            }
            await admin.close()
            #expect(sync == "sync")
            let url =
                "postgresql://postgres@/scorefeed?host=\(primary.home.path),\(standby.home.path)"
                + "&port=\(LocalCluster.defaultPort),\(LocalCluster.defaultPort)&target_session_attrs=read-write"
            let serve = try await ServeProcess(
                ["serve"],
                environment: [
                    "SCOREFEED_DATABASE_URL": url, "SCOREFEED_INGEST_KEYS": ingestKey, "SCOREFEED_APP_KEYS": appKey,
                ])
            let server = RunningServer(base: "http://127.0.0.1:\(serve.port)", databaseURL: url, server: nil)
            let lines = try String(contentsOfFile: fixture("plain-nine.jsonl"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let gameId = try FeedFile.read(fixture("plain-nine.jsonl"))[0].message.gameId
            #expect(try await post(server, lines[0]) == 0)
            let register = try await server.request(
                .POST, "/v1/games/\(gameId)/activities",
                body: #"{"pushToken":"\#(String(repeating: "ab", count: 32))","bundleId":"com.example.scores"}"#,
                headers: [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")])
            #expect(register.status == 201, "\(register.body)")
            let half = lines.count / 2
            for line in lines[1..<half] { _ = try await post(server, line) }
            // The primary dies; the standby is promoted; the server finds it by itself.
            try await primary.stop(immediately: true)
            try await standby.promote()
            for line in lines[half...] { _ = try await post(server, line) }
            // Everything acknowledged is in the new primary's log, once.
            let promoted = try await PostgresConnection.connect(standby.url())
            // (The fixture repeats some messages, as providers do: each is stored once.)
            let ids = Array(Set(try FeedFile.read(fixture("plain-nine.jsonl")).map(\.message.id)))
            let stored = try await promoted.query(
                "SELECT count(DISTINCT message_id) AS n, count(*) AS m FROM events WHERE message_id = ANY($1::text[])",
                [ids])[0]
            #expect(try stored.int("n") == ids.count && stored.int("m") == ids.count)
            // The projection catches up on the new primary, and the activity's pushes end once.
            let final = try await server.waitForGame(gameId, version: ids.count)
            #expect(final["status"] as? String == "closed", "\(final)")
            var ends = 0
            for _ in 0..<100 where ends == 0 {
                ends = try await promoted.query(
                    "SELECT count(*) AS n FROM outbox WHERE game_id = $1 AND event = 'end'", [gameId]
                )[0].int("n")
                if ends == 0 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(ends == 1)
            await promoted.close()
            let output = try await serve.stop()
            #expect(output.status == 0, "\(output.stderr.suffix(2000))")
            try await standby.stop()
        } catch {
            _ = try? await primary.stop(immediately: true)
            _ = try? await standby.stop(immediately: true)
            throw error
        }
    }
}
