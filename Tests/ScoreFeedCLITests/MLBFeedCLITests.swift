import Foundation
import MLBFeedTesting
import ScoreFeedTesting
import Testing

@Suite("scorefeed replay --format mlb-feed and follow mlb", .timeLimit(.minutes(3)))
struct MLBFeedCLITests {
    @Test("replaying the full game's documents ends NYY 3 – 5 BOS, closed; a second replay adds nothing")
    func replay() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let first = try await cli.run("replay", "--format", "mlb-feed", fixture("mlb/full-game"))
            #expect(first.status == 0, "\(first.stderr)")
            // What an activity registered before the game receives, on the documents' own clock.
            let pushes = try pushLines(first.stdout)
            #expect(pushes.count == 16)
            #expect(pushes.allSatisfy { $0["gameId"] as? String == "mlb-746001" })
            #expect(pushes.last?["event"] as? String == "end")
            #expect(first.stdout.split(separator: "\n").last?.contains(#""awayScore":3,"#) == true)
            #expect(first.stdout.split(separator: "\n").last?.contains(#""homeScore":5,"#) == true)
            let timestamps = pushes.compactMap { $0["timestamp"] as? Int }
            #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
            #expect(first.stderr.contains("13 document(s) of 1 game(s): 13 applied"))
            #expect(first.stderr.contains("27 accepted"))
            let game = try await cli.run("game", "mlb-746001", "--json")
            let object = try JSONSerialization.jsonObject(with: Data(game.stdout.utf8)) as! [String: Any]
            #expect(object["awayScore"] as? Int == 3)
            #expect(object["homeScore"] as? Int == 5)
            #expect(object["status"] as? String == "closed")
            #expect(object["inning"] as? String == "Top 9th")
            let second = try await cli.run("replay", "--format", "mlb-feed", fixture("mlb/full-game"))
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.isEmpty)
            #expect(second.stderr.contains("11 older than the newest applied (ignored)"))
            #expect(second.stderr.contains("0 accepted"))
        }
    }

    @Test("a bad document stops the replay before anything is stored, naming the file and the field")
    func badDocument() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mlb-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fixture("mlb/full-game/01-scheduled.json"), toPath: folder.appendingPathComponent("01.json").path)
        let broken = try String(contentsOfFile: fixture("mlb/full-game/04-top-1st.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"outs\":0", with: "\"outs\":\"none\"")
        try broken.write(to: folder.appendingPathComponent("02.json"), atomically: true, encoding: .utf8)
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let run = try await cli.run("replay", "--format", "mlb-feed", folder.path)
            #expect(run.status != 0)
            #expect(run.stderr.contains("02.json: field \"liveData.linescore.outs\""), "\(run.stderr)")
            let games = try await cli.run("games", "--json")
            #expect(games.stdout == "[]\n")
        }
    }

    @Test("follow mlb follows a local provider to the end; a second follow finds the game over")
    func follow() async throws {
        let server = try await MLBFeedServer.start(
            gamePk: 746001, documents: try MLBFeedServer.documents(inFolder: fixture("mlb/full-game")))
        server.inject(.pass, .status(500), .pass, .brokenPatch)
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let run = try await cli.run(
                "follow", "mlb", "746001", "--base-url", server.baseURL, "--interval", "0.01")
            #expect(run.status == 0, "\(run.stderr)")
            // On the wall clock the whole game passes in a burst: the first change goes out at once,
            // the rest coalesce, and the end goes out at once.
            let pushes = try pushLines(run.stdout)
            #expect(pushes.count >= 2)
            #expect(pushes.first?["event"] as? String == "update")
            #expect(pushes.last?["event"] as? String == "end")
            #expect(pushes.filter { $0["event"] as? String == "end" }.count == 1)
            #expect(run.stderr.contains("followed mlb-746001 until closed"), "\(run.stderr)")
            #expect(run.stderr.contains("1 refetch(es)"))
            #expect(run.stderr.contains("1 retried request(s)"))
            let game = try await cli.run("game", "mlb-746001")
            #expect(game.stdout.contains("NYY 3 – 5 BOS"), "\(game.stdout)")
            let again = try await cli.run("follow", "mlb", "746001", "--base-url", server.baseURL, "--interval", "0.01")
            #expect(again.status == 0)
            #expect(again.stdout.isEmpty)
        }
        await server.stop()
    }

    @Test("follow mlb refuses bad arguments and an unknown game with a non-zero exit")
    func badArguments() async throws {
        let server = try await MLBFeedServer.start(
            gamePk: 746001, documents: try MLBFeedServer.documents(inFolder: fixture("mlb/full-game")))
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let zero = try await cli.run("follow", "mlb", "0")
            #expect(zero.status != 0)
            #expect(zero.stderr.contains("GAMEPK must be a positive integer"))
            let url = try await cli.run("follow", "mlb", "746001", "--base-url", "ftp://example.com")
            #expect(url.status != 0)
            let interval = try await cli.run("follow", "mlb", "746001", "--interval", "-1")
            #expect(interval.status != 0)
            for (option, value) in [
                ("--interval", "1e16"), ("--timeout", "1e16"), ("--timeout", "0"), ("--interval", "nan"),
            ] {
                let run = try await cli.run("follow", "mlb", "746001", option, value)
                #expect(run.status == 64, "\(option) \(value): \(run.stderr)")
                #expect(run.stderr.contains("must be a number of seconds"), "\(run.stderr)")
            }
            let unknown = try await cli.run("follow", "mlb", "999", "--base-url", server.baseURL)
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("game 999 not found"), "\(unknown.stderr)")
        }
        await server.stop()
    }
}

/// The JSON lines `replay` and `follow` print, as objects.
func pushLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
}
