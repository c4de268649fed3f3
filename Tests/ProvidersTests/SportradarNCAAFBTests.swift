import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// The official figures of a v1 extended box score (`extended-boxscore.json` of `ncaafb-t1`), read with
/// Foundation's JSON reader: each team's `points` and `scoring` per quarter, and `scoring_drives` with
/// their `scores`.
struct SportradarNCAAFBBoxScore {
    let home: (alias: String, points: Int, quarters: [Int])
    let away: (alias: String, points: Int, quarters: [Int])
    /// Every score of every scoring drive, in order: (drive team, score id, team, type, points).
    let scores: [(driveTeam: String, id: String, team: String, type: String, points: Int)]

    init(_ path: String) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        func team(_ key: String) throws -> (String, Int, [Int]) {
            let node = try #require(root[key] as? [String: Any])
            let quarters = try #require(node["scoring"] as? [[String: Any]]).map { $0["points"] as? Int ?? -1 }
            return (try #require(node["id"] as? String), try #require(node["points"] as? Int), quarters)
        }
        home = try team("home_team")
        away = try team("away_team")
        var scores: [(String, String, String, String, Int)] = []
        for drive in try #require(root["scoring_drives"] as? [[String: Any]]) {
            for score in try #require(drive["scores"] as? [[String: Any]]) {
                scores.append(
                    (
                        try #require(drive["team"] as? String), try #require(score["id"] as? String),
                        try #require(score["team"] as? String), try #require(score["type"] as? String),
                        try #require(score["points"] as? Int)
                    ))
            }
        }
        self.scores = scores.map { (driveTeam: $0.0, id: $0.1, team: $0.2, type: $0.3, points: $0.4) }
    }
}

@Suite("sportradar-ncaafb: Sportradar NCAA football play-by-play")
struct SportradarNCAAFBTests {
    static let asuAtAri = "asu-at-ari-2016-11-25"
    static let nwAtIow = "nw-at-iow-2014-11-01"
    static func path(_ name: String) -> String { fixture("providers/sportradar-ncaafb/\(name).json") }

    static func convert(_ game: String) throws -> [FeedMessage] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(game)))
        return try ProviderFormats.convert([data], format: SportradarNCAAFB.self).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    @Test func arizonaStateAtArizonaFoldsToTheDocumentsAndTheBoxScoresFigures() throws {
        let official = try SportradarV1Official(Self.path(Self.asuAtAri))
        let box = try SportradarNCAAFBBoxScore(Self.path(Self.asuAtAri + ".extended-boxscore"))
        let state = try Self.fold(try Self.convert(Self.asuAtAri))
        official.check(state, format: SportradarNCAAFB.name)
        #expect(state.gameId == "sr-ncaafb-f8ac7454-980d-496a-99af-5824d5f3eea2")
        #expect(state.home.name == "Arizona Wildcats" && state.away.name == "Arizona State Sun Devils")
        #expect(state.sport == .football && state.rules.competition == "ncaa-football")
        #expect(state.homeScore == 56 && state.awayScore == 35)
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["Q1 7-7", "Q2 21-7", "Q3 14-14", "Q4 14-7"])
        // The extended box score of the same game: final, line score, and every score of its scoring drives.
        #expect(state.homeScore == box.home.points && state.awayScore == box.away.points)
        #expect(state.periods.map(\.home) == box.home.quarters && state.periods.map(\.away) == box.away.quarters)
        let scoring = state.scoring.elements
        #expect(scoring.count == box.scores.count)
        for (entry, score) in zip(scoring, box.scores) {
            #expect(entry.id == "sportradar-ncaafb-\(official.id)-\(score.id)")
            #expect(entry.side == (score.team == box.home.alias ? .home : .away) && entry.points == score.points)
        }
        // The trap: the fumble returned for a touchdown is ASU's points on ARI's drive (the box score lists
        // it under ARI's scoring drive); the play's `score.team` wins.
        let fumble = try #require(box.scores.first { $0.id == "02bbe676-0c86-4691-9008-9d1165fd6c46" })
        #expect(fumble.driveTeam == "ARI" && fumble.team == "ASU")
        let returned = try #require(scoring.first { $0.id.hasSuffix(fumble.id) })
        #expect(returned.side == .away && returned.kind == .touchdown && returned.player == "Koron Crump")
        #expect("\(returned.homeScore)-\(returned.awayScore)" == "7-6")
    }

    @Test func northwesternAtIowaFoldsToTheDocumentsFigures() throws {
        let official = try SportradarV1Official(Self.path(Self.nwAtIow))
        let messages = try Self.convert(Self.nwAtIow)
        let state = try Self.fold(messages)
        official.check(state, format: SportradarNCAAFB.name)
        #expect(state.home.code == "IOW" && state.away.code == "NW")
        #expect(state.homeScore == 48 && state.awayScore == 7)
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["Q1 24-0", "Q2 14-7", "Q3 0-0", "Q4 10-0"])
        // A blocked punt returned for a touchdown: the returner of the scoring side, on NW's drive.
        let blocked = try #require(official.scores.first { $0.driveTeam == "NW" && $0.team == "IOW" })
        let entry = try #require(state.scoring.elements.first { $0.id.hasSuffix(blocked.id) })
        #expect(entry.player == "Ben Niemann" && entry.kind == .touchdown && entry.side == .home)
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
    }

    @Test func convertingTwiceGivesTheSameMessagesWhichReadBack() throws {
        for game in [Self.asuAtAri, Self.nwAtIow] {
            let first = try Self.convert(game)
            #expect(first == (try Self.convert(game)))
            for message in first { #expect(try FeedParser.parse(message.canonicalJSON()) == message) }
        }
    }

    /// Issue 27 point 1: the v1 documents have no wall clock, so every message but `game.scheduled` (at
    /// the stated `scheduled`) is marked derived, the same way on every conversion.
    @Test func theOlderShapesTimesAreAllMarkedDerived() throws {
        for (game, scheduled, count) in [
            (Self.asuAtAri, "2016-11-26T02:30:00Z", 205), (Self.nwAtIow, "2014-11-01T16:00:00Z", 178),
        ] {
            let messages = try Self.convert(game)
            #expect(messages.count == count)
            #expect(messages.first?.event.type == "game.scheduled" && messages.first?.atDerived == false)
            #expect(messages.first?.at == parseRFC3339(scheduled))
            #expect(messages.dropFirst().allSatisfy { $0.atDerived })
            let again = try Self.convert(game)
            #expect(again == messages && again.map { $0.canonicalJSON() } == messages.map { $0.canonicalJSON() })
        }
    }

    @Test func detectsCollegeGamesOfEitherShape() throws {
        for game in [Self.asuAtAri, Self.nwAtIow] {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(game)))
            #expect(ProviderFormats.detect(try JSONValue.parse(data))?.name == SportradarNCAAFB.name)
        }
        let written = try JSONValue.parse(Data(Self.overtime.utf8))
        #expect(ProviderFormats.detect(written)?.name == SportradarNCAAFB.name)
        #expect(!SportradarNCAAFB.detect(.object(["quarters": .array([])])))
    }

    /// A small v7-shape document written for the test (no real v7 NCAA football document was found): two
    /// overtimes, untimed, decided by a two-point conversion.
    static let overtime = """
        {"id":"test-ncaafb","status":"closed","scheduled":"2024-09-07T16:00:00+00:00",
         "summary":{"season":{"type":"REG"},"home":{"alias":"UGA","name":"Bulldogs","market":"Georgia","points":20},
                    "away":{"alias":"ALA","name":"Crimson Tide","market":"Alabama","points":16}},
         "periods":[
          {"period_type":"quarter","number":1,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p1","play_type":"field_goal","clock":"10:00","home_points":3,"away_points":0,
             "wall_clock":"2024-09-07T16:10:00+00:00","start_situation":{"possession":{"alias":"UGA"}}}]}]},
          {"period_type":"quarter","number":2,"pbp":[{"type":"event","id":"e2","event_type":"period_end"}]},
          {"period_type":"quarter","number":3,"pbp":[{"type":"event","id":"e3","event_type":"period_end"}]},
          {"period_type":"quarter","number":4,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p2","play_type":"field_goal","clock":"0:30","home_points":3,"away_points":3,
             "start_situation":{"possession":{"alias":"ALA"}}}]}]},
          {"period_type":"overtime","number":1,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p3","play_type":"pass","clock":"15:00","home_points":9,"away_points":3,
             "start_situation":{"possession":{"alias":"UGA"}}},
            {"type":"play","id":"p4","play_type":"extra_point","clock":"15:00","home_points":10,"away_points":3,
             "start_situation":{"possession":{"alias":"UGA"}}}]},
            {"type":"drive","events":[
            {"type":"play","id":"p5","play_type":"rush","clock":"15:00","home_points":10,"away_points":9,
             "start_situation":{"possession":{"alias":"ALA"}}},
            {"type":"play","id":"p6","play_type":"extra_point","clock":"15:00","home_points":10,"away_points":10,
             "start_situation":{"possession":{"alias":"ALA"}}}]}]},
          {"period_type":"overtime","number":2,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p7","play_type":"pass","clock":"15:00","home_points":16,"away_points":10,
             "start_situation":{"possession":{"alias":"UGA"}}},
            {"type":"play","id":"p8","play_type":"conversion","clock":"15:00","home_points":18,"away_points":10,
             "start_situation":{"possession":{"alias":"UGA"}}}]},
            {"type":"drive","events":[
            {"type":"play","id":"p9","play_type":"pass","clock":"15:00","home_points":18,"away_points":16,
             "start_situation":{"possession":{"alias":"ALA"}}},
            {"type":"play","id":"p10","play_type":"conversion","clock":"15:00","home_points":20,"away_points":16,
             "wall_clock":"2024-09-07T19:40:00+00:00","start_situation":{"possession":{"alias":"ALA"}}}]},
            {"type":"event","id":"e1","event_type":"game_over","clock":"00:00"}]}]}
        """

    @Test func untimedOvertimesOnAWrittenV7Document() throws {
        let messages = try ProviderFormats.convert([Data(Self.overtime.utf8)], format: nil).messages
        #expect(messages.first?.gameId == "sr-ncaafb-test-ncaafb")
        let state = try Self.fold(messages)
        #expect(state.rules.competition == "ncaa-football")
        #expect(state.status == .closed && state.periodLabel == "Final/2OT")
        #expect(state.homeScore == 20 && state.awayScore == 16)
        #expect(!messages.contains { $0.event.type == "score.corrected" })
        #expect(
            state.scoring.elements.map { "\($0.period) \($0.clock ?? "-") \($0.side?.rawValue ?? "-") \($0.kind)" } == [
                "1 10:00 home fieldGoal", "4 0:30.0 away fieldGoal", "5 - home touchdown", "5 - home extraPoint",
                "5 - away touchdown", "5 - away extraPoint", "6 - home touchdown", "6 - home twoPointConversion",
                "6 - away touchdown", "6 - home defensiveConversion",
            ])
        #expect(messages.contains { $0.event == .periodStarted(period: 6, kind: .overtime) })
        // Only p1 and p10 state a wall clock; every other play and event keeps the time before it (derived).
        #expect(
            messages.filter { !$0.atDerived }.map { $0.id.dropFirst("sportradar-ncaafb-test-ncaafb-".count) } == [
                "scheduled", "started", "p1", "p10",
            ])
        // A stated final the plays do not make: the summary's points are the official total, so the
        // difference becomes a score.corrected before the end (the scoring list stays the plays').
        let unmade = Self.overtime.replacingOccurrences(
            of: "\"Alabama\",\"points\":16", with: "\"Alabama\",\"points\":17")
        let corrected = try ProviderFormats.convert([Data(unmade.utf8)], format: nil).messages
        #expect(
            corrected.suffix(3).map(\.event) == [
                .scoreCorrected(homeScore: 20, awayScore: 17), .periodEnded(period: 6), .gameEnded(.closed),
            ])
        #expect(try Self.fold(corrected).awayScore == 17)
    }

    static func failure(_ text: String) -> ConvertError? {
        do {
            _ = try ProviderFormats.convert([Data(text.utf8)], format: SportradarNCAAFB.self)
            return nil
        } catch { return error }
    }

    @Test func aWrongOrTruncatedDocumentNamesTheFormatAndTheField() throws {
        let text = try String(contentsOfFile: Self.path(Self.nwAtIow), encoding: .utf8)
        let touchdown = "\"type\": \"touchdown\",\n        \"points\": 6,\n        \"team\": \"IOW\""
        #expect(text.contains(touchdown))
        let wrongTeam = try #require(
            Self.failure(
                text.replacingOccurrences(of: touchdown, with: touchdown.replacingOccurrences(of: "IOW", with: "ISU"))))
        #expect(
            wrongTeam.format == "sportradar-ncaafb" && wrongTeam.field == "quarters[0].pbp[1].actions[5].score.team")
        #expect(wrongTeam.reason.contains("neither the home team (IOW) nor the away team (NW)"))
        let badClock = text.replacingOccurrences(of: "\"clock\": \"13:18\"", with: "\"clock\": \"13.18\"")
        #expect(Self.failure(badClock)?.field == "quarters[0].pbp[1].actions[5].clock")
        let fieldGoalOfSix = try #require(
            Self.failure(
                text.replacingOccurrences(
                    of: touchdown, with: touchdown.replacingOccurrences(of: "\"touchdown\"", with: "\"fieldgoal\""))))
        #expect(fieldGoalOfSix.field == "quarters[0].pbp[1].actions[5].score.type")
        #expect(fieldGoalOfSix.reason == "\"fieldgoal\" does not score 6")
        let data = Data(text.utf8)
        let truncated = try #require(Self.failure(String(decoding: data.prefix(data.count / 2), as: UTF8.self)))
        #expect(truncated.format == "sportradar-ncaafb" && truncated.reason.contains("not JSON"))
    }
}
