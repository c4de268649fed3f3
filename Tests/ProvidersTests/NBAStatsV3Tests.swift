import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

private func v3Path(_ file: String) -> String { fixture("providers/nba-stats-v3/\(file)") }

private func v3Document(_ file: String) throws -> JSONValue {
    try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: v3Path(file))))
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

/// A real game's documents and what is known of it beyond them.
struct NBAStatsV3Game: Sendable, CustomTestStringConvertible {
    var id: String
    var summaryFile: String
    var home: Team
    var away: Team
    var labels: [String]
    /// The first period's start: the time its description states, on the summary's day.
    var start: String
    /// Made field goals, threes and free throws per side (home, away) when the summary does not state
    /// them: boxscoretraditionalv3 of the game (nba_api's cassette, not copied).
    var made: (field: [Int], three: [Int], free: [Int])?

    var pbpFile: String { "playbyplayv3_\(id).json" }
    var testDescription: String { id }

    static let all = [
        NBAStatsV3Game(
            id: "0022200552", summaryFile: "boxscoresummaryv2_0022200552.json",
            home: Team(code: "CLE", name: "Cleveland Cavaliers", logo: ""),
            away: Team(code: "CHI", name: "Chicago Bulls", logo: ""), labels: ["Q1", "Q2", "Q3", "Q4", "OT"],
            start: "2023-01-03T00:11:00Z", made: ([48, 47], [16, 10], [33, 30])),
        NBAStatsV3Game(
            id: "0022400001", summaryFile: "leaguegamefinder_0022400001.json",
            home: Team(code: "BOS", name: "Boston Celtics", logo: ""),
            away: Team(code: "ATL", name: "Atlanta Hawks", logo: ""), labels: ["Q1", "Q2", "Q3", "Q4"],
            start: "2024-11-13T00:11:00Z", made: nil),
        NBAStatsV3Game(
            id: "0022400561", summaryFile: "boxscoresummaryv2_0022400561.json",
            home: Team(code: "PHI", name: "Philadelphia 76ers", logo: ""),
            away: Team(code: "NYK", name: "New York Knicks", logo: ""), labels: ["Q1", "Q2", "Q3", "Q4", "OT"],
            start: "2025-01-16T00:14:00Z", made: ([46, 46], [13, 16], [14, 17])),
    ]
}

/// The official figures of a game, read with Foundation's JSON reader (not the converter's).
struct NBAStatsV3Official {
    var final: [Int]
    /// Points per period, home and away: boxscoresummaryv2's `LineScore`, or else the differences of
    /// the running scores the play-by-play states at each period's end.
    var periods: [[Int]]
    /// Made field goals, threes and free throws, home and away: leaguegamefinder's `FGM`, `FG3M`, `FTM`.
    var made: (field: [Int], three: [Int], free: [Int])?

    init(_ game: NBAStatsV3Game) throws {
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: v3Path(game.summaryFile))))
                as? [String: Any])
        var rows: [String: [[String: Any]]] = [:]
        for set in try #require(summary["resultSets"] as? [[String: Any]]) {
            let headers = try #require(set["headers"] as? [String])
            let values = try #require(set["rowSet"] as? [[Any]])
            rows[try #require(set["name"] as? String)] = values.map {
                Dictionary(zip(headers, $0), uniquingKeysWith: { first, _ in first })
            }
        }
        func row(_ set: String, _ code: String) throws -> [String: Any] {
            try #require(rows[set]?.first { $0["TEAM_ABBREVIATION"] as? String == code })
        }
        let codes = [game.home.code, game.away.code]
        if rows["LineScore"] != nil {
            let lines = try codes.map { try row("LineScore", $0) }
            final = try lines.map { try #require($0["PTS"] as? Int) }
            let keys = ["PTS_QTR1", "PTS_QTR2", "PTS_QTR3", "PTS_QTR4"] + (1...10).map { "PTS_OT\($0)" }
            periods = try keys.prefix(game.labels.count).map { key in try lines.map { try #require($0[key] as? Int) } }
            made = nil
        } else {
            let lines = try codes.map { try row("LeagueGameFinderResults", $0) }
            final = try lines.map { try #require($0["PTS"] as? Int) }
            func stat(_ key: String) throws -> [Int] { try lines.map { try #require($0[key] as? Int) } }
            made = (try stat("FGM"), try stat("FG3M"), try stat("FTM"))
            // The line score: the running scores stated at each period's end.
            let pbp = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: v3Path(game.pbpFile))))
                    as? [String: Any])
            let actions = try #require((pbp["game"] as? [String: Any])?["actions"] as? [[String: Any]])
            var before = [0, 0]
            var periods: [[Int]] = []
            for action in actions
            where action["actionType"] as? String == "period" && action["subType"] as? String == "end" {
                let stated = [
                    Int(try #require(action["scoreHome"] as? String)) ?? -1,
                    Int(try #require(action["scoreAway"] as? String)) ?? -1,
                ]
                periods.append([stated[0] - before[0], stated[1] - before[1]])
                before = stated
            }
            self.periods = periods
            #expect(before == final)
        }
    }
}

@Suite("nba-stats-v3: NBA stats playbyplayv3 with boxscoresummaryv2 or leaguegamefinder")
struct NBAStatsV3Tests {
    static func convert(_ game: NBAStatsV3Game) throws -> [FeedMessage] {
        try NBAStatsV3.convert([try v3Document(game.pbpFile), try v3Document(game.summaryFile)])
    }

    @Test("a real game folds to its official final, line score and made shots", arguments: NBAStatsV3Game.all)
    func realGame(_ game: NBAStatsV3Game) throws {
        let official = try NBAStatsV3Official(game)
        let messages = try Self.convert(game)
        let final = try #require(try v3Fold(messages).last)
        #expect(final.gameId == "nba-\(game.id)")
        #expect(final.sport == .basketball && final.rules.competition == "nba")
        #expect(final.status == .closed)
        #expect(final.home == game.home && final.away == game.away)
        #expect([final.homeScore, final.awayScore] == official.final)
        #expect(final.periods.map(\.label) == game.labels)
        #expect(final.periods.map { [$0.home, $0.away] } == official.periods)
        // Made field goals, threes and free throws per team: the scoring list.
        let made = try #require(official.made ?? game.made)
        let scoring = final.scoring.elements
        func count(_ kinds: [ScoringKind]) -> [Int] {
            [Side.home, .away].map { side in scoring.filter { kinds.contains($0.kind) && $0.side == side }.count }
        }
        #expect(count([.two, .three]) == made.field)
        #expect(count([.three]) == made.three)
        #expect(count([.freeThrow]) == made.free)
        #expect(scoring.allSatisfy { $0.player != nil })
        #expect(scoring.reduce(0) { $0 + $1.points } == official.final.reduce(0, +))
        #expect(!messages.contains { if case .scoreCorrected = $0.event { true } else { false } })
    }

    @Test("the overtime game: its fifth period, D. Mitchell's 71 and D. DeRozan's 44 points")
    func overtimeGame() throws {
        let messages = try Self.convert(NBAStatsV3Game.all[0])
        #expect(messages.contains { $0.event == .periodStarted(period: 5, kind: .overtime) })
        let scoring = try #require(try v3Fold(messages).last).scoring.elements
        // boxscoretraditionalv3 of the game (nba_api's cassette).
        #expect(scoring.filter { $0.player == "D. Mitchell" }.reduce(0) { $0 + $1.points } == 71)
        #expect(scoring.filter { $0.player == "D. DeRozan" }.reduce(0) { $0 + $1.points } == 44)
    }

    @Test("the same game from playbyplayv3 and from the live play-by-play: the same scoring list")
    func sameAsLive() throws {
        let v3 = try #require(try v3Fold(try Self.convert(NBAStatsV3Game.all[2])).last)
        let live = try #require(
            try v3Fold(
                try NBALive.convert([
                    try JSONValue.parse(
                        Data(
                            contentsOf: URL(
                                fileURLWithPath: fixture("providers/nba-live/playbyplay_0022400561.json"))))
                ])
            ).last)
        func entries(_ state: ScoreState) -> [String] {
            state.scoring.elements.map {
                "\($0.period) \($0.clock ?? "-") \($0.side?.rawValue ?? "-") \($0.kind) \($0.player ?? "-") \($0.homeScore)-\($0.awayScore)"
            }
        }
        #expect(entries(v3).count == 46 + 46 + 14 + 17)
        #expect(entries(v3) == entries(live))
        #expect(v3.periods.map { [$0.home, $0.away] } == live.periods.map { [$0.home, $0.away] })
    }

    @Test("every running score the play-by-play states is the fold's after that action", arguments: NBAStatsV3Game.all)
    func runningScores(_ game: NBAStatsV3Game) throws {
        let pbp = try v3Document(game.pbpFile)
        let messages = try Self.convert(game)
        let states = try v3Fold(messages)
        var after: [Int: ScoreState] = [:]
        for (message, state) in zip(messages, states) {
            let parts = message.id.split(separator: "-")
            if parts.count >= 5, let number = Int(parts[4]) { after[number] = state }
        }
        guard case .object(let root) = pbp, case .object(let body) = root["game"],
            case .array(let actions) = body["actions"]
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
        // Every scoring action states the score (and every period's start and end).
        #expect(checked > 100 && checked >= (states.last?.scoring.count ?? .max))
    }

    @Test(
        "times are derived: period starts at the wall time stated, plays at the start plus the elapsed time",
        arguments: NBAStatsV3Game.all)
    func derivedTimes(_ game: NBAStatsV3Game) throws {
        let messages = try Self.convert(game)
        // "Start of 1st Period (7:11 PM EST)" on the summary's day: 00:11 UTC the next day.
        let started = try #require(messages.first { $0.event == .gameStarted })
        #expect(started.at == parseRFC3339(game.start))
        #expect(messages.first?.id == "nba-stats-v3-\(game.id)-scheduled")
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(messages.last?.event == .gameEnded(.closed))
        #expect(Set(messages.map(\.id)).count == messages.count)
        #expect(try NBAStatsV3.convert([try v3Document(game.summaryFile), try v3Document(game.pbpFile)]) == messages)
        #expect(try Self.convert(game) == messages)
    }

    @Test(
        "atDerived on the plays and the game's end; not on the period actions, whose wall time is stated",
        arguments: NBAStatsV3Game.all)
    func derivedMarks(_ game: NBAStatsV3Game) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: v3Path(game.pbpFile))))
                as? [String: Any])
        var actions: [Int: (type: String, description: String)] = [:]
        for action in try #require((root["game"] as? [String: Any])?["actions"] as? [[String: Any]]) {
            let number = try #require(action["actionNumber"] as? Int)
            let type = try #require(action["actionType"] as? String)
            actions[number] = (type, action["description"] as? String ?? "")
        }
        let messages = try Self.convert(game)
        let prefix = "nba-stats-v3-\(game.id)-"
        // game.scheduled at the first period's stated start.
        let scheduled = try #require(messages.first)
        #expect(scheduled.id == prefix + "scheduled" && !scheduled.atDerived)
        #expect(scheduled.at == parseRFC3339(game.start))
        // game.ended: no action of its own, the last period end's time carried over.
        let ended = try #require(messages.last)
        #expect(ended.id == prefix + "end" && ended.atDerived && ended.at == messages[messages.count - 2].at)
        for message in messages.dropFirst().dropLast() {
            let number = try #require(Int(message.id.dropFirst(prefix.count).prefix { $0 != "-" }), "\(message.id)")
            let action = try #require(actions[number], "\(message.id)")
            // A period's start or end states its wall time ("Start of 1st Period (7:11 PM EST)"): not derived.
            // Every other action's time is its period's start plus the elapsed game time: derived.
            let period = action.type == "period"
            #expect(message.atDerived == !period, "\(message.id)")
            if period { #expect(action.description.contains(" PM E") || action.description.contains(" AM E")) }
        }
        let plays = messages.filter { $0.event.type == "points.scored" }
        #expect(plays.count > 100 && plays.allSatisfy { $0.atDerived })
        #expect(messages.filter { $0.event.type.hasPrefix("period.") }.allSatisfy { !$0.atDerived })
        #expect(try Self.convert(game).map { $0.canonicalJSON() } == messages.map { $0.canonicalJSON() })
    }

    @Test("detect, and errors naming the format and the field", arguments: NBAStatsV3Game.all)
    func detectAndErrors(_ game: NBAStatsV3Game) throws {
        let pbp = try v3Document(game.pbpFile)
        let summary = try v3Document(game.summaryFile)
        #expect(NBAStatsV3.detect(pbp) && NBAStatsV3.detect(summary))
        #expect(!NBALive.detect(pbp))
        #expect(ProviderFormats.detect(pbp)?.name == "nba-stats-v3")
        #expect(
            !NBAStatsV3.detect(
                try JSONValue.parse(
                    Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/playbyplay_0022000180.json"))))))
        #expect(v3Failure([pbp])?.field == "resultSets")
        #expect(v3Failure([summary])?.field == "game.actions")
        guard case .object(var root) = pbp, case .object(var body) = root["game"],
            case .array(var actions) = body["actions"],
            case .object(var action) = actions[0]
        else { throw ConvertError(format: "test", reason: "fixture") }
        action["clock"] = .string("12:00")
        actions[0] = .object(action)
        body["actions"] = .array(actions)
        root["game"] = .object(body)
        let failure = v3Failure([.object(root), summary])
        #expect(failure?.format == "nba-stats-v3")
        #expect(failure?.field == "game.actions[0].clock")
        // The other game's summary: refused, naming the game id or the summary's rows.
        let other = try #require(NBAStatsV3Game.all.first { $0.id != game.id })
        let mismatch = v3Failure([pbp, try v3Document(other.summaryFile)])
        #expect(mismatch?.format == "nba-stats-v3")
        #expect(
            mismatch?.field
                == (other.summaryFile.hasPrefix("leaguegamefinder")
                    ? "resultSets.LeagueGameFinderResults.rowSet" : "game.gameId"))
    }
}
