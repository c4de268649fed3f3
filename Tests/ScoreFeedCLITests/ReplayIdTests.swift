import ChildProcess
import Foundation
import ScoreFeedTesting
import Testing

@Suite("scorefeed replay: an id means one message")
struct ReplayIdTests {
    /// A feed file in the temporary folder holding `lines`.
    private func file(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ids-\(UUID().uuidString).jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func scheduled(_ gameId: String, id: String) -> String {
        #"{"id":"\#(id)","gameId":"\#(gameId)","at":"2026-05-01T12:00:00Z","type":"game.scheduled","#
            + #""home":{"code":"BOS","name":"Boston","logo":""},"away":{"code":"NYY","name":"New York","logo":""},"#
            + #""startsAt":"2026-05-01T23:05:00Z"}"#
    }

    private func started(_ gameId: String, id: String) -> String {
        #"{"id":"\#(id)","gameId":"\#(gameId)","at":"2026-05-01T23:06:00Z","type":"game.started"}"#
    }

    @Test("an id the log holds for another game: a non-zero exit naming the file, line, id and stored game")
    func storedConflict() async throws {
        let first = try file([scheduled("g1", id: "m1"), started("g1", id: "m2")])
        let second = try file([scheduled("g2", id: "m1"), started("g2", id: "m3")])
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            #expect(try await cli.run("replay", first).status == 0)
            let run = try await cli.run("replay", second)
            #expect(run.status != 0)
            #expect(run.stderr.contains("\(second):1:"), "\(run.stderr)")
            #expect(run.stderr.contains(#"id-conflict: message id "m1""#), "\(run.stderr)")
            #expect(run.stderr.contains(#"(game "g1")"#), "\(run.stderr)")
            let games = try await cli.run("games", "--json")
            #expect(!games.stdout.contains("g2"))
            // The same file again is all duplicates.
            let again = try await cli.run("replay", first)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("0 accepted"), "\(again.stderr)")
        }
    }

    @Test("input holding one id twice with different content: refused before anything is stored")
    func inputConflict() async throws {
        let first = try file([scheduled("g1", id: "m1"), started("g1", id: "m2")])
        let second = try file([scheduled("g2", id: "n1"), started("g2", id: "m2")])
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let run = try await cli.run("replay", first, second)
            #expect(run.status != 0)
            #expect(run.stderr.contains("\(second):2:"), "\(run.stderr)")
            #expect(run.stderr.contains("also used at \(first):2"), "\(run.stderr)")
            let games = try await cli.run("games", "--json")
            #expect(games.stdout == "[]\n")
        }
    }
}

@Suite("scorefeed: times outside 1850-2200 are refused, never sent to the database")
struct CLITimeLimitTests {
    @Test("--at of year 0 with an extreme offset, or 9999 past the edge: a non-zero exit naming --at")
    func farAt() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let token = String(repeating: "a1", count: 32)
            for at in ["0000-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59", "1849-12-31T23:59:59Z"] {
                let run = try await cli.run(
                    "activity", "add", "g1", token, "--bundle-id", "com.example.scores", "--allow-unknown-game",
                    "--at", at)
                #expect(run.status != 0, "\(at)")
                #expect(run.stderr.contains("--at must be") && run.stderr.contains("1850-01-01"), "\(run.stderr)")
            }
        }
    }
}
