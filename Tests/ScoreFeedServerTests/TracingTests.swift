import ChildProcess
import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("scorefeed serve: traces over OTLP/HTTP", .serialized)
struct TracingTests {
    /// The webhook's caller: its trace and span (a W3C `traceparent`, sampled).
    static let traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpanId = "00f067aa0ba902b7"

    @Test("one trace: the webhook request, its append, the projection page, the planning and the delivered batch")
    func oneTrace() async throws {
        let receiver = try await OTLPReceiver.start()
        let (apns, settings) = try await apnsSandbox()
        defer { Task { try? await apns.stop() } }
        try await TestDatabase.withSchema { url in
            let (serve, server) = try await Self.tracedServe(url: url, apns: settings, exportingTo: receiver)
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            // Projected before the activity comes, so the start's page plans it (not a catching up).
            _ = try await server.waitForGame("g1", version: 1)
            let register = try await server.request(
                .POST, "/v1/games/g1/activities",
                body: #"{"pushToken":"\#(String(repeating: "cd", count: 32))","bundleId":"com.example.scores"}"#,
                headers: [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")])
            #expect(register.status == 201, "\(register.body)")
            let start = try await server.request(
                .POST, "/v1/feed", body: "[\(started("g1"))]",
                headers: [
                    ("Authorization", "Bearer \(ingestKey)"), ("Content-Type", "application/json"),
                    ("traceparent", "00-\(Self.traceId)-\(Self.callerSpanId)-01"), ("tracestate", "vendor=1"),
                ])
            #expect(start.status == 202, "\(start.body)")
            var sent = 0
            for _ in 0..<200 where sent == 0 {
                let reply = try await server.request(.GET, "/v1/games/g1/pushes")
                sent = (reply.object["counts"] as? [String: Any])?["sent"] as? Int ?? 0
                if sent == 0 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(sent == 1, "the start was not delivered")
            // The stored contexts: the event of the traced request, and the push planned from it.
            let connection = try await PostgresConnection.connect(url)
            let stored = try await connection.query(
                "SELECT trace_parent FROM events WHERE message_id = 'g1-start'")[0].text("trace_parent")
            let untraced = try await connection.query(
                "SELECT trace_parent FROM events WHERE message_id = 'g1-s'")[0].text("trace_parent")
            #expect(stored?.hasPrefix("00-\(Self.traceId)-") == true, "\(stored ?? "nil")")
            #expect(untraced?.hasPrefix("00-\(Self.traceId)-") != true, "another request, another trace")
            let output = try await serve.stop()
            #expect(output.status == 0, "\(output.stderr)")
            // Shutdown flushes: every span ended is exported before the process exits.
            let spans = receiver.spans().filter { $0.traceId == Self.traceId }
            await receiver.stop()
            func one(_ name: String) -> OTLPReceiver.Span? {
                let found = spans.filter { $0.name == name }
                #expect(found.count == 1, "\(name): \(found) of \(spans.map(\.name))")
                return found.first
            }
            let request = one("POST /v1/feed")
            let append = one("append")
            let page = one("projection page")
            let plan = one("plan pushes")
            let batch = one("deliver APNs batch")
            #expect(request?.parentSpanId == Self.callerSpanId)
            #expect(request?.attributes["http.response.status_code"] == "202")
            #expect(append?.parentSpanId == request?.spanId)
            #expect(stored == "00-\(Self.traceId)-\(append?.spanId ?? "")-01", "the event keeps the append's context")
            #expect(page?.parentSpanId == append?.spanId)
            #expect(page?.attributes["scorefeed.events"] == "1")
            #expect(plan?.parentSpanId == page?.spanId)
            #expect(plan?.attributes["scorefeed.pushes"] == "1")
            #expect(batch?.parentSpanId == plan?.spanId)
            #expect(batch?.attributes["scorefeed.push.count"] == "1")
            #expect(batch?.attributes["scorefeed.push.kind"] == "update")
            #expect(batch?.attributes["scorefeed.push.outcomes"] == "sent=1")
            #expect(batch?.attributes["scorefeed.push.statuses"] == "200=1")
        }
    }

    @Test("without OTEL_EXPORTER_OTLP_ENDPOINT nothing is traced: no context stored, nothing exported")
    func offByDefault() async throws {
        let receiver = try await OTLPReceiver.start()
        try await TestDatabase.withSchema { url in
            let env = [
                "SCOREFEED_DATABASE_URL": url, "SCOREFEED_INGEST_KEYS": ingestKey,
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "", "OTEL_EXPORTER_OTLP_ENDPOINT": "",
                // Read only when an endpoint is set: here they change nothing.
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_SERVICE_NAME": "unused",
            ]
            let serve = try await ServeProcess(["serve"], environment: env)
            let server = RunningServer(base: "http://127.0.0.1:\(serve.port)", databaseURL: url, server: nil)
            let reply = try await server.request(
                .POST, "/v1/feed", body: "[\(scheduled("g1"))]",
                headers: [
                    ("Authorization", "Bearer \(ingestKey)"), ("Content-Type", "application/json"),
                    ("traceparent", "00-\(Self.traceId)-\(Self.callerSpanId)-01"),
                ])
            #expect(reply.status == 202)
            let connection = try await PostgresConnection.connect(url)
            let stored = try await connection.query("SELECT trace_parent FROM events")[0].text("trace_parent")
            #expect(stored == nil)
            let output = try await serve.stop()
            #expect(output.status == 0, "\(output.stderr)")
            #expect(!output.stderr.contains("tracing on"), "\(output.stderr)")
        }
        #expect(receiver.spans().isEmpty && receiver.requests() == 0)
        await receiver.stop()
    }

    @Test("an OTLP protocol this build cannot export with is refused, naming the variable")
    func grpcRefused() async throws {
        var env = ProcessInfo.processInfo.environment
        env["SCOREFEED_DATABASE_URL"] = "postgresql://unused"
        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://127.0.0.1:9"
        env["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] = "grpc"
        let run = try await ChildProcess.run(
            [try scorefeedExecutable().path, "serve", "--port", "0"], environment: env)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.contains("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be one of http/protobuf, http/json"),
            "\(run.stderr)")
    }

    /// `scorefeed serve` on the schema `url`, delivering to the local APNs server `apns` describes,
    /// exporting its spans (OTLP/HTTP, JSON, batches every 100 ms) to `receiver`.
    static func tracedServe(
        url: String, apns: [String: String], exportingTo receiver: OTLPReceiver, extra: [String: String] = [:]
    ) async throws -> (ServeProcess, RunningServer) {
        var env = apns.merging(extra) { $1 }
        env["SCOREFEED_DATABASE_URL"] = url
        env["SCOREFEED_INGEST_KEYS"] = ingestKey
        env["SCOREFEED_APP_KEYS"] = appKey
        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://127.0.0.1:\(receiver.port)"
        env["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/json"
        env["OTEL_BSP_SCHEDULE_DELAY"] = "100"
        let serve = try await ServeProcess(["serve"], environment: env)
        return (serve, RunningServer(base: "http://127.0.0.1:\(serve.port)", databaseURL: url, server: nil))
    }

    /// A local APNs server (`scorefeed apns-sandbox`) and the settings to reach it.
    func apnsSandbox() async throws -> (ServeProcess, [String: String]) {
        let process = try await ServeProcess(["apns-sandbox"], environment: [:])
        var env: [String: String] = [:]
        for line in try String(contentsOfFile: "\(process.folder)/env", encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { env[parts[0]] = parts[1] }
        }
        return (process, env)
    }
}
