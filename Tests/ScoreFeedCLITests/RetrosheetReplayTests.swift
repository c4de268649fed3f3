import Foundation
import ScoreFeedTesting
import Testing

// The information used here was obtained free of charge from and is copyrighted by Retrosheet.
// Interested parties may contact Retrosheet at "www.retrosheet.org".

/// The project's `fixtures/retrosheet/2019` (or `SCOREFEED_RETROSHEET_DIR`).
let retrosheet2019: String = {
    if let dir = ProcessInfo.processInfo.environment["SCOREFEED_RETROSHEET_DIR"], !dir.isEmpty { return dir }
    return repositoryRoot.appendingPathComponent("fixtures/retrosheet/2019").path
}()

@Suite("replaying real games from Retrosheet")
struct RetrosheetReplayTests {
    /// The first `count` games of an event file, as text (records keep their line endings).
    private func games(_ file: String, count: Int) throws -> [String] {
        let text = try String(contentsOfFile: "\(retrosheet2019)/\(file)", encoding: .utf8)
        let parts = text.components(separatedBy: "\nid,")
        return parts.prefix(count).enumerated().map { index, part in
            (index == 0 ? part : "id," + part).trimmingCharacters(in: .newlines) + "\n"
        }
    }

    @Test("the whole 2019 season through the pipeline: 1,214 of 1,214 final scores as the official ones")
    func season() async throws {
        let expected = try String(contentsOfFile: "\(retrosheet2019)/expected_final_scores.csv", encoding: .utf8)
        var lines = expected.split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let header = lines.removeFirst().map(String.init)
        let (id, visitor, home) = (
            header.firstIndex(of: "game_id")!, header.firstIndex(of: "visitor_runs")!,
            header.firstIndex(of: "home_runs")!
        )
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let run = try await cli.run("replay", "--format", "retrosheet", retrosheet2019, "--out", "/dev/null")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("replayed 1214 game(s): 143366 events (143366 accepted, 0 duplicates)"))
            let games = try await cli.run("games", "--json", "--status", "closed")
            let states = try JSONSerialization.jsonObject(with: Data(games.stdout.utf8)) as! [[String: Any]]
            var finals: [String: (Int, Int)] = [:]
            for state in states {
                finals[state["gameId"] as! String] = (state["awayScore"] as! Int, state["homeScore"] as! Int)
            }
            var matched = 0
            for row in lines {
                guard let final = finals[String(row[id])] else { continue }
                if final.0 == Int(row[visitor]) && final.1 == Int(row[home]) { matched += 1 }
            }
            #expect(lines.count == 1214)
            #expect(matched == 1214)
            let again = try await cli.run("replay", "--format", "retrosheet", retrosheet2019, "--out", "/dev/null")
            #expect(again.stderr.contains("(0 accepted, 143366 duplicates), 0 pushes"))
        }
    }

    @Test("a game that breaks the spec: file, line and reason; the games before it stay; --keep-going skips it")
    func badGame() async throws {
        var three = try games("2019ANA.EVA", count: 3)
        three[1] = three[1].replacingOccurrences(of: "\nplay,", with: "\nbogus,record\nplay,", options: [], range: nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("retro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("2019ANA.EVA").path
        try three.joined().write(toFile: file, atomically: true, encoding: .utf8)
        let ids = three.map { String($0.prefix(15).dropFirst(3)) }
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let stop = try await cli.run("replay", "--format", "retrosheet", folder.path, "--out", "/dev/null")
            #expect(stop.status != 0)
            #expect(stop.stderr.contains("2019ANA.EVA line "))
            #expect(stop.stderr.contains("unknown record type \"bogus\""))
            let first = try await cli.run("games", "--json")
            let stored = (try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as! [[String: Any]])
                .map { $0["gameId"] as! String }
            #expect(stored == [ids[0]])

            let skip = try await cli.run(
                "replay", "--format", "retrosheet", "--keep-going", folder.path, "--out", "/dev/null")
            #expect(skip.status != 0)
            #expect(skip.stderr.contains("skipped: "))
            let after = try await cli.run("games", "--json")
            let all = (try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as! [[String: Any]])
                .map { $0["gameId"] as! String }
            #expect(Set(all) == [ids[0], ids[2]])
        }
    }

    @Test("team names come from the TEAMyyyy file beside the event files")
    func teamNames() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("retro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try games("2019TEX.EVA", count: 1).joined().write(
            toFile: folder.appendingPathComponent("2019TEX.EVA").path, atomically: true, encoding: .utf8)
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            _ = try await cli.run("replay", "--format", "retrosheet", folder.path, "--out", "/dev/null")
            let bare = try await cli.run("games", "--json")
            #expect(bare.stdout.contains(#""name":"TEX""#))
        }
        try FileManager.default.copyItem(
            atPath: "\(retrosheet2019)/TEAM2019", toPath: folder.appendingPathComponent("TEAM2019").path)
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            _ = try await cli.run("replay", "--format", "retrosheet", folder.path, "--out", "/dev/null")
            let named = try await cli.run("games", "--json")
            #expect(named.stdout.contains(#""name":"Texas Rangers""#))
        }
    }
}
