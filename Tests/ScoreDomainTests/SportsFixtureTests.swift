import Foundation
import ScoreDomain
import Testing

/// Folds every clock-sport fixture game of `fixtures/sports/` with ``ScoreFold`` and checks its final
/// against `fixtures/sports/expected.json` (the official figures): score, line score, shoot-out,
/// scoring entries and the last running score; and its final label against a literal.
@Suite("Clock-sport fixture games")
struct SportsFixtureTests {
    static var directory: URL {
        FixtureReplayTests.fixturesDirectory.appendingPathComponent("sports", isDirectory: true)
    }

    struct Game: Sendable, CustomTestStringConvertible {
        var name: String
        /// The final's ``ScoreState/summary``.
        var summary: String
        var testDescription: String { name }
    }

    static let games: [Game] = [
        Game(name: "knockout-shootout", summary: "closed Final/Pens 3-3 SO 3-5"),
        Game(name: "league-draw", summary: "closed Final 1-1"),
        Game(name: "league-win", summary: "closed Final 3-1"),
        Game(name: "nba-overtime", summary: "closed Final/OT 145-148"),
        Game(name: "ncaa-football-2ot", summary: "closed Final/2OT 27-30"),
        Game(name: "ncaa-men-halves", summary: "closed Final 80-76"),
        Game(name: "nfl-missed-xp", summary: "closed Final 22-14"),
        Game(name: "nfl-overtime", summary: "closed Final/OT 20-17"),
        Game(name: "nhl-playoff-2ot", summary: "closed Final/2OT 3-2"),
        Game(name: "nhl-regulation", summary: "closed Final 4-3"),
        Game(name: "nhl-shootout", summary: "closed Final/SO 3-2 SO 1-0"),
        Game(name: "wnba-regulation", summary: "closed Final 90-87"),
    ]

    /// expected.json, parsed.
    static func expected() throws -> JSONObject {
        let data = try Data(contentsOf: directory.appendingPathComponent("expected.json"))
        guard case .object(let games) = try JSONValue.parse(data) else { throw Failure("expected.json is no object") }
        return games
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test("every game file and every entry of expected.json is in the table")
    func everyFixture() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix(".jsonl") && $0.split(separator: ".").count == 2 }
            .map { String($0.dropLast(".jsonl".count)) }
        #expect(files.sorted() == Self.games.map(\.name))
        #expect(try Self.expected().keys.sorted() == Self.games.map(\.name))
    }

    @Test(arguments: games)
    func final(_ game: Game) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(game.name + ".jsonl"))
        var state: ScoreState?
        for (line, result) in FeedParser.parseLines(data) {
            let message = try result.get()
            #expect(try FeedParser.parse(message.canonicalJSON()) == message, "line \(line) does not round-trip")
            do throws(FoldError) {
                state = try ScoreFold.apply(message, to: state)
            } catch {
                Issue.record("line \(line): \(error)")
                return
            }
        }
        let final = try #require(state)
        #expect(final.summary == game.summary)
        #expect(try ScoreState(json: final.jsonValue) == final)

        guard case .object(let expected)? = try Self.expected()[game.name] else {
            Issue.record("no \(game.name) in expected.json")
            return
        }
        #expect(.string(final.sport.rawValue) == expected["sport"])
        #expect(.int(final.homeScore) == expected["homeScore"])
        #expect(.int(final.awayScore) == expected["awayScore"])
        #expect(.array(final.periods.map { .array([.int($0.home), .int($0.away)]) }) == expected["periods"])
        #expect(final.shootout.map { .object(["home": .int($0.home), "away": .int($0.away)]) } == expected["shootout"])
        #expect(.int(final.scoring.count) == expected["scoringPlays"])
        let last = try #require(final.scoring.newest)
        #expect(
            .object(["homeScore": .int(last.homeScore), "awayScore": .int(last.awayScore)]) == expected["lastScoring"])
        // The line score adds up to the in-play score.
        let inPlay = final.inPlayScore
        #expect(final.periods.reduce(0) { $0 + $1.home } == inPlay.home)
        #expect(final.periods.reduce(0) { $0 + $1.away } == inPlay.away)
    }
}
