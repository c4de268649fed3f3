import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

@Suite("nhl-statsapi: the NHL's retired statsapi live feed")
struct NHLStatsAPITests {
    static let path = fixture("providers/nhl-statsapi/2022030236.json")

    static func convert() throws -> [FeedMessage] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try ProviderFormats.convert([data], format: NHLStatsAPI.self).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    /// The document's own figures, read with Foundation's JSON reader: the linescore and the goal plays.
    static func official() throws -> (
        home: Int, away: Int, periods: [[Int]],
        goals: [(id: Int, side: Side, scorer: String, clock: String, home: Int, away: Int, at: String)]
    ) {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let live = try #require(root["liveData"] as? [String: Any])
        let linescore = try #require(live["linescore"] as? [String: Any])
        let teams = try #require(linescore["teams"] as? [String: [String: Any]])
        let home = try #require(teams["home"]?["goals"] as? Int)
        let away = try #require(teams["away"]?["goals"] as? Int)
        let homeId = try #require((teams["home"]?["team"] as? [String: Any])?["id"] as? Int)
        var periods: [[Int]] = []
        for period in try #require(linescore["periods"] as? [[String: Any]]) {
            let homeGoals = try #require((period["home"] as? [String: Any])?["goals"] as? Int)
            let awayGoals = try #require((period["away"] as? [String: Any])?["goals"] as? Int)
            periods.append([homeGoals, awayGoals])
        }
        let plays = try #require((live["plays"] as? [String: Any])?["allPlays"] as? [[String: Any]])
        var goals: [(Int, Side, String, String, Int, Int, String)] = []
        for play in plays where (play["result"] as? [String: Any])?["eventTypeId"] as? String == "GOAL" {
            let about = try #require(play["about"] as? [String: Any])
            let running = try #require(about["goals"] as? [String: Int])
            let teamId = try #require((play["team"] as? [String: Any])?["id"] as? Int)
            let players = try #require(play["players"] as? [[String: Any]])
            let scorer = try #require(players.first { $0["playerType"] as? String == "Scorer" })
            let name = try #require((scorer["player"] as? [String: Any])?["fullName"] as? String)
            var clock = try #require(about["periodTimeRemaining"] as? String)
            if clock.hasPrefix("0") { clock.removeFirst() }
            // Under a minute the scoring list shows tenths (docs/sports.md): "0:58.0".
            if clock.hasPrefix("0:") { clock += ".0" }
            goals.append(
                (
                    try #require(about["eventId"] as? Int), teamId == homeId ? .home : .away, name, clock,
                    try #require(running["home"]), try #require(running["away"]),
                    try #require(about["dateTime"] as? String)
                ))
        }
        return (home, away, periods, goals.map { ($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6) })
    }

    @Test func foldsToTheLinescoreAndTheGoalPlays() throws {
        let official = try Self.official()
        let messages = try Self.convert()
        let state = try Self.fold(messages)
        #expect(state.gameId == "nhl-2022030236")
        #expect(state.home.code == "SEA" && state.home.name == "Seattle Kraken" && state.away.code == "DAL")
        #expect(state.rules.competition == "nhl-playoffs")
        #expect(state.status == .closed && state.periodLabel == "Final")
        #expect(state.homeScore == 6 && state.awayScore == 3)
        #expect(state.homeScore == official.home && state.awayScore == official.away)
        #expect(state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["1st 2-1", "2nd 2-1", "3rd 2-1"])
        #expect(state.periods.map { [$0.home, $0.away] } == official.periods)
        #expect(state.shootout == nil)
        let scoring = state.scoring.elements
        #expect(scoring.count == official.goals.count && scoring.count == 9)
        for (entry, goal) in zip(scoring, official.goals) {
            #expect(entry.id == "nhl-statsapi-2022030236-\(goal.id)")
            #expect(entry.side == goal.side && entry.kind == .goal)
            #expect(entry.player == goal.scorer)
            #expect(entry.clock == goal.clock)
            #expect("\(goal.id) \(entry.homeScore)-\(entry.awayScore)" == "\(goal.id) \(goal.home)-\(goal.away)")
            // The wall clock is the document's own.
            let message = try #require(messages.first { $0.id == entry.id })
            #expect(rfc3339(message.at) == goal.at)
        }
    }

    @Test func theClockFollowsFaceoffsAndStoppages() throws {
        let messages = try Self.convert()
        #expect(
            messages.prefix(4).map(\.event.type) == [
                "game.scheduled", "game.started", "period.started", "clock.started",
            ])
        // A goal stops the clock where it was scored.
        let goal = try #require(messages.firstIndex { $0.event.type == "points.scored" })
        #expect(messages[goal + 1].event == .clockStopped(ms: 11 * 60_000 + 1000))
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
        #expect(try Self.convert() == messages)
        for message in messages { #expect(try FeedParser.parse(message.canonicalJSON()) == message) }
    }

    /// A play of a constructed document (no real statsapi shoot-out document was found).
    static func play(
        _ index: Int, _ type: String, period: Int, _ periodType: String = "REGULAR", remaining: String = "20:00",
        team: Int? = nil, player: (role: String, name: String)? = nil
    ) -> JSONValue {
        var members: [String: JSONValue] = [
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

    @Test func detectionAndErrors() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path))
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
    }
}
