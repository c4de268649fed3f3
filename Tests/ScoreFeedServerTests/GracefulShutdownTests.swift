import AsyncHTTPClient
import ChildProcess
import Foundation
import NIOCore
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("scorefeed serve: graceful shutdown", .serialized)
struct GracefulShutdownTests {
    /// A local APNs server (`scorefeed apns-sandbox`) with these faults, and the settings to reach it.
    func sandbox(faults: [String]) async throws -> (ServeProcess, [String: String]) {
        let process = try await ServeProcess(["apns-sandbox"] + faults.flatMap { ["--fault", $0] }, environment: [:])
        var env: [String: String] = [:]
        for line in try String(contentsOfFile: "\(process.folder)/env", encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { env[parts[0]] = parts[1] }
        }
        return (process, env)
    }

    /// Runs a server with delivery to a sandbox that holds every push for `delay`, starts a game with
    /// one activity so a push is in flight, then sends SIGTERM. Returns the server's output and the
    /// outbox afterwards.
    func shutDownWithPushInFlight(delay: String, drain: Int) async throws -> (
        ChildProcess.Output, [(state: String, claimed: Bool, outcome: String?)]
    ) {
        let (apns, settings) = try await sandbox(faults: ["delay:\(delay)*100"])
        defer { Task { try? await apns.stop() } }
        return try await TestDatabase.withSchema { url in
            var env = settings
            env["SCOREFEED_DATABASE_URL"] = url
            env["SCOREFEED_INGEST_KEYS"] = ingestKey
            env["SCOREFEED_APP_KEYS"] = appKey
            let serve = try await ServeProcess(["serve", "--drain-seconds", String(drain)], environment: env)
            let server = RunningServer(base: "http://127.0.0.1:\(serve.port)", databaseURL: url, server: nil)
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            let register = try await server.request(
                .POST, "/v1/games/g1/activities",
                body: #"{"pushToken":"\#(String(repeating: "ef", count: 32))","bundleId":"com.example.scores"}"#,
                headers: [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")])
            #expect(register.status == 201, "\(register.body)")
            #expect(try await server.ingest("[\(started("g1"))]").status == 202)
            let connection = try await PostgresConnection.connect(url)
            var claimed = 0
            for _ in 0..<200 where claimed == 0 {
                claimed = try await connection.query(
                    "SELECT count(*) AS n FROM outbox WHERE claimed_until IS NOT NULL")[0].int("n")
                if claimed == 0 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(claimed == 1, "the push never went out")
            // A live stream is open too: it must end, not hold the shutdown up.
            let (connected, streaming) = AsyncStream.makeStream(of: Void.self)
            let stream = Task {
                try await readEvents(server, "/v1/stream", count: 100, timeout: .seconds(60)) { _ in streaming.yield() }
            }
            for await _ in connected { break }  // the stream is open: it has sent the current state
            // And a request is in flight: its body is only half sent when the signal comes.
            let (body, writer) = AsyncStream.makeStream(of: ByteBuffer.self)
            var upload = HTTPClientRequest(url: server.base + "/v1/feed")
            upload.method = .POST
            upload.headers.add(name: "Authorization", value: "Bearer \(ingestKey)")
            upload.headers.add(name: "Content-Type", value: "application/x-ndjson")
            upload.body = .stream(body, length: .unknown)
            let request = upload
            let inFlight = Task { try await HTTPClient.shared.execute(request, timeout: .seconds(60)) }
            writer.yield(ByteBuffer(string: run("g1", 1) + "\n"))
            try await Task.sleep(for: .milliseconds(300))
            let stopping = Task { try await serve.stop() }
            try await Task.sleep(for: .milliseconds(500))
            writer.yield(ByteBuffer(string: run("g1", 2, team: "away") + "\n"))
            writer.finish()
            let answer = try await inFlight.value
            #expect(answer.status == .accepted, "the request in flight was answered")
            let output = try await stopping.value
            let streamed = try await stream.value
            #expect(streamed.events.count >= 1, "the stream sent the snapshot, then ended")
            let runs = try await connection.query(
                "SELECT count(*) AS n FROM events WHERE message_id IN ('g1-run-1', 'g1-run-2')")[0].int("n")
            #expect(runs == 2, "both messages of the request in flight are stored")
            let rows = try await connection.query(
                """
                SELECT p.state, p.claimed_until IS NOT NULL AS claimed,
                       (SELECT outcome FROM delivery_attempts a WHERE a.message_id = p.id ORDER BY a.id DESC LIMIT 1) AS outcome
                FROM outbox p ORDER BY p.id
                """
            ).rows.map { (try $0.string("state"), try $0.bool("claimed"), try $0.text("outcome")) }
            await connection.close()
            return (output, rows)
        }
    }

    @Test("SIGTERM lets the push in flight finish, ends the streams and exits 0")
    func drains() async throws {
        let (output, rows) = try await shutDownWithPushInFlight(delay: "1500ms", drain: 20)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(rows.map(\.state) == ["sent"])
        #expect(rows.map(\.claimed) == [false])
        #expect(output.stderr.contains("stopped"))
    }

    @Test("SIGTERM releases a claimed push still in flight when the drain time is up, and exits 0")
    func releases() async throws {
        let (output, rows) = try await shutDownWithPushInFlight(delay: "60s", drain: 1)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(rows.map(\.state) == ["pending"])
        #expect(rows.map(\.claimed) == [false])
        #expect(rows.map(\.outcome) == ["released"])
        #expect(output.stderr.contains("push delivery did not drain in time; releasing what is in flight"))
    }
}
