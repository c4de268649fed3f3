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
        for period in try #require(root["periods"] as? [[String: Any]]) {
            let line = try #require(period["scoring"] as? [String: Any])
            periods.append(
                (
                    try #require((line["home"] as? [String: Any])?["points"] as? Int),
                    try #require((line["away"] as? [String: Any])?["points"] as? Int)
                ))
            for event in try #require(period["events"] as? [[String: Any]]) {
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
        for game in [Self.game, Self.scheduled] {
            let first = try Self.convert(game)
            #expect(first == (try Self.convert(game)))
            for message in first {
                #expect(try FeedParser.parse(message.canonicalJSON()) == message)
            }
        }
    }

    @Test func detectsItsDocumentsOnly() throws {
        for game in [Self.game, Self.scheduled] {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(game)))
            #expect(ProviderFormats.detect(try JSONValue.parse(data))?.name == SportradarNBA.name)
        }
        let nfl = try Data(
            contentsOf: URL(fileURLWithPath: fixture("providers/sportradar-nfl/sea-at-ne-2016-11-13.json")))
        #expect(!SportradarNBA.detect(try JSONValue.parse(nfl)))
        #expect(!SportradarNBA.detect(.object(["periods": .array([])])))
    }

    /// A small v7 document written for the test (no real v7 play-by-play was found): aliases, running
    /// scores, wall clocks, an overtime, and a stated score no one shot makes.
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
