import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// The official figures a game's document states, read with Foundation's JSON reader (not the converter's).
struct NHLWebOfficial {
    let gameNumber: Int
    let home: Int
    let away: Int
    /// Goals per period of play (regulation, overtime) per side, counted from the goal plays.
    let periods: [(home: Int, away: Int)]
    /// Shoot-out goals and attempts per side, when there was a shoot-out.
    let shootout: (home: Int, away: Int)?
    let shootoutAttempts: Int
    /// Every goal outside the shoot-out in game order: event id, side, scorer, clock, running score.
    let goals: [(eventId: Int, side: Side, scorer: String, clock: String, home: Int, away: Int)]

    init(_ path: String) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        gameNumber = try #require(root["id"] as? Int)
        let homeTeam = try #require(root["homeTeam"] as? [String: Any])
        let awayTeam = try #require(root["awayTeam"] as? [String: Any])
        home = try #require(homeTeam["score"] as? Int)
        away = try #require(awayTeam["score"] as? Int)
        let homeId = try #require(homeTeam["id"] as? Int)
        var names: [Int: String] = [:]
        for spot in try #require(root["rosterSpots"] as? [[String: Any]]) {
            let first = try #require((spot["firstName"] as? [String: Any])?["default"] as? String)
            let last = try #require((spot["lastName"] as? [String: Any])?["default"] as? String)
            names[try #require(spot["playerId"] as? Int)] = first + " " + last
        }
        let plays = try #require(root["plays"] as? [[String: Any]]).sorted {
            ($0["sortOrder"] as? Int ?? 0) < ($1["sortOrder"] as? Int ?? 0)
        }
        var periods: [(home: Int, away: Int)] = []
        var shootout: (home: Int, away: Int)?
        var attempts = 0
        var goals: [(Int, Side, String, String, Int, Int)] = []
        for play in plays {
            let descriptor = try #require(play["periodDescriptor"] as? [String: Any])
            let number = try #require(descriptor["number"] as? Int)
            let type = try #require(play["typeDescKey"] as? String)
            let details = play["details"] as? [String: Any] ?? [:]
            let side: Side? = (details["eventOwnerTeamId"] as? Int).map { $0 == homeId ? .home : .away }
            if descriptor["periodType"] as? String == "SO" {
                if shootout == nil { shootout = (0, 0) }
                guard ["goal", "shot-on-goal", "missed-shot", "failed-shot-attempt"].contains(type) else { continue }
                attempts += 1
                if type == "goal" {
                    if side == .home { shootout!.home += 1 } else { shootout!.away += 1 }
                }
                continue
            }
            while periods.count < number { periods.append((0, 0)) }
            guard type == "goal", let side else { continue }
            if side == .home { periods[number - 1].home += 1 } else { periods[number - 1].away += 1 }
            let scorerId = try #require(details["scoringPlayerId"] as? Int)
            let scorer = try #require(names[scorerId])
            var clock = try #require(play["timeRemaining"] as? String)
            if clock.hasPrefix("0") { clock.removeFirst() }
            // Under a minute the scoring list shows tenths (docs/sports.md): "0:09.0".
            if clock.hasPrefix("0:") { clock += ".0" }
            goals.append(
                (
                    try #require(play["eventId"] as? Int), side, scorer, clock,
                    try #require(details["homeScore"] as? Int), try #require(details["awayScore"] as? Int)
                ))
        }
        self.periods = periods
        self.shootout = shootout
        self.shootoutAttempts = attempts
        self.goals = goals.map { (eventId: $0.0, side: $0.1, scorer: $0.2, clock: $0.3, home: $0.4, away: $0.5) }
    }
}

@Suite("nhl-web: the NHL api-web gamecenter play-by-play")
struct NHLWebTests {
    static func path(_ game: String) -> String { fixture("providers/nhl-web/\(game).json") }

    static func convert(_ game: String) throws -> [FeedMessage] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(game)))
        return try ProviderFormats.convert([data], format: NHLWeb.self).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    /// The four real games: in regulation, in overtime, two shoot-outs (one with failed attempts).
    static let games: [(game: String, label: String, home: String, away: String, periods: [String])] = [
        ("2024020003", "Final", "SEA", "STL", ["1st 0-0", "2nd 2-3", "3rd 0-0"]),
        ("2024020087", "Final/OT", "SEA", "CGY", ["1st 0-1", "2nd 1-0", "3rd 0-0", "OT 1-0"]),
        ("2024020033", "Final/SO", "MIN", "SEA", ["1st 1-0", "2nd 1-2", "3rd 2-2", "OT 0-0"]),
        ("2024020857", "Final/SO", "SEA", "DET", ["1st 1-2", "2nd 1-1", "3rd 2-1", "OT 0-0"]),
    ]

    @Test(arguments: games)
    func foldsToTheDocumentsOwnFigures(
        _ game: String, _ label: String, _ home: String, _ away: String, _ periods: [String]
    ) throws {
        let official = try NHLWebOfficial(Self.path(game))
        let messages = try Self.convert(game)
        let state = try Self.fold(messages)
        #expect(state.gameId == "nhl-\(game)")
        #expect(state.home.code == home && state.away.code == away)
        #expect(state.sport == .hockey && state.rules.competition == "nhl")
        #expect(state.status == .closed)
        #expect(state.periodLabel == label)
        // The final: the document's homeTeam.score / awayTeam.score (a shoot-out's winner has its goal).
        #expect(state.homeScore == official.home && state.awayScore == official.away)
        // The line score: literal, and the goals the document's plays give per period.
        #expect(state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == periods)
        #expect(state.periods.map { [$0.home, $0.away] } == official.periods.map { [$0.home, $0.away] })
        // The shoot-out: its goals and every attempt.
        let shootout: [Int]? = state.shootout.map { [$0.home, $0.away] }
        let officialShootout: [Int]? = official.shootout.map { [$0.home, $0.away] }
        #expect(shootout == officialShootout)
        #expect(state.shootoutAttempts.count == official.shootoutAttempts)
        // The scoring list: every goal, its scorer, its clock and the running score the document states.
        let scoring = state.scoring.elements
        #expect(scoring.count == official.goals.count)
        for (entry, goal) in zip(scoring, official.goals) {
            #expect(entry.id == "nhl-web-\(game)-\(goal.eventId)")
            #expect(entry.kind == .goal && entry.points == 1 && entry.side == goal.side)
            #expect(entry.player == goal.scorer)
            #expect(entry.clock == goal.clock)
            #expect(
                "\(goal.eventId) \(entry.homeScore)-\(entry.awayScore)" == "\(goal.eventId) \(goal.home)-\(goal.away)")
        }
    }

    @Test func aShootoutAsTheDocumentTellsIt() throws {
        let state = try Self.fold(try Self.convert("2024020033"))
        // MIN 4 SEA 4 after overtime; SEA wins the shoot-out 2-1 and the game 5-4.
        #expect(state.inPlayScore.home == 4 && state.inPlayScore.away == 4)
        #expect(state.shootout == SideTally(home: 1, away: 2))
        #expect(
            state.shootoutAttempts.elements.map { "\($0.side.rawValue) \($0.scored) \($0.player ?? "-")" } == [
                "home true Mats Zuccarello", "away true Oliver Bjorkstrand", "home false Kirill Kaprizov",
                "away true Jordan Eberle", "home false Matt Boldy",
            ])
        // Derived times: 60:00 of play, two 18-minute intermissions, 2 minutes, the 5:00 overtime, 2
        // minutes, then the shoot-out's nine plays a minute apart (the game-end is the ninth).
        let messages = try Self.convert("2024020033")
        let start = try #require(parseRFC3339("2024-10-13T00:00:00Z"))
        #expect(messages.last?.event == .gameEnded(.closed))
        #expect(messages.last?.at == start + TimeInterval((60 + 36 + 2 + 5 + 2 + 8) * 60))
        let failed = try Self.fold(try Self.convert("2024020857"))
        // DET wins at SEA: one goal in five attempts, two of them failed attempts (typeDescKey failed-shot-attempt).
        #expect(failed.shootout == SideTally(home: 0, away: 1))
        #expect(failed.shootoutAttempts.elements.map(\.scored) == [false, false, false, true, false])
    }

    @Test func gameOrderIsSortOrderAndTimesAreDerived() throws {
        let messages = try Self.convert("2024020003")
        let start = try #require(parseRFC3339("2024-10-08T20:30:00Z"))
        #expect(messages.first?.event.type == "game.scheduled" && messages.first?.at == start)
        #expect(
            messages.prefix(4).map(\.id) == [
                "nhl-web-2024020003-scheduled", "nhl-web-2024020003-started", "nhl-web-2024020003-9",
                "nhl-web-2024020003-9-clock",
            ])
        #expect(messages.last?.event == .gameEnded(.closed))
        // Period 2 starts after 20:00 of play and the 18-minute intermission; its first goal at 0:27.
        let firstGoal = try #require(messages.first { $0.event.type == "points.scored" })
        #expect(firstGoal.at == start + 38 * 60 + 27)
        // The game ends after 60:00 of play and two intermissions.
        #expect(messages.last?.at == start + 96 * 60)
        // Game order: never back in time, whatever the event ids.
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
    }

    @Test func anOvertimeEndedByAGoal() throws {
        let messages = try Self.convert("2024020087")
        let tail = messages.suffix(4).map { $0.canonicalJSON() }
        #expect(tail.contains { $0.contains("\"type\":\"clock.stopped\"") && $0.contains("\"clock\":\"4:12\"") })
        let start = try #require(parseRFC3339("2024-10-20T02:00:00Z"))
        // 60:00 of regulation, two 18-minute intermissions, 2 minutes before overtime, the goal at 0:48.
        #expect(messages.last?.at == start + 60 * 60 + 36 * 60 + 2 * 60 + 48)
    }

    @Test(arguments: games.map(\.game))
    func convertingTwiceGivesTheSameMessagesWhichReadBack(_ game: String) throws {
        let first = try Self.convert(game)
        let second = try Self.convert(game)
        #expect(first == second)
        for message in first {
            #expect(try FeedParser.parse(message.canonicalJSON()) == message)
        }
    }

    @Test(arguments: games.map(\.game))
    func everyPlayMessageIsMarkedDerivedTheScheduleNot(_ game: String) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.path(game))))
                as? [String: Any])
        let startText = try #require(root["startTimeUTC"] as? String)
        let stated: Date = try #require(parseRFC3339(startText))
        let messages = try Self.convert(game)
        // game.scheduled is sent at the stated startTimeUTC; every other time is derived from the game clock.
        let scheduled = try #require(messages.first)
        #expect(scheduled.event.type == "game.scheduled" && scheduled.at == stated && !scheduled.atDerived)
        #expect(!scheduled.canonicalJSON().contains("atDerived"))
        #expect(messages.count > 10)
        for message in messages.dropFirst() {
            #expect(message.atDerived, "\(message.id)")
            #expect(message.canonicalJSON().contains("\"atDerived\":true"))
        }
        // Converted again: the same marks.
        #expect(try Self.convert(game).map { $0.canonicalJSON() } == messages.map { $0.canonicalJSON() })
    }

    @Test func detectsItsDocumentsOnly() throws {
        for game in Self.games.map(\.game) {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(game)))
            #expect(ProviderFormats.detect(try JSONValue.parse(data))?.name == NHLWeb.name)
        }
        #expect(!NHLWeb.detect(.object(["gameData": .object([:]), "liveData": .object([:])])))
        #expect(!NHLWeb.detect(.array([])))
    }

    /// The document with `edit` applied to its JSON object.
    static func edited(_ edit: (inout JSONObject) -> Void) throws -> JSONValue {
        let data = try Data(contentsOf: URL(fileURLWithPath: path("2024020087")))
        guard case .object(var root) = try JSONValue.parse(data) else { throw ConvertError(format: "test", reason: "") }
        edit(&root)
        return .object(root)
    }

    static func editPlay(_ index: Int, _ root: inout JSONObject, _ edit: (inout JSONObject) -> Void) {
        guard case .array(var plays)? = root["plays"], case .object(var play) = plays[index] else { return }
        edit(&play)
        plays[index] = .object(play)
        root["plays"] = .array(plays)
    }

    @Test func aWrongDocumentNamesTheField() throws {
        func failure(_ document: JSONValue) -> ConvertError? {
            do {
                _ = try NHLWeb.convert([document])
                return nil
            } catch { return error }
        }
        let noPeriod = try Self.edited { root in
            Self.editPlay(3, &root) { play in
                guard case .object(var descriptor)? = play["periodDescriptor"] else { return }
                descriptor["number"] = nil
                play["periodDescriptor"] = .object(descriptor)
            }
        }
        #expect(
            failure(noPeriod)?.description
                == "nhl-web: field \"plays[3].periodDescriptor.number\": missing (an integer expected)")
        let strangeTeam = try Self.edited { root in
            Self.editPlay(1, &root) { play in
                guard case .object(var details)? = play["details"] else { return }
                details["eventOwnerTeamId"] = .int(99)
                play["details"] = .object(details)
            }
        }
        #expect(failure(strangeTeam)?.field == "plays[1].details.eventOwnerTeamId")
        let badClock = try Self.edited { root in Self.editPlay(1, &root) { $0["timeRemaining"] = .string("4 min") } }
        #expect(failure(badClock)?.field == "plays[1].timeRemaining")
        let noPlays = try Self.edited { $0["plays"] = .string("none") }
        #expect(
            failure(noPlays)
                == ConvertError(format: "nhl-web", field: "plays", reason: "an array expected, found a string"))
        let allStar = try Self.edited { $0["gameType"] = .int(4) }
        #expect(failure(allStar)?.field == "gameType")
        let document = try Self.edited { _ in }
        #expect(throws: ConvertError.self) { try NHLWeb.convert([document, document]) }
    }

    @Test func aTruncatedDocumentIsNotConverted() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path("2024020033")))
        #expect {
            try ProviderFormats.convert([data.prefix(data.count / 2)], format: NHLWeb.self)
        } throws: { error in
            (error as? ConvertError)?.format == "nhl-web" && "\(error)".contains("not JSON")
        }
    }

    /// The plays of the document without those `drop` says.
    static func dropPlays(_ root: inout JSONObject, _ drop: (JSONValue) -> Bool) {
        guard case .array(let plays)? = root["plays"] else { return }
        root["plays"] = .array(plays.filter { !drop($0) })
    }

    static func isPlay(_ play: JSONValue, _ type: String, period: Int? = nil) -> Bool {
        guard case .object(let members) = play, members["typeDescKey"] == .string(type) else { return false }
        guard let period else { return true }
        guard case .object(let descriptor)? = members["periodDescriptor"] else { return false }
        return descriptor["number"] == .int(period)
    }

    @Test func aDocumentPolledDuringTheGame() throws {
        // Live in the 2nd period: no game-end, the 2nd period's start missing, its end not yet there.
        let live = try Self.edited { root in
            root["gameState"] = .string("LIVE")
            Self.dropPlays(&root) {
                Self.isPlay($0, "game-end") || Self.isPlay($0, "period-start", period: 2)
                    || ((try? NHLWebTests.period(of: $0)) ?? 0) >= 3 || Self.isPlay($0, "period-end", period: 2)
            }
        }
        let messages = try NHLWeb.convert([live])
        let state = try Self.fold(messages)
        #expect(state.status == .inprogress && state.periodLabel == "2nd")
        #expect(state.homeScore == 1 && state.awayScore == 1)
        // The 2nd period's goal sent the period's start it lacked, under its own id.
        #expect(messages.contains { $0.id == "nhl-web-2024020087-680-period" && $0.event.type == "period.started" })
        // Over without a game-end play: the state OFF ends it.
        let over = try Self.edited { root in Self.dropPlays(&root) { Self.isPlay($0, "game-end") } }
        let ended = try Self.fold(try NHLWeb.convert([over]))
        #expect(ended.status == .closed && ended.periodLabel == "Final/OT")
        // Postponed before the start: no plays, gameScheduleState PPD.
        let postponed = try Self.edited { root in
            root["gameState"] = .string("FUT")
            root["gameScheduleState"] = .string("PPD")
            root["plays"] = .array([])
        }
        let messagesPostponed = try NHLWeb.convert([postponed])
        #expect(messagesPostponed.map(\.event.type) == ["game.scheduled", "game.ended"])
        #expect(try Self.fold(messagesPostponed).status == .postponed)
    }

    static func period(of play: JSONValue) throws -> Int {
        guard case .object(let members) = play, case .object(let descriptor)? = members["periodDescriptor"],
            case .int(let number)? = descriptor["number"]
        else { return 0 }
        return number
    }

    @Test func aPlayoffGameIsPlayedByPlayoffRules() throws {
        let document = try Self.edited { $0["gameType"] = .int(3) }
        let messages = try NHLWeb.convert([document])
        guard case .gameScheduled(_, _, _, let setup)? = messages.first?.event else {
            Issue.record("no game.scheduled first")
            return
        }
        #expect(setup.rules.competition == "nhl-playoffs")
        // A playoff overtime starts after a full intermission.
        let start = try #require(parseRFC3339("2024-10-20T02:00:00Z"))
        #expect(messages.last?.at == start + 60 * 60 + 54 * 60 + 48)
    }
}
