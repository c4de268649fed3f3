import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// A document of fixtures/providers/nba-live.
private func document(_ file: String) throws -> JSONValue {
    try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/\(file)"))))
}

private func members(_ value: JSONValue?) -> JSONObject {
    if case .object(let members) = value { return members }
    return [:]
}

private func array(_ value: JSONValue?) -> [JSONValue] {
    if case .array(let values) = value { return values }
    return []
}

private func text(_ value: JSONValue?) -> String? {
    if case .string(let text) = value { return text }
    return nil
}

private func integer(_ value: JSONValue?) -> Int? {
    if case .int(let number) = value { return number }
    return nil
}

/// A play-by-play document with its actions replaced.
private func withActions(_ pbp: JSONValue, _ change: ([JSONValue]) -> [JSONValue]) -> JSONValue {
    var root = members(pbp)
    var game = members(root["game"])
    game["actions"] = .array(change(array(game["actions"])))
    root["game"] = .object(game)
    return .object(root)
}

/// An action with some members replaced.
private func edit(_ action: JSONValue, _ changes: JSONObject) -> JSONValue {
    .object(members(action).merging(changes) { $1 })
}

/// Folds every message; the state after each.
private func fold(_ messages: [FeedMessage]) throws -> [ScoreState] {
    var states: [ScoreState] = []
    var state: ScoreState?
    for message in messages {
        let next = try ScoreFold.apply(message, to: state)
        states.append(next)
        state = next
    }
    return states
}

/// The action number a message id names (`nba-live-<game>-<actionNumber>-…`), if any.
private func actionNumber(_ id: String) -> Int? {
    let parts = id.split(separator: "-")
    return parts.count >= 4 ? Int(parts[3]) : nil
}

/// A real game's documents: the play-by-play, and either the live box score (`boxscore_{gameId}.json`) or
/// stats.nba.com's boxscoresummaryv2 and boxscoretraditionalv3 of the game for its official figures.
struct NBALiveGame: Sendable, CustomTestStringConvertible {
    var id: String
    /// The live box score is one of the documents converted; else only the play-by-play is.
    var liveBox: Bool
    var home: String
    var away: String
    var labels: [String]
    /// The first made shot: its message id, time, event and clock as the scoring list shows it.
    var firstBasket: (id: String, at: String, event: PointsScored, clock: String)
    var testDescription: String { id }

    var pbpFile: String { "playbyplay_\(id).json" }

    static let all = [
        NBALiveGame(
            id: "0022000180", liveBox: true, home: "BOS", away: "ORL", labels: ["Q1", "Q2", "Q3", "Q4"],
            firstBasket: (
                "nba-live-0022000180-7-20210116T004050Z", "2021-01-16T00:40:43.7Z",
                PointsScored(team: .home, points: 3, kind: .three, player: "J. Teague", clockMs: 706_000), "11:46"
            )),
        NBALiveGame(
            id: "0022400561", liveBox: false, home: "PHI", away: "NYK", labels: ["Q1", "Q2", "Q3", "Q4", "OT"],
            firstBasket: (
                "nba-live-0022400561-17-20250116T001518Z", "2025-01-16T00:15:10.0Z",
                PointsScored(team: .away, points: 3, kind: .three, player: "M. Bridges", clockMs: 655_000), "10:55"
            )),
    ]

    /// The documents converted: the play-by-play, with the live box score when there is one.
    func documents() throws -> [JSONValue] {
        try [document(pbpFile)] + (liveBox ? [document("boxscore_\(id).json")] : [])
    }
}

/// The official figures of a game, read with Foundation's JSON reader (not the converter's): the live box
/// score's, or boxscoresummaryv2's `LineScore` and boxscoretraditionalv3's team and player statistics.
struct NBALiveOfficial {
    var codes: [String]
    var names: [String]
    var final: [Int]
    /// Points per period, home and away, as far as the source states them (the live sample: Q1 only).
    var periods: [[Int]]
    /// Made field goals, threes and free throws, home and away.
    var made: (field: [Int], three: [Int], free: [Int])
    /// Points of the players the source lists.
    var players: [(team: String, name: String, points: Int)]
    var startsAt: String?

    init(_ game: NBALiveGame) throws {
        func json(_ file: String) throws -> [String: Any] {
            try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/\(file)"))))
                    as? [String: Any])
        }
        let teams: [[String: Any]]
        if game.liveBox {
            let box = try #require(try json("boxscore_\(game.id).json")["game"] as? [String: Any])
            teams = [try #require(box["homeTeam"] as? [String: Any]), try #require(box["awayTeam"] as? [String: Any])]
            final = try teams.map { try #require($0["score"] as? Int) }
            let periods = try teams.map { try #require($0["periods"] as? [[String: Any]]) }
            self.periods = try zip(periods[0], periods[1]).map {
                [try #require($0["score"] as? Int), try #require($1["score"] as? Int)]
            }
            startsAt = box["gameTimeUTC"] as? String
        } else {
            let box = try #require(
                try json("stats-boxscoretraditionalv3_\(game.id).json")["boxScoreTraditional"] as? [String: Any])
            teams = [try #require(box["homeTeam"] as? [String: Any]), try #require(box["awayTeam"] as? [String: Any])]
            let summary = try json("stats-boxscoresummaryv2_\(game.id).json")
            var lines: [Int: [String: Any]] = [:]
            var homeId = 0
            for set in try #require(summary["resultSets"] as? [[String: Any]]) {
                let headers = try #require(set["headers"] as? [String])
                for row in try #require(set["rowSet"] as? [[Any]]) {
                    let fields = Dictionary(zip(headers, row), uniquingKeysWith: { first, _ in first })
                    if set["name"] as? String == "LineScore" { lines[try #require(fields["TEAM_ID"] as? Int)] = fields }
                    if set["name"] as? String == "GameSummary" { homeId = try #require(fields["HOME_TEAM_ID"] as? Int) }
                }
            }
            #expect(teams[0]["teamId"] as? Int == homeId)
            let sides = try teams.map { team in
                let id = try #require(team["teamId"] as? Int)
                return try #require(lines[id])
            }
            final = try sides.map { try #require($0["PTS"] as? Int) }
            let keys = ["PTS_QTR1", "PTS_QTR2", "PTS_QTR3", "PTS_QTR4"] + (1...10).map { "PTS_OT\($0)" }
            periods = try keys.prefix(game.labels.count).map { key in try sides.map { try #require($0[key] as? Int) } }
            startsAt = nil
        }
        codes = try teams.map { try #require($0["teamTricode"] as? String) }
        names = try teams.map {
            "\(try #require($0["teamCity"] as? String)) \(try #require($0["teamName"] as? String))"
        }
        let statistics = try teams.map { try #require($0["statistics"] as? [String: Any]) }
        func stat(_ key: String) throws -> [Int] { try statistics.map { try #require($0[key] as? Int) } }
        made = (try stat("fieldGoalsMade"), try stat("threePointersMade"), try stat("freeThrowsMade"))
        var players: [(String, String, Int)] = []
        for (team, code) in zip(teams, codes) {
            for player in try #require(team["players"] as? [[String: Any]]) {
                let points = try #require((player["statistics"] as? [String: Any])?["points"] as? Int)
                players.append((code, try #require(player["nameI"] as? String), points))
            }
        }
        self.players = players.map { (team: $0.0, name: $0.1, points: $0.2) }
    }
}

/// The actions of a play-by-play, in game order (orderNumber), read with Foundation's JSON reader.
private func orderedActions(_ game: NBALiveGame) throws -> [[String: Any]] {
    let root = try #require(
        try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/\(game.pbpFile)"))))
            as? [String: Any])
    let actions = try #require((root["game"] as? [String: Any])?["actions"] as? [[String: Any]])
    return actions.sorted { ($0["orderNumber"] as? Int ?? 0) < ($1["orderNumber"] as? Int ?? 0) }
}

/// The running scores a play-by-play states at each period's end, as points per period (home, away).
private func statedPeriods(_ game: NBALiveGame) throws -> [[Int]] {
    var before = [0, 0]
    var periods: [[Int]] = []
    for action in try orderedActions(game)
    where action["actionType"] as? String == "period" && action["subType"] as? String == "end" {
        let stated = [
            Int(try #require(action["scoreHome"] as? String)) ?? -1,
            Int(try #require(action["scoreAway"] as? String)) ?? -1,
        ]
        periods.append([stated[0] - before[0], stated[1] - before[1]])
        before = stated
    }
    return periods
}

@Suite("nba-live: NBA live-data play-by-play and box score")
struct NBALiveTests {
    @Test(
        "a real game folds to its official final, line score, made shots and players' points",
        arguments: NBALiveGame.all)
    func realGame(_ game: NBALiveGame) throws {
        let official = try NBALiveOfficial(game)
        let messages = try NBALive.convert(try game.documents())
        let states = try fold(messages)
        let final = try #require(states.last)

        #expect(final.gameId == "nba-\(game.id)")
        #expect(final.sport == .basketball)
        #expect(final.rules.competition == "nba")
        #expect(final.status == .closed)
        #expect([final.home.code, final.away.code] == official.codes)
        #expect([final.home.code, final.away.code] == [game.home, game.away])
        if game.liveBox {
            // The box score names the teams and gives the start time.
            #expect([final.home.name, final.away.name] == official.names)
            #expect(final.startsAt == parseRFC3339(official.startsAt ?? ""))
        }
        #expect([final.homeScore, final.awayScore] == official.final)
        // The line score: the official periods (all of them, or the first only in the abridged live sample),
        // and the running scores the play-by-play states at each period's end.
        #expect(final.periods.map(\.label) == game.labels)
        #expect(Array(final.periods.map { [$0.home, $0.away] }.prefix(official.periods.count)) == official.periods)
        #expect(final.periods.map { [$0.home, $0.away] } == (try statedPeriods(game)))
        // Made twos and threes, threes, free throws per team: the scoring list.
        let scoring = final.scoring.elements
        func count(_ kinds: [ScoringKind]) -> [Int] {
            [Side.home, .away].map { side in scoring.filter { kinds.contains($0.kind) && $0.side == side }.count }
        }
        #expect(count([.two, .three]) == official.made.field)
        #expect(count([.three]) == official.made.three)
        #expect(count([.freeThrow]) == official.made.free)
        #expect(scoring.allSatisfy { $0.player != nil })
        // Every player the source lists: his points in the scoring list.
        for player in official.players {
            let side: Side = player.team == game.home ? .home : .away
            let points = scoring.filter { $0.side == side && $0.player == player.name }.reduce(0) { $0 + $1.points }
            #expect(points == player.points, "\(player.name)")
        }
        // The document agrees with itself: no correction was needed.
        #expect(!messages.contains { if case .scoreCorrected = $0.event { true } else { false } })
    }

    @Test("every running score the play-by-play states is the fold's after that action", arguments: NBALiveGame.all)
    func runningScores(_ game: NBALiveGame) throws {
        let messages = try NBALive.convert(try game.documents())
        let states = try fold(messages)
        // The state after the last message of each action number.
        var after: [Int: ScoreState] = [:]
        for (message, state) in zip(messages, states) {
            if let number = actionNumber(message.id) { after[number] = state }
        }
        var current = states[0]
        var checked = 0
        let actions = try orderedActions(game)
        for fields in actions {
            let number = try #require(fields["actionNumber"] as? Int)
            if let state = after[number] { current = state }
            #expect(
                "\(current.homeScore)-\(current.awayScore)"
                    == "\(fields["scoreHome"] as? String ?? "?")-\(fields["scoreAway"] as? String ?? "?")",
                "action \(number)")
            checked += 1
        }
        #expect(checked == actions.count && checked > 200)
    }

    @Test(
        "the mapping: ids from actionNumber and the edit stamp, clock, wall-clock time, kinds and players",
        arguments: NBALiveGame.all)
    func mapping(_ game: NBALiveGame) throws {
        let messages = try NBALive.convert([try document(game.pbpFile)])
        #expect(Set(messages.map(\.id)).count == messages.count)
        #expect(
            messages.map(\.type).prefix(5) == [
                "game.scheduled", "game.started", "period.started", "clock.started", "points.scored",
            ])
        // The first basket: its id (actionNumber and edit stamp), its timeActual, kind, player and clock.
        let basket = try #require(messages.first { $0.type == "points.scored" })
        #expect(basket.id == game.firstBasket.id)
        #expect(basket.at == parseRFC3339(game.firstBasket.at))
        #expect(basket.event == .pointsScored(game.firstBasket.event))
        let states = try fold(messages)
        let entry = try #require(states.last?.scoring.elements.first)
        #expect(entry.clock == game.firstBasket.clock)
        #expect(entry.period == 1)
        // Every period started and ended; the game ended once, last; overtime is a period of its own.
        #expect(messages.filter { $0.type == "period.started" }.count == game.labels.count)
        #expect(messages.filter { $0.type == "period.ended" }.count == game.labels.count)
        #expect(
            messages.contains { $0.event == .periodStarted(period: 5, kind: .overtime) } == (game.labels.count > 4))
        #expect(messages.filter { $0.type == "game.ended" }.count == 1)
        #expect(messages.last?.type == "game.ended")
        // Messages are in game order: their times never go back.
        #expect(zip(messages.dropFirst(2), messages.dropFirst(3)).allSatisfy { $0.at <= $1.at })
    }

    @Test(
        "without the box score the sides come from the first basket of each team, the codes for names",
        arguments: NBALiveGame.all)
    func withoutBoxScore(_ game: NBALiveGame) throws {
        let official = try NBALiveOfficial(game)
        let messages = try NBALive.convert([try document(game.pbpFile)])
        let final = try #require(fold(messages).last)
        #expect(final.home == Team(code: game.home, name: game.home, logo: ""))
        #expect(final.away == Team(code: game.away, name: game.away, logo: ""))
        #expect([final.homeScore, final.awayScore] == official.final)
        // startsAt: the first action's time.
        let first = try #require(try orderedActions(game).first?["timeActual"] as? String)
        #expect(final.startsAt == parseRFC3339(first))
    }

    @Test(
        "atDerived only where an action takes the later time of the one before it (its own timeActual is earlier)",
        arguments: [
            (NBALiveGame.all[0], ["nba-live-0022000180-279-20210116T012616Z"]), (NBALiveGame.all[1], [String]()),
        ])
    func derivedTimes(_ game: NBALiveGame, _ derivedIds: [String]) throws {
        var stated: [Int: Date] = [:]
        for action in try orderedActions(game) {
            let time = try #require(action["timeActual"] as? String)
            let date: Date = try #require(parseRFC3339(time))
            stated[try #require(action["actionNumber"] as? Int)] = date
        }
        let messages = try NBALive.convert(try game.documents())
        // game.scheduled: at gameTimeUTC or the first action's timeActual, both stated.
        #expect(messages.first?.type == "game.scheduled" && messages.first?.atDerived == false)
        for (previous, message) in zip(messages, messages.dropFirst()) {
            let number = try #require(actionNumber(message.id), "\(message.id)")
            let own = try #require(stated[number], "\(message.id)")
            if message.atDerived {
                // A late free throw: the time of the message before it, later than its own timeActual.
                #expect(message.at == previous.at && message.at > own, "\(message.id)")
            } else {
                #expect(message.at == own, "\(message.id)")
            }
        }
        #expect(messages.filter(\.atDerived).map(\.id) == derivedIds)
        let again = try NBALive.convert(try game.documents())
        #expect(again.map { $0.canonicalJSON() } == messages.map { $0.canonicalJSON() })
    }

    @Test(
        "converting twice, or with the documents in another order, gives the same messages", arguments: NBALiveGame.all)
    func deterministic(_ game: NBALiveGame) throws {
        let documents = try game.documents()
        let once = try NBALive.convert(documents)
        #expect(try NBALive.convert(documents) == once)
        #expect(try NBALive.convert(documents.reversed()) == once)
        // Actions in another order in the document: the game order is orderNumber's.
        #expect(try NBALive.convert([withActions(documents[0]) { $0.reversed() }] + documents.dropFirst()) == once)
    }

    @Test(
        "an earlier poll's made shot the provider edited or dropped is given and then retracted",
        arguments: NBALiveGame.all)
    func editedActions(_ game: NBALiveGame) throws {
        let documents = try game.documents()
        let pbp = documents[0]
        let final = try NBALive.convert(documents)
        // An earlier poll: the first 60 actions, the first basket recorded with another kind and an
        // earlier edit stamp, and the first made two after it recorded for the wrong player.
        let actions = array(members(members(pbp)["game"])["actions"])
        let made = actions.filter { text(members($0)["shotResult"]) == "Made" }
        let first = try #require(made.first)
        let firstNumber = try #require(integer(members(first)["actionNumber"]))
        let firstTwo = try #require(made.dropFirst().first { text(members($0)["actionType"]) == "2pt" })
        let twoNumber = try #require(integer(members(firstTwo)["actionNumber"]))
        let otherKind = text(members(first)["actionType"]) == "3pt" ? "2pt" : "3pt"
        let earlier = withActions(pbp) { actions in
            Array(actions.prefix(60)).map { action in
                switch integer(members(action)["actionNumber"]) {
                case firstNumber:
                    edit(action, ["actionType": .string(otherKind), "edited": .string("2000-01-01T00:00:01Z")])
                case twoNumber:
                    edit(action, ["playerNameI": .string("A. Nobody"), "edited": .string("2000-01-01T00:00:02Z")])
                default:
                    action
                }
            }
        }
        let messages = try NBALive.convert([earlier] + documents)
        let retractions = messages.filter { $0.type == "event.retracted" }
        #expect(retractions.count == 2)
        let ghostOne = "nba-live-\(game.id)-\(firstNumber)-20000101T000001Z"
        let ghostTwo = "nba-live-\(game.id)-\(twoNumber)-20000101T000002Z"
        #expect(retractions.first?.event == .retracted(id: ghostOne, reason: "edited by the provider"))
        // The last poll's messages are all there, in the same order; the retracted version precedes its retraction.
        let ghosts: Set = [ghostOne, ghostTwo]
        #expect(Set(retractions.compactMap { if case .retracted(let id, _) = $0.event { id } else { nil } }) == ghosts)
        #expect(messages.filter { !ghosts.contains($0.id) && $0.type != "event.retracted" } == final)
        let ghostIndex = try #require(messages.firstIndex { $0.id == ghostOne })
        #expect(messages[ghostIndex + 1].type == "event.retracted")
        let state = try #require(fold(messages).last)
        let plain = try #require(fold(final).last)
        #expect(state.homeScore == plain.homeScore && state.awayScore == plain.awayScore)
        #expect(state.periods.map(\.home) == plain.periods.map(\.home))
        #expect(state.scoring.elements == plain.scoring.elements)
        #expect(state.retracted.count == 2)
        // A poll that is the same document again adds nothing.
        #expect(try NBALive.convert([pbp] + documents) == final)
    }

    @Test("a stated running score the baskets do not make becomes a score.corrected", arguments: NBALiveGame.all)
    func statedScoreWins(_ game: NBALiveGame) throws {
        let pbp = try document(game.pbpFile)
        let official = try NBALiveOfficial(game)
        // Drop the first basket but keep every stated score: from then on the document says its points
        // more than its baskets.
        let ordered = try orderedActions(game)
        let firstIndex = try #require(ordered.firstIndex { $0["shotResult"] as? String == "Made" })
        let firstNumber = try #require(ordered[firstIndex]["actionNumber"] as? Int)
        let next = ordered[firstIndex + 1]
        let changed = withActions(pbp) { $0.filter { integer(members($0)["actionNumber"]) != firstNumber } }
        let messages = try NBALive.convert([changed])
        let corrections = messages.filter { $0.type == "score.corrected" }
        #expect(corrections.count == 1)
        // The next action states the dropped basket's score: the correction is there, as its own message.
        let stated = [
            Int(try #require(next["scoreHome"] as? String)) ?? -1,
            Int(try #require(next["scoreAway"] as? String)) ?? -1,
        ]
        #expect(corrections.first?.event == .scoreCorrected(homeScore: stated[0], awayScore: stated[1]))
        let stamp = String((try #require(next["edited"] as? String)).filter { $0.isLetter || $0.isNumber })
        #expect(
            corrections.first?.id == "nba-live-\(game.id)-\(try #require(next["actionNumber"] as? Int))-\(stamp)-score")
        let final = try #require(fold(messages).last)
        #expect([final.homeScore, final.awayScore] == official.final)
    }

    @Test("overtime: a fifth period of type OVERTIME after a tie is an overtime period of five minutes")
    func overtime() throws {
        // Written for the test: four tied periods, then one of overtime (the real overtime game is 0022400561).
        func action(
            _ number: Int, _ period: Int, _ type: String, _ sub: String, _ clock: String, _ home: Int, _ away: Int,
            team: Int? = nil, made: Bool = false
        ) -> JSONValue {
            var fields: JSONObject = [
                "actionNumber": .int(number), "orderNumber": .int(number * 10_000), "period": .int(period),
                "periodType": .string(period > 4 ? "OVERTIME" : "REGULAR"), "actionType": .string(type),
                "subType": .string(sub), "clock": .string(clock),
                "timeActual": .string("2021-01-16T0\(period):\(10 + number % 40):00.0Z"),
                "scoreHome": .string(String(home)), "scoreAway": .string(String(away)),
                "edited": .string("2021-01-16T0\(period):\(10 + number % 40):01Z"),
            ]
            if let team {
                fields["teamId"] = .int(team)
                fields["teamTricode"] = .string(team == 1 ? "HOM" : "AWY")
                fields["playerNameI"] = .string("P. Layer")
                fields["shotResult"] = .string(made ? "Made" : "Missed")
            }
            return .object(fields)
        }
        var actions: [JSONValue] = []
        var number = 1
        for period in 1...4 {
            actions.append(action(number, period, "period", "start", "PT12M00.00S", 2 * (period - 1), 2 * (period - 1)))
            actions.append(
                action(
                    number + 1, period, "2pt", "Layup", "PT06M00.00S", 2 * period, 2 * (period - 1), team: 1, made: true
                ))
            actions.append(
                action(number + 2, period, "2pt", "Layup", "PT03M00.00S", 2 * period, 2 * period, team: 2, made: true))
            actions.append(action(number + 3, period, "period", "end", "PT00M00.00S", 2 * period, 2 * period))
            number += 4
        }
        actions.append(action(number, 5, "period", "start", "PT05M00.00S", 8, 8))
        actions.append(action(number + 1, 5, "3pt", "Jump Shot", "PT00M04.30S", 8, 11, team: 2, made: true))
        actions.append(action(number + 2, 5, "period", "end", "PT00M00.00S", 8, 11))
        actions.append(action(number + 3, 5, "game", "end", "PT00M00.00S", 8, 11))
        let pbp = JSONValue.object(["game": .object(["gameId": .string("0029900001"), "actions": .array(actions)])])
        let messages = try NBALive.convert([pbp])
        #expect(messages.contains { $0.event == .periodStarted(period: 5, kind: .overtime) })
        #expect(messages.contains { $0.event == .clockStarted(ms: 300_000) })
        let final = try #require(fold(messages).last)
        #expect(final.status == .closed)
        #expect(final.homeScore == 8 && final.awayScore == 11)
        #expect(final.periods.map(\.label) == ["Q1", "Q2", "Q3", "Q4", "OT"])
        #expect(final.scoring.elements.last?.clock == "0:04.3")
        #expect(!messages.contains { $0.type == "score.corrected" })
    }

    @Test("detect: the play-by-play and the box score, nothing else", arguments: NBALiveGame.all)
    func detect(_ game: NBALiveGame) throws {
        #expect(NBALive.detect(try document(game.pbpFile)))
        #expect(NBALive.detect(try document("boxscore_0022000180.json")))
        #expect(!NBALive.detect(.object(["game": .object(["actions": .array([])])])))
        #expect(!NBALive.detect(.array([])))
        #expect(ProviderFormats.named("nba-live") == nil ? false : true)
        let (format, _) = try ProviderFormats.convert(
            [try Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/\(game.pbpFile)")))], format: nil)
        #expect(format.name == "nba-live")
    }

    /// The index in the document of a made shot after both teams have appeared (the field errors' target).
    static func target(_ pbp: JSONValue) throws -> Int {
        let actions = array(members(members(pbp)["game"])["actions"])
        var teams: Set<Int> = []
        for (index, action) in actions.enumerated() {
            if let team = integer(members(action)["teamId"]), team != 0 { teams.insert(team) }
            if teams.count == 2, text(members(action)["shotResult"]) == "Made" { return index }
        }
        throw ConvertError(format: "test", reason: "no made shot after both teams")
    }

    static let wrongFields: [(String, JSONValue, String)] = [
        ("clock", .string("4:32"), "clock"),
        ("clock", .null, "clock"),
        ("clock", .string("PT04M60.00S"), "clock"),
        ("clock", .string("PT04M"), "clock"),
        ("clock", .string("PTM32.00S"), "clock"),
        ("clock", .string("PT04M32.S"), "clock"),
        ("clock", .string("PT04M32.00SX"), "clock"),
        ("clock", .string("04M32.00S"), "clock"),
        ("timeActual", .string("yesterday"), "timeActual"),
        ("period", .int(0), "period"),
        ("actionNumber", .string("7"), "actionNumber"),
        ("scoreHome", .string("x"), "scoreHome"),
        ("teamId", .int(42), "teamId"),
    ]

    @Test("clocks: minutes, seconds and up to nine decimals, rounded to the millisecond", arguments: NBALiveGame.all)
    func clocks(_ game: NBALiveGame) throws {
        let documents = try game.documents()
        let index = try Self.target(documents[0])
        let cases: [(String, Int)] = [
            ("PT04M32.00S", 272_000), ("PT4M5.5S", 245_500), ("PT01M02.1234S", 62_123), ("PT00M00.0005S", 1),
            ("PT00M00.0004999S", 0), ("PT12M00S", 720_000), ("PT00M59.999S", 59_999),
        ]
        for (clock, ms) in cases {
            let edited = withActions(documents[0]) { actions in
                actions.enumerated().map {
                    $0.offset == index ? edit($0.element, ["clock": .string(clock)]) : $0.element
                }
            }
            let messages = try NBALive.convert([edited] + documents.dropFirst())
            let scored = messages.compactMap { if case .pointsScored(let points) = $0.event { points } else { nil } }
            #expect(scored.contains { $0.clockMs == ms }, "\(clock)")
        }
    }

    @Test("a truncated or wrong document names the format and the field", arguments: NBALiveGame.all)
    func wrongAction(_ game: NBALiveGame) throws {
        let documents = try game.documents()
        let pbp = documents[0]
        let index = try Self.target(pbp)
        // In 0022000180 that is actions[3], a made two of ORL (action 12).
        if game.id == "0022000180" {
            #expect(index == 3)
            #expect(integer(members(array(members(members(pbp)["game"])["actions"])[3])["actionNumber"]) == 12)
        }
        for (key, value, field) in Self.wrongFields {
            let broken = withActions(pbp) { actions in
                actions.enumerated().map { $0.offset == index ? edit($0.element, [key: value]) : $0.element }
            }
            #expect(throws: ConvertError.self) { try NBALive.convert([broken]) }
            do {
                _ = try NBALive.convert([broken] + documents.dropFirst())
                Issue.record("converted with \(key) = \(value)")
            } catch {
                #expect(error.format == "nba-live")
                #expect(error.field == "game.actions[\(index)].\(field)", "\(key) = \(value)")
            }
        }
    }

    @Test(
        "wrong documents: no game, no actions, no play-by-play, another game's box score, cut bytes",
        arguments: NBALiveGame.all)
    func wrongDocuments(_ game: NBALiveGame) throws {
        let pbp = try document(game.pbpFile)
        let box = try document("boxscore_0022000180.json")
        func failure(_ documents: [JSONValue]) -> ConvertError? {
            do {
                _ = try NBALive.convert(documents)
                return nil
            } catch { return error }
        }
        #expect(failure([.object(["meta": .object([:])])])?.field == "game")
        #expect(failure([withActions(pbp) { _ in [] }])?.field == "game.actions")
        #expect(failure([box])?.field == "game.actions")
        var other = members(box)
        var otherGame = members(other["game"])
        otherGame["gameId"] = .string("0022000181")
        other["game"] = .object(otherGame)
        #expect(failure([pbp, .object(other)])?.field == "game.gameId")
        #expect(failure([pbp, .object(other)])?.format == "nba-live")
        // Cut in the middle of the actions: not JSON, named by the format chosen.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/\(game.pbpFile)")))
        #expect(throws: ConvertError.self) {
            try ProviderFormats.convert([bytes.prefix(bytes.count / 2)], format: NBALive.self)
        }
        do {
            _ = try ProviderFormats.convert([bytes.prefix(bytes.count / 2)], format: NBALive.self)
        } catch {
            #expect(error.format == "nba-live")
        }
    }
}

extension FeedMessage {
    /// The message's wire type.
    fileprivate var type: String { event.type }
}
