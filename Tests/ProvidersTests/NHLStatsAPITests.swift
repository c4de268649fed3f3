import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// The official figures a statsapi document states, read with Foundation's JSON reader (not the converter's):
/// its `linescore` and its goal and shoot-out plays.
struct NHLStatsAPIOfficial {
    let home: Int
    let away: Int
    let homeId: Int
    /// `linescore.periods[]`: goals per period of play per side (the shoot-out is not a period there).
    let periods: [[Int]]
    /// `linescore.shootoutInfo` when `hasShootout`: goals and attempts per side.
    let shootout: (home: Int, away: Int, attempts: Int)?
    /// Every goal outside the shoot-out, in the document's order: event id, side, scorer, clock as the
    /// scoring list shows it, running score (`about.goals`), wall clock.
    let goals: [(id: Int, side: Side, scorer: String, clock: String, home: Int, away: Int, at: String)]
    /// The shoot-out's attempts in the document's order: side, scored, shooter or scorer.
    let attempts: [String]

    init(_ path: String) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let live = try #require(root["liveData"] as? [String: Any])
        let linescore = try #require(live["linescore"] as? [String: Any])
        let teams = try #require(linescore["teams"] as? [String: [String: Any]])
        home = try #require(teams["home"]?["goals"] as? Int)
        away = try #require(teams["away"]?["goals"] as? Int)
        homeId = try #require((teams["home"]?["team"] as? [String: Any])?["id"] as? Int)
        var periods: [[Int]] = []
        for period in try #require(linescore["periods"] as? [[String: Any]]) {
            let homeGoals = try #require((period["home"] as? [String: Any])?["goals"] as? Int)
            let awayGoals = try #require((period["away"] as? [String: Any])?["goals"] as? Int)
            periods.append([homeGoals, awayGoals])
        }
        self.periods = periods
        if try #require(linescore["hasShootout"] as? Bool) {
            let info = try #require(linescore["shootoutInfo"] as? [String: Any])
            let homeInfo = try #require(info["home"] as? [String: Any])
            let awayInfo = try #require(info["away"] as? [String: Any])
            shootout = (
                try #require(homeInfo["scores"] as? Int), try #require(awayInfo["scores"] as? Int),
                try #require(homeInfo["attempts"] as? Int) + (try #require(awayInfo["attempts"] as? Int))
            )
        } else {
            shootout = nil
        }
        let plays = try #require((live["plays"] as? [String: Any])?["allPlays"] as? [[String: Any]])
        var goals: [(Int, Side, String, String, Int, Int, String)] = []
        var attempts: [String] = []
        let homeId = homeId
        for play in plays {
            let type = try #require((play["result"] as? [String: Any])?["eventTypeId"] as? String)
            let about = try #require(play["about"] as? [String: Any])
            guard ["GOAL", "SHOT", "MISSED_SHOT", "FAILED_SHOT_ATTEMPT"].contains(type) else { continue }
            let shootout = about["periodType"] as? String == "SHOOTOUT"
            guard type == "GOAL" || shootout else { continue }
            let teamId = try #require((play["team"] as? [String: Any])?["id"] as? Int)
            let side: Side = teamId == homeId ? .home : .away
            let players = play["players"] as? [[String: Any]] ?? []
            let role = type == "GOAL" ? "Scorer" : "Shooter"
            let player = players.first { $0["playerType"] as? String == role }
            let name = (player?["player"] as? [String: Any])?["fullName"] as? String
            if shootout {
                attempts.append("\(side.rawValue) \(type == "GOAL") \(name ?? "-")")
                continue
            }
            let running = try #require(about["goals"] as? [String: Int])
            var clock = try #require(about["periodTimeRemaining"] as? String)
            if clock.hasPrefix("0") { clock.removeFirst() }
            // Under a minute the scoring list shows tenths (docs/sports.md): "0:58.0".
            if clock.hasPrefix("0:") { clock += ".0" }
            goals.append(
                (
                    try #require(about["eventId"] as? Int), side, try #require(name), clock,
                    try #require(running["home"]), try #require(running["away"]),
                    try #require(about["dateTime"] as? String)
                ))
        }
        self.goals = goals.map { (id: $0.0, side: $0.1, scorer: $0.2, clock: $0.3, home: $0.4, away: $0.5, at: $0.6) }
        self.attempts = attempts
    }
}

@Suite("nhl-statsapi: the NHL's retired statsapi live feed")
struct NHLStatsAPITests {
    static func path(_ game: String) -> String { fixture("providers/nhl-statsapi/\(game).json") }

    static func convert(_ game: String) throws -> [FeedMessage] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(game)))
        return try ProviderFormats.convert([data], format: NHLStatsAPI.self).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    /// The two real games: a playoff game in regulation, a regular-season game won in a shoot-out.
    static let games:
        [(
            game: String, competition: String, label: String, home: Team, away: Team, periods: [String], goals: Int
        )] = [
            (
                "2022030236", "nhl-playoffs", "Final", Team(code: "SEA", name: "Seattle Kraken", logo: ""),
                Team(code: "DAL", name: "Dallas Stars", logo: ""), ["1st 2-1", "2nd 2-1", "3rd 2-1"], 9
            ),
            (
                "2017020006", "nhl", "Final/SO", Team(code: "BUF", name: "Buffalo Sabres", logo: ""),
                Team(code: "MTL", name: "Montréal Canadiens", logo: ""), ["1st 1-1", "2nd 1-0", "3rd 0-1", "OT 0-0"], 4
            ),
        ]

    static let gameNumbers = games.map(\.game)

    @Test(arguments: games)
    func foldsToTheLinescoreAndTheGoalPlays(
        _ game: String, _ competition: String, _ label: String, _ home: Team, _ away: Team, _ periods: [String],
        _ goals: Int
    ) throws {
        let official = try NHLStatsAPIOfficial(Self.path(game))
        let messages = try Self.convert(game)
        let state = try Self.fold(messages)
        #expect(state.gameId == "nhl-\(game)")
        #expect(state.home == home && state.away == away)
        #expect(state.sport == .hockey && state.rules.competition == competition)
        #expect(state.status == .closed && state.periodLabel == label)
        // The final: linescore.teams (a shoot-out's winner has its goal).
        #expect(state.homeScore == official.home && state.awayScore == official.away)
        // The line score: literal, and linescore.periods.
        #expect(state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == periods)
        #expect(state.periods.map { [$0.home, $0.away] } == official.periods)
        // The shoot-out: linescore.shootoutInfo, and every attempt the plays give.
        #expect(state.shootout.map { [$0.home, $0.away] } == official.shootout.map { [$0.home, $0.away] })
        #expect(state.shootoutAttempts.count == official.shootout?.attempts ?? 0)
        #expect(
            state.shootoutAttempts.elements.map { "\($0.side.rawValue) \($0.scored) \($0.player ?? "-")" }
                == official.attempts)
        // The scoring list: every goal, its scorer, clock, running score and wall clock.
        let scoring = state.scoring.elements
        #expect(scoring.count == official.goals.count && scoring.count == goals)
        for (entry, goal) in zip(scoring, official.goals) {
            #expect(entry.id == "nhl-statsapi-\(game)-\(goal.id)")
            #expect(entry.side == goal.side && entry.kind == .goal && entry.points == 1)
            #expect(entry.player == goal.scorer)
            #expect(entry.clock == goal.clock)
            #expect("\(goal.id) \(entry.homeScore)-\(entry.awayScore)" == "\(goal.id) \(goal.home)-\(goal.away)")
            // The wall clock is the document's own.
            let message = try #require(messages.first { $0.id == entry.id })
            #expect(rfc3339(message.at) == goal.at)
        }
    }

    @Test func aShootoutAsTheDocumentTellsIt() throws {
        let state = try Self.fold(try Self.convert("2017020006"))
        // BUF 2 MTL 2 after overtime; MTL wins the shoot-out 1-0 (2 and 3 attempts) and the game 3-2.
        #expect(state.inPlayScore.home == 2 && state.inPlayScore.away == 2)
        #expect(state.homeScore == 2 && state.awayScore == 3)
        #expect(state.shootout == SideTally(home: 0, away: 1))
        #expect(
            state.shootoutAttempts.elements.map { "\($0.side.rawValue) \($0.scored) \($0.player ?? "-")" } == [
                "home false Jacob Josefson", "away false Paul Byron", "home false Jason Pominville",
                "away true Jonathan Drouin", "home false Sam Reinhart",
            ])
    }

    @Test(arguments: gameNumbers)
    func theClockFollowsFaceoffsAndStoppages(_ game: String) throws {
        let official = try NHLStatsAPIOfficial(Self.path(game))
        let messages = try Self.convert(game)
        #expect(
            messages.prefix(4).map(\.event.type) == [
                "game.scheduled", "game.started", "period.started", "clock.started",
            ])
        // A goal stops the clock where it was scored.
        let goal = try #require(messages.firstIndex { $0.event.type == "points.scored" })
        let first = try #require(official.goals.first)
        #expect(messages[goal].id == "nhl-statsapi-\(game)-\(first.id)")
        guard case .pointsScored(let points) = messages[goal].event else {
            Issue.record("not a goal")
            return
        }
        #expect(messages[goal + 1].event == .clockStopped(ms: points.clockMs))
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
        #expect(try Self.convert(game) == messages)
        for message in messages { #expect(try FeedParser.parse(message.canonicalJSON()) == message) }
    }

    /// The stated wall clock of each play, by `about.eventId`, read with Foundation's JSON reader.
    static func statedTimes(_ game: String) throws -> (start: Date, plays: [Int: Date], firstPeriodStart: Int?) {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path(game))))
                as? [String: Any])
        let gameData = try #require(root["gameData"] as? [String: Any])
        let datetime = try #require(gameData["datetime"] as? [String: Any])
        let startText = try #require(datetime["dateTime"] as? String)
        let start: Date = try #require(parseRFC3339(startText))
        let liveData = try #require(root["liveData"] as? [String: Any])
        let plays = try #require((liveData["plays"] as? [String: Any])?["allPlays"] as? [[String: Any]])
        var times: [Int: Date] = [:]
        var firstPeriodStart: Int?
        for play in plays {
            let about = try #require(play["about"] as? [String: Any])
            if firstPeriodStart == nil, (play["result"] as? [String: Any])?["eventTypeId"] as? String == "PERIOD_START"
            {
                firstPeriodStart = about["eventId"] as? Int
            }
            let eventId = try #require(about["eventId"] as? Int)
            let text = try #require(about["dateTime"] as? String)
            let time: Date = try #require(parseRFC3339(text))
            times[eventId] = time
        }
        return (start, times, firstPeriodStart)
    }

    @Test(arguments: [("2022030236", [String]()), ("2017020006", ["33", "90"])])
    func playsAtTheirStatedDateTimeAreNotDerived(_ game: String, _ derivedEvents: [String]) throws {
        let stated = try Self.statedTimes(game)
        let messages = try Self.convert(game)
        let prefix = "nhl-statsapi-\(game)-"
        let scheduled = try #require(messages.first)
        #expect(scheduled.event.type == "game.scheduled" && scheduled.at == stated.start && !scheduled.atDerived)
        for message in messages.dropFirst() {
            // The play's eventId: the id's part after the prefix, before any -clock/-game/-period suffix.
            let rest = message.id.dropFirst(prefix.count)
            // game.started (`-started`) is sent with the first PERIOD_START play.
            let parsed = rest == "started" ? stated.firstPeriodStart : Int(rest.prefix { $0 != "-" })
            let eventId = try #require(parsed, "\(message.id)")
            let play = try #require(stated.plays[eventId], "\(message.id)")
            if message.atDerived {
                // Stamped before the play before it in game order: it takes that later time.
                #expect(message.at > play, "\(message.id)")
            } else {
                #expect(message.at == play, "\(message.id)")
            }
        }
        // The 2017 game's stoppage after the first goal (33) and the faceoff after it (90) are stamped
        // before the faceoff (89) that precedes them in game order: only their two messages are derived.
        let derived = messages.filter(\.atDerived).map { String($0.id.dropFirst(prefix.count)) }
        #expect(derived == derivedEvents)
        #expect(!messages.contains { $0.id.hasSuffix("-ended") })
        #expect(try Self.convert(game).map { $0.canonicalJSON() } == messages.map { $0.canonicalJSON() })
    }

    @Test func aFinalGameWithoutAGameEndPlayEndsAtADerivedTime() throws {
        // The GAME_END play renamed to a type the converter ignores; abstractGameState stays Final.
        let text = try String(contentsOfFile: Self.path("2022030236"), encoding: .utf8)
        #expect(text.contains("\"eventTypeId\": \"GAME_END\""))
        let edited = text.replacingOccurrences(of: "\"eventTypeId\": \"GAME_END\"", with: "\"eventTypeId\": \"X\"")
        let messages = try NHLStatsAPI.convert([try JSONValue.parse(Data(edited.utf8))])
        let ended = try #require(messages.last)
        #expect(ended.id == "nhl-statsapi-2022030236-ended" && ended.event == .gameEnded(.closed))
        // Its time is the last play's, carried over: derived.
        #expect(ended.atDerived && ended.at == messages[messages.count - 2].at)
        #expect(!messages.dropLast().contains { $0.atDerived })
    }

    @Test func theFirstGoalsClockIsTheDocuments() throws {
        // SEA's first goal at 11:01 remaining; BUF's (Pominville) at 11:30.
        for (game, ms) in [("2022030236", 11 * 60_000 + 1000), ("2017020006", 11 * 60_000 + 30_000)] {
            let messages = try Self.convert(game)
            let goal = try #require(messages.firstIndex { $0.event.type == "points.scored" })
            #expect(messages[goal + 1].event == .clockStopped(ms: ms))
        }
    }

    /// A play of a constructed document.
    static func play(
        _ index: Int, _ type: String, period: Int, _ periodType: String = "REGULAR", remaining: String = "20:00",
        team: Int? = nil, player: (role: String, name: String)? = nil
    ) -> JSONValue {
        var members: JSONObject = [
            "result": .object(["eventTypeId": .string(type)]),
            "about": .object([
                "eventIdx": .int(index), "eventId": .int(100 + index), "period": .int(period),
                "periodType": .string(periodType), "periodTimeRemaining": .string(remaining),
                "dateTime": .string("2019-10-05T23:\(10 + index):00Z"),
            ]),
        ]
        if let team { members["team"] = .object(["id": .int(team)]) }
        if let player {
            members["players"] = .array([
                .object(["playerType": .string(player.role), "player": .object(["fullName": .string(player.name)])])
            ])
        }
        return .object(members)
    }

    @Test func anOvertimeAndAShootoutInAConstructedDocument() throws {
        // Failed attempts and an attempt without a player, which the real shoot-out has not.
        let plays: [JSONValue] = [
            Self.play(0, "PERIOD_START", period: 1), Self.play(1, "FACEOFF", period: 1),
            Self.play(2, "GOAL", period: 1, remaining: "10:00", team: 1, player: ("Scorer", "Nico Hischier")),
            Self.play(3, "PERIOD_END", period: 1, remaining: "00:00"), Self.play(4, "PERIOD_START", period: 2),
            Self.play(5, "GOAL", period: 2, remaining: "04:30", team: 2, player: ("Scorer", "Mathew Barzal")),
            Self.play(6, "PERIOD_END", period: 2, remaining: "00:00"), Self.play(7, "PERIOD_START", period: 3),
            Self.play(8, "PERIOD_END", period: 3, remaining: "00:00"),
            Self.play(9, "PERIOD_START", period: 4, "OVERTIME", remaining: "05:00"),
            Self.play(10, "PERIOD_END", period: 4, "OVERTIME", remaining: "00:00"),
            Self.play(11, "PERIOD_START", period: 5, "SHOOTOUT", remaining: "00:00"),
            Self.play(12, "GOAL", period: 5, "SHOOTOUT", team: 1, player: ("Scorer", "Jack Hughes")),
            Self.play(13, "MISSED_SHOT", period: 5, "SHOOTOUT", team: 2, player: ("Shooter", "Anders Lee")),
            Self.play(14, "SHOT", period: 5, "SHOOTOUT", team: 1, player: ("Shooter", "Taylor Hall")),
            Self.play(15, "FAILED_SHOT_ATTEMPT", period: 5, "SHOOTOUT", team: 2),
            Self.play(16, "PERIOD_END", period: 5, "SHOOTOUT", remaining: "00:00"),
            Self.play(17, "GAME_END", period: 5, "SHOOTOUT", remaining: "00:00"),
        ]
        func team(_ id: Int, _ code: String, _ name: String) -> JSONValue {
            .object(["id": .int(id), "abbreviation": .string(code), "name": .string(name)])
        }
        let document = JSONValue.object([
            "gamePk": .int(2_019_020_001),
            "gameData": .object([
                "game": .object(["type": .string("R")]),
                "datetime": .object(["dateTime": .string("2019-10-05T23:00:00Z")]),
                "status": .object(["abstractGameState": .string("Final")]),
                "teams": .object([
                    "home": team(1, "NJD", "New Jersey Devils"), "away": team(2, "NYI", "New York Islanders"),
                ]),
            ]),
            "liveData": .object(["plays": .object(["allPlays": .array(plays)])]),
        ])
        #expect(NHLStatsAPI.detect(document))
        let state = try Self.fold(try NHLStatsAPI.convert([document]))
        #expect(state.periodLabel == "Final/SO")
        #expect(state.homeScore == 2 && state.awayScore == 1)
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["1st 1-0", "2nd 0-1", "3rd 0-0", "OT 0-0"])
        #expect(state.shootout == SideTally(home: 1, away: 0))
        #expect(
            state.shootoutAttempts.elements.map { "\($0.side.rawValue) \($0.scored) \($0.player ?? "-")" } == [
                "home true Jack Hughes", "away false Anders Lee", "home false Taylor Hall", "away false -",
            ])
    }

    @Test(arguments: gameNumbers)
    func detectionAndErrors(_ game: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(game)))
        let document = try JSONValue.parse(data)
        #expect(ProviderFormats.detect(document)?.name == "nhl-statsapi")
        #expect(!NHLWeb.detect(document))
        guard case .object(var root) = document else { return }
        root["gamePk"] = .string("x")
        #expect(
            throws: ConvertError(format: "nhl-statsapi", field: "gamePk", reason: "an integer expected, found a string")
        ) {
            try NHLStatsAPI.convert([.object(root)])
        }
        #expect(throws: ConvertError.self) {
            try ProviderFormats.convert([data.prefix(1000)], format: NHLStatsAPI.self)
        }
        do {
            _ = try ProviderFormats.convert([data.prefix(data.count / 2)], format: NHLStatsAPI.self)
            Issue.record("converted")
        } catch {
            #expect(error.format == "nhl-statsapi")
        }
    }
}
