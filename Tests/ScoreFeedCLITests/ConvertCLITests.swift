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

    @Test("a Sportmonks v2 list converts every fixture in order; a bad one names the format and field, writes nothing")
    func sportmonksV2List() async throws {
        let cli = CLI(databaseURL: nil)
        let list = fixture("providers/sportmonks-v2/livescores-2019-12-26-excerpt.json")
        let converted = try await cli.run("convert", list)
        #expect(converted.status == 0, "\(converted.stderr)")
        let games = try converted.stdout.split(separator: "\n").map { try FeedParser.parse($0).gameId }
        #expect(games.first == "sportmonks-11879658" && games.last == "sportmonks-11879660")
        #expect(games.firstIndex(of: "sportmonks-11879660")! == games.lastIndex(of: "sportmonks-11879658")! + 1)
        let text = try String(contentsOfFile: list, encoding: .utf8)
        let bad = text.replacingOccurrences(of: #""team_id": "66""#, with: #""team_id": "x66""#)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.json")
        try Data(bad.utf8).write(to: file)
        let refused = try await cli.run("convert", file.path)
        #expect(refused.status != 0)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains(#"sportmonks-v2: field "data[1].events.data[0].team_id": a team id expected"#))
    }

    @Test("replay --format sportmonks-v2 stores every game of a list")
    func replaySportmonksV2List() async throws {
        let list = fixture("providers/sportmonks-v2/fixtures-date-2018-02-16-excerpt.json")
        try await TestDatabase.withSchema { url in
            let stored = CLI(databaseURL: url)
            let replay = try await stored.run("replay", "--format", "sportmonks-v2", list)
            #expect(replay.status == 0, "\(replay.stderr)")
            for (game, score) in [("1685506", (1, 1)), ("1726420", (4, 0)), ("4194199", (3, 0))] {
                let shown = try await stored.run("game", "sportmonks-\(game)", "--json")
                let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as! [String: Any]
                #expect(object["status"] as? String == "closed")
                #expect(object["homeScore"] as? Int == score.0 && object["awayScore"] as? Int == score.1)
            }
        }
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
