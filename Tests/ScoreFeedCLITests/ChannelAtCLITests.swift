import Foundation
import ScoreFeedTesting
import Testing

@Suite("channel get --at: a replayed past game broadcasts to its channel")
struct ChannelAtCLITests {
    @Test("a channel registered 15 minutes before a past first pitch gets the fixture's golden broadcasts")
    func replayToChannel() async throws {
        let (server, settings) = try await ActivityCLITests.startSandbox("apns-sandbox")
        defer { server.terminate() }
        let dir = try #require(settings["dir"])
        let game = "2026-06-03-CHC-STL"
        try await TestDatabase.withSchema { url in
            var cli = CLI(databaseURL: url)
            for (name, value) in settings where name.hasPrefix("SCOREFEED_") { cli.environment[name] = value }
            // The schedule first: a channel is only made for a game ScoreFeed knows.
            let lines = try String(contentsOfFile: fixture("delayed-postponed.jsonl"), encoding: .utf8)
                .split(separator: "\n")
            let schedule = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-\(UUID()).jsonl")
            try "\(lines[0])\n".write(to: schedule, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: schedule) }
            #expect(try await cli.run("replay", schedule.path, "--out", "/dev/null").status == 0)
            for (at, message) in [("yesterday", "--at must be"), ("1849-12-31T23:59:59Z", "1850-01-01")] {
                let bad = try await cli.run("channel", "get", game, "--at", at)
                #expect(bad.status != 0 && bad.stderr.contains(message), "\(bad.stderr)")
            }
            #expect(try await cli.run("channel", "list", "--json").stdout == "[]\n", "a refused --at stores nothing")
            // 15 minutes before the first pitch (2026-06-04T00:15:00Z), as the golden stream was made.
            let channel = try await cli.run("channel", "get", game, "--at", "2026-06-04T00:00:00Z")
            #expect(channel.status == 0, "\(channel.stderr)")
            let replay = try await cli.run(
                "replay", fixture("delayed-postponed.jsonl"), "--out", "/dev/null", "--deliver")
            #expect(replay.status == 0, "\(replay.stderr)")
            let golden = try String(contentsOfFile: fixture("delayed-postponed.broadcasts.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            #expect(
                replay.stderr.contains("delivered \(golden.count) broadcast(s); 0 retried, 0 failed"),
                "\(replay.stderr)")
            // The local APNs server received them: the golden stream's priorities and timestamps, in order.
            let log = try String(contentsOfFile: "\(dir)/deliveries.jsonl", encoding: .utf8).split(separator: "\n")
                .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
                .filter { ($0["path"] as? String)?.hasPrefix("/4/broadcasts/apps/") == true }
            func stamp(_ line: [String: Any]) -> Int? {
                let payload = try? JSONSerialization.jsonObject(with: Data(((line["payload"] as? String) ?? "").utf8))
                return ((payload as? [String: Any])?["aps"] as? [String: Any])?["timestamp"] as? Int
            }
            #expect(log.compactMap(stamp) == golden.compactMap { $0["timestamp"] as? Int })
            #expect(log.compactMap { $0["priority"] as? Int } == golden.compactMap { $0["priority"] as? Int })
        }
    }
}
