import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

private func v3Document(_ file: String) throws -> JSONValue {
    try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-stats-v3/\(file)"))))
}

private func v3Fold(_ messages: [FeedMessage]) throws -> [ScoreState] {
    var states: [ScoreState] = []
    var state: ScoreState?
    for message in messages {
        state = try ScoreFold.apply(message, to: state)
        states.append(state!)
    }
    return states
}

private func v3Failure(_ documents: [JSONValue]) -> ConvertError? {
    do {
        _ = try NBAStatsV3.convert(documents)
        return nil
    } catch { return error }
}

@Suite("nba-stats-v3: NBA stats playbyplayv3 with boxscoresummaryv2")
struct NBAStatsV3Tests {
    static let pbpFile = "playbyplayv3_0022200552.json"
    static let summaryFile = "boxscoresummaryv2_0022200552.json"

    @Test("a real overtime game (CHI at CLE, 2023-01-02, 145-134 OT) folds to the summary's line score")
    func realOvertimeGame() throws {
        let messages = try NBAStatsV3.convert([try v3Document(Self.pbpFile), try v3Document(Self.summaryFile)])
        let states = try v3Fold(messages)
        let final = try #require(states.last)
        #expect(final.gameId == "nba-0022200552")
        #expect(final.status == .closed)
        #expect(final.home == Team(code: "CLE", name: "Cleveland Cavaliers", logo: ""))
        #expect(final.away == Team(code: "CHI", name: "Chicago Bulls", logo: ""))
        #expect(final.homeScore == 145 && final.awayScore == 134)
        // boxscoresummaryv2's LineScore: PTS_QTR1-4 and PTS_OT1.
        #expect(final.periods.map(\.label) == ["Q1", "Q2", "Q3", "Q4", "OT"])
        #expect(final.periods.map(\.home) == [27, 20, 44, 39, 15])
        #expect(final.periods.map(\.away) == [34, 31, 31, 34, 4])
        #expect(messages.contains { $0.event == .periodStarted(period: 5, kind: .overtime) })
        // boxscoretraditionalv3 of the game (nba_api's cassette): made field goals, threes, free throws
        // per team, and D. Mitchell's 71 points.
        let scoring = final.scoring.elements
        func made(_ kinds: [ScoringKind], _ side: Side) -> Int {
            scoring.filter { kinds.contains($0.kind) && $0.side == side }.count
        }
        #expect(made([.two, .three], .home) == 48 && made([.two, .three], .away) == 47)
        #expect(made([.three], .home) == 16 && made([.three], .away) == 10)
        #expect(made([.freeThrow], .home) == 33 && made([.freeThrow], .away) == 30)
        #expect(scoring.filter { $0.player == "D. Mitchell" }.reduce(0) { $0 + $1.points } == 71)
        #expect(scoring.filter { $0.player == "D. DeRozan" }.reduce(0) { $0 + $1.points } == 44)
        #expect(!messages.contains { if case .scoreCorrected = $0.event { true } else { false } })
    }

    @Test("every running score the play-by-play states is the fold's after that action")
    func runningScores() throws {
        let pbp = try v3Document(Self.pbpFile)
        let messages = try NBAStatsV3.convert([pbp, try v3Document(Self.summaryFile)])
        let states = try v3Fold(messages)
        var after: [Int: ScoreState] = [:]
        for (message, state) in zip(messages, states) {
            let parts = message.id.split(separator: "-")
            if parts.count >= 5, let number = Int(parts[4]) { after[number] = state }
        }
        guard case .object(let root) = pbp, case .object(let game) = root["game"],
            case .array(let actions) = game["actions"]
        else { throw ConvertError(format: "test", reason: "fixture") }
        var checked = 0
        for case .object(let action) in actions {
            guard case .string(let home) = action["scoreHome"], case .string(let away) = action["scoreAway"],
                !home.isEmpty,
                case .int(let number) = action["actionNumber"]
            else { continue }
            let state = try #require(after[number], "action \(number)")
            #expect("\(state.homeScore)-\(state.awayScore)" == "\(home)-\(away)", "action \(number)")
            checked += 1
        }
        #expect(checked > 150)
    }

    @Test("times are derived: period starts at the wall time stated, plays at the start plus the elapsed time")
    func derivedTimes() throws {
        let messages = try NBAStatsV3.convert([try v3Document(Self.pbpFile), try v3Document(Self.summaryFile)])
        // "Start of 1st Period (7:11 PM EST)" on 2023-01-02: 00:11 UTC the next day.
        let started = try #require(messages.first { $0.event == .gameStarted })
        #expect(started.at == parseRFC3339("2023-01-03T00:11:00Z"))
        #expect(messages.first?.id == "nba-stats-v3-0022200552-scheduled")
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(messages.last?.event == .gameEnded(.closed))
        #expect(Set(messages.map(\.id)).count == messages.count)
        #expect(try NBAStatsV3.convert([try v3Document(Self.summaryFile), try v3Document(Self.pbpFile)]) == messages)
    }

    @Test("detect, and errors naming the format and the field")
    func detectAndErrors() throws {
        let pbp = try v3Document(Self.pbpFile)
        let summary = try v3Document(Self.summaryFile)
        #expect(NBAStatsV3.detect(pbp) && NBAStatsV3.detect(summary))
        #expect(!NBALive.detect(pbp))
        #expect(
            !NBAStatsV3.detect(
                try JSONValue.parse(
                    Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/playbyplay_0022000180.json"))))))
        #expect(v3Failure([pbp])?.field == "resultSets")
        #expect(v3Failure([summary])?.field == "game.actions")
        guard case .object(var root) = pbp, case .object(var game) = root["game"],
            case .array(var actions) = game["actions"],
            case .object(var action) = actions[0]
        else { throw ConvertError(format: "test", reason: "fixture") }
        action["clock"] = .string("12:00")
        actions[0] = .object(action)
        game["actions"] = .array(actions)
        root["game"] = .object(game)
        let failure = v3Failure([.object(root), summary])
        #expect(failure?.format == "nba-stats-v3")
        #expect(failure?.field == "game.actions[0].clock")
    }
}
