import Foundation
import LiveActivity
import PostgresClient
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("replay: fixture games against their golden push streams")
struct ReplayTests {
    /// Baseball's fixture games, then the clock sports' (fixtures/sports): each with its golden pushes,
    /// broadcasts and Android messages beside it (`SCOREFEED_UPDATE_GOLDEN=1` rewrites them).
    static let fixtures = ["plain-nine", "extra-innings-walkoff", "delayed-postponed"] + sportsFixtures

    static let sportsFixtures = [
        "nba-overtime", "wnba-regulation", "ncaa-men-halves", "knockout-shootout", "league-draw", "league-win",
        "nhl-shootout", "nhl-regulation", "nhl-playoff-2ot", "nfl-missed-xp", "nfl-overtime", "ncaa-football-2ot",
    ].map { "sports/" + $0 }

    @Test(
        "replay prints exactly the golden pushes of an activity registered before the game; a second replay nothing",
        .serialized, arguments: fixtures)
    func golden(_ name: String) async throws {
        try await withStore { connection in
            let replayer = Replayer(ingestor: Ingestor(connection: connection))
            var lines: [String] = []
            let summary = try await replayer.replay(files: [fixture("\(name).jsonl")]) {
                lines.append($1.jsonLine(gameId: $0))
            }
            let produced = lines.map { $0 + "\n" }.joined()
            #expect(
                produced == (try audienceGolden(name)), "replay of \(name) differs from activity 0 of its golden pushes"
            )
            #expect(summary.pushes == lines.count)
            #expect(summary.accepted + summary.duplicates == summary.messages)

            let events = try await count("events", connection)
            var again: [String] = []
            let second = try await replayer.replay(files: [fixture("\(name).jsonl")]) {
                again.append($1.jsonLine(gameId: $0))
            }
            #expect(again.isEmpty)
            #expect(second.accepted == 0)
            #expect(second.duplicates == summary.messages)
            #expect(second.projectedEarlier == summary.messages)
            let value3 = try await count("events", connection)
            #expect(value3 == events)
        }
    }

    @Test(
        "after a run killed between storing and projecting, the next replay prints every push of what it stored",
        .serialized, arguments: fixtures)
    func afterKilledRun(_ name: String) async throws {
        try await withStore { connection in
            let messages = try FeedFile.read(fixture("\(name).jsonl"))
            // The killed run: the first 60% of the messages stored, of those only the first half projected,
            // printing the pushes of that half.
            let stored = messages.count * 6 / 10
            _ = try await Ingestor(connection: connection).ingest(messages.prefix(stored / 2).map(\.message))
            var audience: Audience? = Audience()
            try await Projector().catchUp(connection, audience: &audience)
            let earlier = audience!.take().map { $1.jsonLine(gameId: $0) }
            _ = try await Ingestor(connection: connection).ingest(messages[(stored / 2)..<stored].map(\.message))
            // The next run replays the whole file: it prints every push from where the killed run stopped
            // printing, as an audience that had followed the whole game would receive them.
            var lines: [String] = []
            let summary = try await Replayer(ingestor: Ingestor(connection: connection)).replay(messages: messages) {
                lines.append($1.jsonLine(gameId: $0))
            }
            #expect(summary.projectedEarlier == stored / 2)
            let golden = try audienceGolden(name).split(separator: "\n").map(String.init)
            #expect(earlier + lines == golden)
        }
    }

    @Test("the golden streams keep the APNs rules per activity: seconds, strictly increasing, one end, last")
    func goldenRules() throws {
        for name in Self.fixtures {
            let text = try String(contentsOfFile: fixture("\(name).pushes.jsonl"), encoding: .utf8)
            let pushes = try text.split(separator: "\n").map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            }
            for activity in 0..<activityTokens.count {
                let mine = pushes.filter { $0["activity"] as? Int == activity }
                let timestamps = mine.map { $0["timestamp"] as! Int }
                #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 }, "\(name)")
                #expect(timestamps.allSatisfy { $0 > 1_700_000_000 && $0 < 2_000_000_000 }, "\(name): UNIX seconds")
                #expect(mine.filter { $0["event"] as? String == "end" }.count == 1, "\(name)")
                #expect(mine.last?["event"] as? String == "end", "\(name)")
            }
        }
    }

    @Test("a bad line stops the replay before anything is stored and names the line and field")
    func badLine() async throws {
        let file = try temporaryFeed([
            try String(contentsOfFile: fixture("plain-nine.jsonl"), encoding: .utf8).split(separator: "\n")[0]
                .description,
            #"{"id":"x2","gameId":"2026-04-01-NYY-BOS","at":"2026-04-01T17:10:00Z","type":"run.scored","team":"home","runs":7}"#,
        ])
        try await withStore { connection in
            let error = await #expect(throws: FeedFileError.self) {
                try await replay(file, connection)
            }
            #expect(error?.line == 2)
            #expect(error?.description.contains("runs") == true)
            let value4 = try await count("events", connection)
            #expect(value4 == 0)
        }
    }

    @Test("a message the fold refuses stops the replay at its line; earlier messages stay, nothing after")
    func refusedLine() async throws {
        let lines = try String(contentsOfFile: fixture("delayed-postponed.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let gameId = try message(lines[0]).gameId
        let late =
            #"{"id":"late-run","gameId":"\#(gameId)","at":"2026-06-04T03:00:00Z","type":"run.scored","team":"home"}"#
        let after =
            #"{"id":"after","gameId":"\#(gameId)","at":"2026-06-04T03:01:00Z","type":"score.corrected","homeScore":0,"awayScore":0}"#
        let file = try temporaryFeed(lines + [late, after])
        try await withStore { connection in
            let error = await #expect(throws: ReplayError.self) {
                try await replay(file, connection)
            }
            #expect(error?.line == lines.count + 1)
            #expect(error?.description.contains("late-run") == true)
            let unique = Set(try lines.map { try message($0).id }).count
            let value5 = try await count("events", connection)
            #expect(value5 == unique)
            let stored = try await connection.withSession { try ScoreProjection.load(gameId, in: $0) }
            #expect(stored?.status == .postponed)
        }
    }

    private func temporaryFeed(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString).jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
