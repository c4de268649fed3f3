import Foundation
import ScoreFeedTesting
import Testing

extension TracingTests {
    /// The second caller: a request whose update waits in the channel's interval.
    static let laterTraceId = "5c0a1e2b3d4f5a6b7c8d9e0f1a2b3c4d"

    @Test("every route continues the request's trace: a broadcast, a push-to-start, and a tick's coalesced broadcast")
    func everyRoute() async throws {
        let receiver = try await OTLPReceiver.start()
        let (apns, settings) = try await apnsSandbox()
        defer { Task { try? await apns.stop() } }
        try await TestDatabase.withSchema { url in
            let (serve, server) = try await Self.tracedServe(
                url: url, apns: settings, exportingTo: receiver, extra: ["SCOREFEED_CHANNEL_INTERVAL_SECONDS": "5"])
            let keyed = [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")]
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            _ = try await server.waitForGame("g1", version: 1)
            let channel = try await server.request(.GET, "/v1/games/g1/channel", headers: keyed)
            #expect(channel.status == 200, "\(channel.body)")
            let device = try await server.request(
                .POST, "/v1/devices",
                body:
                    #"{"startToken":"\#(String(repeating: "9a", count: 32))","follow":["BOS"],"bundleId":"com.example.scores"}"#,
                headers: keyed)
            #expect(device.status == 201, "\(device.body)")
            // The start (trace 1) broadcasts at once and starts the device; the run (trace 2) comes inside
            // the channel's interval, so the scheduler's tick broadcasts it when the interval closes.
            for (message, traceId) in [(started("g1"), Self.traceId), (run("g1", 1), Self.laterTraceId)] {
                let reply = try await server.request(
                    .POST, "/v1/feed", body: "[\(message)]",
                    headers: [
                        ("Authorization", "Bearer \(ingestKey)"), ("Content-Type", "application/json"),
                        ("traceparent", "00-\(traceId)-\(Self.callerSpanId)-01"),
                    ])
                #expect(reply.status == 202, "\(reply.body)")
            }
            func batches(_ traceId: String, route: String) -> [OTLPReceiver.Span] {
                receiver.spans().filter {
                    $0.traceId == traceId && $0.name == "deliver APNs batch"
                        && $0.attributes["scorefeed.push.route"] == route
                }
            }
            for _ in 0..<600 where batches(Self.laterTraceId, route: "channel").isEmpty {
                try await Task.sleep(for: .milliseconds(50))
            }
            let output = try await serve.stop()
            #expect(output.status == 0, "\(output.stderr)")
            let spans = receiver.spans()
            await receiver.stop()
            func parent(of span: OTLPReceiver.Span?) -> OTLPReceiver.Span? {
                spans.first { $0.traceId == span?.traceId && $0.spanId == span?.parentSpanId }
            }
            // Trace 1: request → append → page → planning → one batch per route.
            for route in ["channel", "start"] {
                let batch = batches(Self.traceId, route: route).first
                #expect(batch?.attributes["scorefeed.push.outcomes"] == "sent=1", "\(route): \(spans)")
                #expect(batch?.attributes["scorefeed.push.kind"] == (route == "start" ? "start" : "update"))
                let plan = parent(of: batch)
                #expect(plan?.name == "plan pushes", "\(route): \(String(describing: plan))")
                #expect(parent(of: plan)?.name == "projection page")
                #expect(parent(of: parent(of: plan))?.name == "append")
            }
            // Trace 2: the tick's planning is the child of the run's append, and its batch of the planning.
            let tick = parent(of: batches(Self.laterTraceId, route: "channel").first)
            #expect(tick?.name == "plan pushes", "\(spans)")
            #expect(tick?.attributes["scorefeed.scheduled"] == "true")
            #expect(parent(of: tick)?.name == "append")
            #expect(parent(of: parent(of: tick))?.parentSpanId == Self.callerSpanId)
        }
    }
}
