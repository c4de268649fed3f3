import Foundation
import ScoreDomain
import ScoreFeedTesting
import Testing

/// `scorefeed convert` and `replay --format` with a provider's documents (issue 27).
@Suite("convert: a provider's documents to canonical lines, and replay --format")
struct ConvertCLITests {
    @Test("convert detects the format, writes lines the feed parser reads, the same twice; replay stores the game")
    func convertAndReplay() async throws {
        let document = fixture("providers/nhl-web/2024020003.json")
        let cli = CLI(databaseURL: nil)
        let first = try await cli.run("convert", document)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count > 10)
        let messages = try lines.map { try FeedParser.parse($0) }
        #expect(messages.allSatisfy { $0.gameId == "nhl-2024020003" })
        let named = try await cli.run("convert", "--format", "nhl-web", document)
        #expect(named.stdout == first.stdout, "converting again gives the same messages")

        try await TestDatabase.withSchema { url in
            let stored = CLI(databaseURL: url)
            let replay = try await stored.run("replay", "--format", "nhl-web", document)
            #expect(replay.status == 0, "\(replay.stderr)")
            let game = try await stored.run("game", "nhl-2024020003", "--json")
            let object = try JSONSerialization.jsonObject(with: Data(game.stdout.utf8)) as! [String: Any]
            #expect(object["sport"] as? String == "hockey")
            #expect(object["status"] as? String == "closed")
        }
    }

    @Test("an unknown or unreadable document exits non-zero naming the format, and writes nothing to stdout")
    func refusals() async throws {
        let cli = CLI(databaseURL: nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let unknown = folder.appendingPathComponent("unknown.json")
        try Data(#"{"hello":"world"}"#.utf8).write(to: unknown)
        let auto = try await cli.run("convert", unknown.path)
        #expect(auto.status != 0)
        #expect(auto.stdout.isEmpty)
        #expect(auto.stderr.contains("auto: the document is of no known format"))
        let named = try await cli.run("convert", "--format", "nhl-web", unknown.path)
        #expect(named.status != 0)
        #expect(named.stdout.isEmpty)
        #expect(named.stderr.contains("nhl-web"))
        let badFormat = try await cli.run("convert", "--format", "espn", unknown.path)
        #expect(badFormat.status != 0)
        #expect(badFormat.stderr.contains("unknown format \"espn\""))
    }

    @Test("Retrosheet event files and MLB live feed documents join the same command")
    func baseballFormats() async throws {
        let cli = CLI(databaseURL: nil)
        let retrosheet = try await cli.run("convert", "--format", "retrosheet", fixture("retrosheet/2019/2019ANA.EVA"))
        #expect(retrosheet.status == 0, "\(retrosheet.stderr)")
        let games = Set(try retrosheet.stdout.split(separator: "\n").map { try FeedParser.parse($0).gameId })
        #expect(games.count == 81, "every home game of the 2019 Angels")
        let folder = repositoryRoot.appendingPathComponent("fixtures/mlb/full-game")
        let documents = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".json")
        }
        .sorted().map { folder.appendingPathComponent($0).path }
        let mlb = try await cli.run(["convert", "--format", "mlb-feed"] + documents)
        #expect(mlb.status == 0, "\(mlb.stderr)")
        let messages = try mlb.stdout.split(separator: "\n").map { try FeedParser.parse($0) }
        #expect(messages.first?.event.type == "game.scheduled")
        #expect(messages.last?.event.type == "game.ended")
    }
}
