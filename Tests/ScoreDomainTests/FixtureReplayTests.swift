import Foundation
import ScoreDomain
import Testing

/// Replays the authored fixture games from `fixtures/` at the repository root the way the event log
/// does: parse each line, skip an exact duplicate of an already seen message id, fold the rest.
@Suite("Fixture games replay")
struct FixtureReplayTests {
    /// `$SCOREFEED_FIXTURES` if set, else `fixtures/` three levels above this file (the repository root).
    static var fixturesDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["SCOREFEED_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures", isDirectory: true)
    }

    struct Expected: Sendable, CustomTestStringConvertible {
        var file: String
        var gameId: String
        var home: String
        var away: String
        var homeScore: Int
        var awayScore: Int
        var status: GameStatus
        var inning: String
        var outs: Int
        var version: Int
        var duplicates: Int
        var updatedAt: String
        var testDescription: String { file }
    }

    @Test(arguments: [
        Expected(
            file: "plain-nine.jsonl", gameId: "2026-04-01-NYY-BOS", home: "BOS", away: "NYY", homeScore: 7,
            awayScore: 3, status: .closed, inning: "Top 9th", outs: 3, version: 76, duplicates: 1,
            updatedAt: "2026-04-02T02:10:29Z"),
        Expected(
            file: "extra-innings-walkoff.jsonl", gameId: "2026-05-12-SEA-HOU", home: "HOU", away: "SEA", homeScore: 5,
            awayScore: 4, status: .closed, inning: "Bottom 11th", outs: 1, version: 93, duplicates: 0,
            updatedAt: "2026-05-13T03:54:33Z"),
        Expected(
            file: "delayed-postponed.jsonl", gameId: "2026-06-03-CHC-STL", home: "STL", away: "CHC", homeScore: 1,
            awayScore: 3, status: .postponed, inning: "Top 4th", outs: 2, version: 36, duplicates: 0,
            updatedAt: "2026-06-04T03:59:30Z"),
    ])
    func replay(_ expected: Expected) throws {
        let url = Self.fixturesDirectory.appendingPathComponent(expected.file)
        let data = try Data(contentsOf: url)
        var seen: [String: FeedMessage] = [:]
        var duplicates = 0
        var state: ScoreState?
        for (line, result) in FeedParser.parseLines(data) {
            let message = try result.get()
            #expect(try FeedParser.parse(message.canonicalJSON()) == message, "line \(line) does not round-trip")
            if let earlier = seen[message.id] {
                #expect(earlier == message, "line \(line) reuses id \(message.id) with different content")
                duplicates += 1
                continue
            }
            seen[message.id] = message
            do throws(FoldError) {
                state = try ScoreFold.apply(message, to: state)
            } catch {
                Issue.record("line \(line): \(error)")
                return
            }
        }
        let final = try #require(state)
        #expect(final.gameId == expected.gameId)
        #expect(final.home.code == expected.home)
        #expect(final.away.code == expected.away)
        #expect(final.homeScore == expected.homeScore)
        #expect(final.awayScore == expected.awayScore)
        #expect(final.status == expected.status)
        #expect(final.inning == expected.inning)
        #expect(final.outs == expected.outs)
        #expect(final.version == expected.version)
        #expect(duplicates == expected.duplicates)
        #expect(rfc3339(final.updatedAt) == expected.updatedAt)
    }
}
