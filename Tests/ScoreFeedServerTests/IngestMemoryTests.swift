import Foundation
import ScoreFeedTesting
import Testing

/// The worst bodies a client can send within the limit (1 MB of one-byte bad messages) cost the
/// server a bounded, short-lived amount of memory, also when eight arrive at once.
@Suite("POST /v1/feed: memory under worst-case bodies")
struct IngestMemoryTests {
    @Test("8 concurrent 1 MB bodies of bad messages, three rounds: small answers, memory stays flat")
    func flatMemory() async throws {
        try await TestDatabase.withSchema { url in
            let serve = try await ServeProcess(
                ["serve"], environment: ["SCOREFEED_DATABASE_URL": url, "SCOREFEED_INGEST_KEYS": ingestKey])
            let server = RunningServer(base: "http://127.0.0.1:\(serve.port)", databaseURL: url, server: nil)
            #expect(try await server.ingest(scheduled("g1")).status == 202)
            let before = try serve.memory()
            let bodies = [
                (String(repeating: "1\n", count: 500_000), "application/x-ndjson"),
                ("[" + String(repeating: "1,", count: 499_999) + "1]", "application/json"),
            ]
            var peaks: [Int] = []
            for round in 0..<3 {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for client in 0..<8 {
                        let (body, type) = bodies[(client + round) % bodies.count]
                        group.addTask {
                            let reply = try await server.ingest(body, type: type)
                            #expect(reply.status == 400)
                            return reply.body.utf8.count
                        }
                    }
                    for try await size in group { #expect(size < 8_192) }
                }
                peaks.append(try serve.memory().peak)
            }
            let after = try serve.memory()
            let growth = (peak: after.peak - before.rss, rss: after.rss - before.rss)
            print("ingest memory (kB): before \(before.rss), peaks \(peaks), after \(after.rss)")
            // Eight 1 MB bodies in flight at once, each parsed into a transient tree: well under
            // 300 MB at the peak (it was 885 MB when every line became a detail of the answer),
            // and no growth from round to round.
            #expect(growth.peak < 300_000, "peak grew by \(growth.peak) kB")
            #expect(peaks.last! - peaks.first! < 50_000, "peaks \(peaks)")
            #expect(try await server.request(.GET, "/v1/games/g1").status == 200)
            try await serve.stop()
        }
    }
}
