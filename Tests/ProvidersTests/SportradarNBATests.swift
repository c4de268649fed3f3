import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// The official figures a game's play-by-play states, read with Foundation's JSON reader (not the converter's).
struct SportradarNBAOfficial {
    let id: String
    let home: (id: String, points: Int)
    let away: (id: String, points: Int)
    /// `periods[].scoring`: each period's points per side.
    let periods: [(home: Int, away: Int)]
    /// Every made field goal or free throw statistic: its event id, team id, points and player.
    let scoring: [(event: String, team: String, points: Int, player: String)]
    /// Every event that states a running score (v7 `home_points`, `away_points`), in game order, with it.
    let statedScores: [(event: String, home: Int, away: Int)]

    init(_ path: String) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        id = try #require(root["id"] as? String)
        let home = try #require(root["home"] as? [String: Any])
        let away = try #require(root["away"] as? [String: Any])
        self.home = (try #require(home["id"] as? String), try #require(home["points"] as? Int))
        self.away = (try #require(away["id"] as? String), try #require(away["points"] as? Int))
        var periods: [(Int, Int)] = []
        var scoring: [(String, String, Int, String)] = []
        var stated: [(String, Int, Int)] = []
        for period in try #require(root["periods"] as? [[String: Any]]) {
            let line = try #require(period["scoring"] as? [String: Any])
            periods.append(
                (
                    try #require((line["home"] as? [String: Any])?["points"] as? Int),
                    try #require((line["away"] as? [String: Any])?["points"] as? Int)
                ))
            for event in try #require(period["events"] as? [[String: Any]]) {
                if let homePoints = event["home_points"] as? Int, let awayPoints = event["away_points"] as? Int {
                    stated.append((try #require(event["id"] as? String), homePoints, awayPoints))
                }
                for statistic in event["statistics"] as? [[String: Any]] ?? [] {
                    guard ["fieldgoal", "freethrow"].contains(statistic["type"] as? String ?? ""),
                        statistic["made"] as? Bool == true
                    else { continue }
                    scoring.append(
                        (
                            try #require(event["id"] as? String),
                            try #require((statistic["team"] as? [String: Any])?["id"] as? String),
                            try #require(statistic["points"] as? Int),
                            try #require((statistic["player"] as? [String: Any])?["full_name"] as? String)
                        ))
                }
            }
        }
        self.periods = periods.map { (home: $0.0, away: $0.1) }
        self.scoring = scoring.map { (event: $0.0, team: $0.1, points: $0.2, player: $0.3) }
        statedScores = stated.map { (event: $0.0, home: $0.1, away: $0.2) }
    }
}

@Suite("sportradar-nba: Sportradar NBA play-by-play")
struct SportradarNBATests {
    static let game = "tor-at-cha-2017-01-20"
    static let scheduled = "sas-at-uta-2017-04-12-scheduled"
    static func path(_ game: String) -> String { fixture("providers/sportradar-nba/\(game).json") }

    static func convert(_ game: String) throws -> [FeedMessage] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(game)))
        return try ProviderFormats.convert([data], format: nil).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    @Test func foldsToTheDocumentsOwnFigures() throws {
        let official = try SportradarNBAOfficial(Self.path(Self.game))
        let messages = try Self.convert(Self.game)
        let state = try Self.fold(messages)
        #expect(state.gameId == "sr-nba-3700bb52-50f0-4929-b6b0-ae0b3cbad019")
        #expect(state.gameId == "sr-nba-" + official.id)
        // No alias in this document: codes derived from market and name.
        #expect(state.home.code == "CHO" && state.home.name == "Charlotte Hornets")
        #expect(state.away.code == "TRA" && state.away.name == "Toronto Raptors")
        #expect(state.sport == .basketball && state.rules.competition == "nba")
        #expect(state.status == .closed && state.periodLabel == "Final")
        // The final: home.points / away.points, with no correction needed.
        #expect(state.homeScore == 113 && state.awayScore == 78)
        #expect(state.homeScore == official.home.points && state.awayScore == official.away.points)
        #expect(!messages.contains { $0.event.type == "score.corrected" })
        // The line score: literal, and periods[].scoring.
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == [
                "Q1 26-18", "Q2 29-30", "Q3 33-15", "Q4 25-15",
            ])
        #expect(state.periods.map { [$0.home, $0.away] } == official.periods.map { [$0.home, $0.away] })
        // The scoring list: every made shot and free throw, its side, points and shooter.
        let scoring = state.scoring.elements
        #expect(scoring.count == 103 && scoring.count == official.scoring.count)
        for (entry, play) in zip(scoring, official.scoring) {
            let side = play.team == official.home.id ? "home" : "away"
            #expect(
                "\(entry.id) \(entry.side?.rawValue ?? "-") \(entry.points) \(entry.player ?? "-")"
                    == "sportradar-nba-\(official.id)-\(play.event) \(side) \(play.points) \(play.player)")
        }
        #expect(
            scoring.prefix(4).map { "\($0.period) \($0.clock ?? "-") \($0.kind) \($0.homeScore)-\($0.awayScore)" } == [
                "1 11:43 two 0-2", "1 11:25 two 2-2", "1 10:53 three 5-2", "1 10:25 freeThrow 5-3",
            ])
        #expect(scoring.map(\.kind).filter { $0 == .three }.count == 19)
        #expect(scoring.map(\.kind).filter { $0 == .freeThrow }.count == 34)
    }

    @Test func gameOrderAndDerivedTimes() throws {
        let messages = try Self.convert(Self.game)
        let prefix = "sportradar-nba-3700bb52-50f0-4929-b6b0-ae0b3cbad019-"
        #expect(messages.prefix(2).map(\.id) == [prefix + "scheduled", prefix + "started"])
        #expect(messages.first?.at == parseRFC3339("2017-01-21T00:00:00Z"))
        // No wall clock in nba-t3: the first basket (11:43 of Q1) is 17 s after the start; Q3 starts
        // after two quarters and 2 + 15 minutes of breaks.
        let first = try #require(messages.first { $0.id == prefix + "dfafaeca-22da-464d-ac0c-e6d3288fd0bc" })
        #expect(first.at == parseRFC3339("2017-01-21T00:00:17Z"))
        let third = try #require(messages.first { $0.event == .periodStarted(period: 3, kind: .regulation) })
        #expect(third.at >= parseRFC3339("2017-01-21T00:41:00Z")!)
        #expect(
            messages.filter { $0.event.type == "period.ended" }.map(\.event) == (1...4).map { .periodEnded(period: $0) }
        )
        #expect(messages.last?.event == .gameEnded(.closed))
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
    }

    @Test func aScheduledGameIsOnlyScheduled() throws {
        let messages = try Self.convert(Self.scheduled)
        #expect(messages.count == 1)
        let state = try Self.fold(messages)
        #expect(state.gameId == "sr-nba-fdebfa54-dbdb-4992-baa0-729394bd9610")
        #expect(state.home.code == "UTA" && state.home.name == "Utah Jazz")
        #expect(state.away.code == "SAS" && state.away.name == "San Antonio Spurs")
        #expect(state.status == .scheduled && state.startsAt == parseRFC3339("2017-04-13T02:30:00Z"))
    }

    @Test func convertingTwiceGivesTheSameMessagesWhichReadBack() throws {
        for game in [Self.game, Self.scheduled] + V7Game.all.map(\.file) {
            let first = try Self.convert(game)
            #expect(first == (try Self.convert(game)))
            for message in first {
                #expect(try FeedParser.parse(message.canonicalJSON()) == message)
            }
        }
    }

    @Test func detectsItsDocumentsOnly() throws {
        for game in [Self.game, Self.scheduled] + V7Game.all.map(\.file) {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(game)))
            #expect(ProviderFormats.detect(try JSONValue.parse(data))?.name == SportradarNBA.name)
        }
        let nfl = try Data(
            contentsOf: URL(fileURLWithPath: fixture("providers/sportradar-nfl/sea-at-ne-2016-11-13.json")))
        #expect(!SportradarNBA.detect(try JSONValue.parse(nfl)))
        #expect(!SportradarNBA.detect(.object(["periods": .array([])])))
    }

    /// A real v7 game (an excerpt, NOTICE.md) and what it folds to, literally.
    struct V7Game: CustomTestStringConvertible, Sendable {
        let file: String
        let id: String
        let home: (code: String, name: String)
        let away: (code: String, name: String)
        let final: (home: Int, away: Int)
        let label: String
        let lines: [String]
        /// The first four and the last scoring entries: period, clock, kind, running score, shooter.
        let first: [String]
        let last: String
        /// Two-point, three-point and free-throw entries.
        let kinds: (two: Int, three: Int, freeThrow: Int)
        /// The events that state a running score.
        let stated: Int
        var testDescription: String { file }

        static let all = [
            V7Game(
                file: "uta-at-hou-2022-03-02", id: "cd30239b-88aa-4ec5-953e-e262d9b5e7d7",
                home: ("HOU", "Houston Rockets"), away: ("UTA", "Utah Jazz"), final: (127, 132), label: "Final/OT",
                lines: ["Q1 20-25", "Q2 33-41", "Q3 30-27", "Q4 34-24", "OT 10-15"],
                first: [
                    "1 11:25 three 3-0 Garrison Mathews", "1 10:25 two 3-2 Donovan Mitchell",
                    "1 9:56 three 6-2 Kenyon Martin Jr.", "1 9:13 two 6-4 Rudy Gobert",
                ],
                last: "5 0:05.0 freeThrow 127-132 Mike Conley", kinds: (57, 36, 37), stated: 137),
            V7Game(
                file: "okc-at-uta-2021-10-20", id: "8fddc7f8-c12d-4158-92e3-fc55e28afdca",
                home: ("UTA", "Utah Jazz"), away: ("OKC", "Oklahoma City Thunder"), final: (107, 86), label: "Final",
                lines: ["Q1 27-18", "Q2 27-24", "Q3 29-21", "Q4 24-23"],
                first: [
                    "1 11:22 two 0-2 Shai Gilgeous-Alexander", "1 11:12 three 3-2 Mike Conley",
                    "1 10:47 two 5-2 Rudy Gobert", "1 9:57 two 7-2 Bojan Bogdanovic",
                ],
                last: "4 0:49.0 freeThrow 107-86 Elijah Hughes", kinds: (53, 21, 24), stated: 103),
        ]
    }

    /// Issue 27 point 2: each real v7 game folds to its document's own figures: the final
    /// (`home.points`/`away.points`), the line score (`periods[].scoring`), the scoring list (every made
    /// shot's event, team, points and shooter) and every running score an event states.
    @Test(arguments: V7Game.all)
    func aRealV7GameFoldsToTheDocumentsOwnFigures(_ game: V7Game) throws {
        let official = try SportradarNBAOfficial(Self.path(game.file))
        let messages = try Self.convert(game.file)
        let state = try Self.fold(messages)
        #expect(official.id == game.id && state.gameId == "sr-nba-" + official.id)
        #expect(state.home.code == game.home.code && state.home.name == game.home.name)
        #expect(state.away.code == game.away.code && state.away.name == game.away.name)
        #expect(state.sport == .basketball && state.rules.competition == "nba")
        #expect(state.status == .closed && state.periodLabel == game.label)
        // The final, literal and home.points / away.points, with no correction needed.
        #expect(state.homeScore == game.final.home && state.awayScore == game.final.away)
        #expect(state.homeScore == official.home.points && state.awayScore == official.away.points)
        #expect(!messages.contains { $0.event.type == "score.corrected" })
        // The line score: literal, and periods[].scoring.
        #expect(state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == game.lines)
        #expect(state.periods.map { [$0.home, $0.away] } == official.periods.map { [$0.home, $0.away] })
        // The scoring list: every made shot and free throw, its side, points and shooter.
        let scoring = state.scoring.elements
        #expect(scoring.count == official.scoring.count)
        #expect(scoring.count == game.kinds.two + game.kinds.three + game.kinds.freeThrow)
        for (entry, play) in zip(scoring, official.scoring) {
            let side = play.team == official.home.id ? "home" : "away"
            #expect(
                "\(entry.id) \(entry.side?.rawValue ?? "-") \(entry.points) \(entry.player ?? "-")"
                    == "sportradar-nba-\(official.id)-\(play.event) \(side) \(play.points) \(play.player)")
        }
        let literal = scoring.map {
            "\($0.period) \($0.clock ?? "-") \($0.kind) \($0.homeScore)-\($0.awayScore) \($0.player ?? "-")"
        }
        #expect(Array(literal.prefix(4)) == game.first && literal.last == game.last)
        #expect(scoring.filter { $0.kind == .two }.count == game.kinds.two)
        #expect(scoring.filter { $0.kind == .three }.count == game.kinds.three)
        #expect(scoring.filter { $0.kind == .freeThrow }.count == game.kinds.freeThrow)
        // Every running score the document states is the fold's at that event.
        let folded = try sportradarFoldedScores(
            messages, prefix: "sportradar-nba-\(official.id)-", items: official.statedScores.map(\.event))
        #expect(folded.count == game.stated && official.statedScores.count == game.stated)
        for (at, event) in zip(folded, official.statedScores) {
            #expect("\(event.event) \(at.home)-\(at.away)" == "\(event.event) \(event.home)-\(event.away)")
        }
        #expect(official.statedScores.last.map { [$0.home, $0.away] } == [official.home.points, official.away.points])
        // Every period started and ended once, the game ended last.
        let periods = game.lines.count
        #expect(
            messages.filter { $0.event.type == "period.ended" }.map(\.event)
                == (1...periods).map { .periodEnded(period: $0) })
        #expect(messages.last?.event == .gameEnded(.closed))
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
    }

    /// A small v7 document written for the test: aliases, running scores, wall clocks, an overtime, and
    /// what the real v7 games above do not have: a stated score no one shot makes and a final that
    /// differs from the running score.
    static let overtime = """
        {"id":"test-game","status":"closed","scheduled":"2024-01-14T00:00:00+00:00",
         "home":{"alias":"BOS","name":"Celtics","market":"Boston","id":"h","points":111},
         "away":{"alias":"MIA","name":"Heat","market":"Miami","id":"a","points":108},
         "periods":[
          {"type":"quarter","number":1,"sequence":1,"events":[
            {"id":"e1","event_type":"threepointmade","clock":"11:30","wall_clock":"2024-01-14T00:10:00+00:00",
             "home_points":0,"away_points":3,"attribution":{"id":"a"},
             "statistics":[{"type":"fieldgoal","made":true,"points":3,"player":{"full_name":"Tyler Herro"}}]},
            {"id":"e2","event_type":"endperiod","clock":"0:00","wall_clock":"2024-01-14T00:30:00+00:00",
             "home_points":0,"away_points":3}]},
          {"type":"quarter","number":2,"sequence":2,"events":[
            {"id":"e3","event_type":"freethrowmade","clock":"5:00","wall_clock":"2024-01-14T00:40:00+00:00",
             "home_points":1,"away_points":3,"attribution":{"id":"h"},
             "statistics":[{"type":"freethrow","made":true,"points":1,"player":{"full_name":"Jayson Tatum"}}]}]},
          {"type":"quarter","number":3,"sequence":3,"events":[
            {"id":"e4","event_type":"twopointmade","clock":"6:00","wall_clock":"2024-01-14T01:20:00+00:00",
             "home_points":103,"away_points":103,"attribution":{"id":"h"}}]},
          {"type":"quarter","number":4,"sequence":4,"events":[
            {"id":"e5","event_type":"endperiod","clock":"0:00","wall_clock":"2024-01-14T02:00:00+00:00",
             "home_points":103,"away_points":103}]},
          {"type":"overtime","number":1,"sequence":5,"events":[
            {"id":"e6","event_type":"twopointmade","clock":"4:00","wall_clock":"2024-01-14T02:05:00+00:00",
             "home_points":105,"away_points":103,"attribution":{"id":"h"}},
            {"id":"e7","event_type":"threepointmade","clock":"3:00","wall_clock":"2024-01-14T02:06:00+00:00",
             "home_points":105,"away_points":106,"attribution":{"id":"a"}},
            {"id":"e8","event_type":"twopointmade","clock":"2:00","wall_clock":"2024-01-14T02:07:00+00:00",
             "home_points":107,"away_points":106,"attribution":{"id":"h"}},
            {"id":"e9","event_type":"endperiod","clock":"0:00","wall_clock":"2024-01-14T02:10:00+00:00",
             "home_points":107,"away_points":106}]}]}
        """

    @Test func overtimeRunningScoresAndCorrectionsOnAWrittenV7Document() throws {
        let messages = try ProviderFormats.convert([Data(Self.overtime.utf8)], format: nil).messages
        let state = try Self.fold(messages)
        #expect(state.status == .closed && state.periodLabel == "Final/OT")
        #expect(state.home.code == "BOS" && state.home.name == "Boston Celtics")
        // The running score reaches 107-106; home.points/away.points (111-108) win at the end.
        #expect(messages.contains { $0.event == .scoreCorrected(homeScore: 103, awayScore: 103) })
        #expect(messages.contains { $0.event == .scoreCorrected(homeScore: 111, awayScore: 108) })
        #expect(state.homeScore == 111 && state.awayScore == 108)
        #expect(
            state.scoring.elements.filter { $0.kind != .correction }.map {
                "\($0.period) \($0.clock ?? "-") \($0.side?.rawValue ?? "-") \($0.kind) \($0.player ?? "-")"
            } == [
                "1 11:30 away three Tyler Herro", "2 5:00 home freeThrow Jayson Tatum", "5 4:00 home two -",
                "5 3:00 away three -", "5 2:00 home two -",
            ])
        #expect(messages.contains { $0.event == .periodStarted(period: 5, kind: .overtime) })
        #expect(messages.first { $0.id == "sportradar-nba-test-game-e1" }?.at == parseRFC3339("2024-01-14T00:10:00Z"))
        #expect(
            messages.suffix(2).map(\.event) == [.scoreCorrected(homeScore: 111, awayScore: 108), .gameEnded(.closed)])
    }

    /// Issue 27 point 1: nba-t3 has no wall clock, so every message of the played game but
    /// `game.scheduled` (at the stated `scheduled`) is marked derived; the pre-game document's only
    /// message is not.
    @Test func nbaT3TimesAreMarkedDerived() throws {
        let messages = try Self.convert(Self.game)
        #expect(messages.count == 113)
        #expect(messages.first?.event.type == "game.scheduled" && messages.first?.atDerived == false)
        #expect(messages.first?.at == parseRFC3339("2017-01-21T00:00:00Z"))
        #expect(messages.dropFirst().allSatisfy { $0.atDerived })
        #expect(try Self.convert(Self.scheduled).map { $0.atDerived } == [false])
        for game in [Self.game, Self.scheduled] {
            let first = try Self.convert(game)
            let again = try Self.convert(game)
            #expect(again == first && again.map { $0.canonicalJSON() } == first.map { $0.canonicalJSON() })
        }
    }

    /// v7: an event's messages are at its `wall_clock`, unmarked; an event without one, or with one
    /// earlier than the time before (not taken), and the end the status gives after the last event keep
    /// the time before them, marked derived.
    @Test func v7WallClocksAreStatedAndTheRestDerived() throws {
        let prefix = "sportradar-nba-test-game-"
        let messages = try ProviderFormats.convert([Data(Self.overtime.utf8)], format: nil).messages
        #expect(messages.filter { $0.atDerived }.map { $0.id.dropFirst(prefix.count) } == ["corrected", "ended"])
        #expect(messages.suffix(2).allSatisfy { $0.at == parseRFC3339("2024-01-14T02:10:00Z") })
        let edited = Self.overtime.replacingOccurrences(
            of: #""clock":"5:00","wall_clock":"2024-01-14T00:40:00+00:00","#, with: #""clock":"5:00","#
        ).replacingOccurrences(of: "2024-01-14T02:06:00+00:00", with: "2024-01-14T02:04:00+00:00")
        let marked = try ProviderFormats.convert([Data(edited.utf8)], format: nil).messages
        #expect(
            marked.filter { $0.atDerived }.map { $0.id.dropFirst(prefix.count) } == [
                "e3-period", "e3", "e7", "corrected", "ended",
            ])
        #expect(marked.first { $0.id == prefix + "e3" }?.at == parseRFC3339("2024-01-14T00:30:00Z"))
        #expect(marked.first { $0.id == prefix + "e7" }?.at == parseRFC3339("2024-01-14T02:05:00Z"))
        #expect(try ProviderFormats.convert([Data(edited.utf8)], format: nil).messages == marked)
    }

    static func failure(_ text: String) -> ConvertError? {
        do {
            _ = try ProviderFormats.convert([Data(text.utf8)], format: SportradarNBA.self)
            return nil
        } catch { return error }
    }

    @Test func aWrongOrTruncatedDocumentNamesTheFormatAndTheField() throws {
        let noType = Self.overtime.replacingOccurrences(of: "\"event_type\":\"freethrowmade\",", with: "")
        #expect(
            Self.failure(noType)?.description
                == "sportradar-nba: field \"periods[1].events[0].event_type\": missing (a string expected)")
        let half = Self.overtime.replacingOccurrences(
            of: "\"type\":\"quarter\",\"number\":3", with: "\"type\":\"half\",\"number\":3")
        #expect(
            Self.failure(half)?.description
                == "sportradar-nba: field \"periods[2].number\": a quarter 1-4 or an overtime 1-95 expected, found half 3"
        )
        let stranger = Self.overtime.replacingOccurrences(
            of: "\"attribution\":{\"id\":\"a\"},\n", with: "\"attribution\":{\"id\":\"x\"},\n")
        let noPoints = stranger.replacingOccurrences(
            of: "\"home_points\":0,\"away_points\":3,\"attribution\"", with: "\"attribution\"")
        #expect(
            Self.failure(noPoints)?.description
                == "sportradar-nba: field \"periods[0].events[0].attribution.id\": team \"x\" is neither the home team (BOS) nor the away team (MIA)"
        )
        #expect(
            Self.failure(String(Self.overtime.prefix(300)))?.description.hasPrefix(
                "sportradar-nba: document 1 is not JSON") == true)
    }
}
