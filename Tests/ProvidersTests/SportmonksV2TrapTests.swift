import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// Sportmonks API 2.0: what the real documents do not show (extra time, shoot-outs, own goals, a game
/// in play, postponed), tested on them edited, and the documents the converter refuses.
@Suite("Sportmonks API v2: traps on the real documents edited, and refused documents")
struct SportmonksV2TrapTests {
    typealias V2 = SportmonksV2Tests

    /// The document `name` with `edit` applied to its `data` (a fixture, or the list of fixtures).
    static func edited(_ name: String, _ edit: (inout [[String: Any]]) throws -> Void) throws -> Data {
        var document = try #require(try JSONSerialization.jsonObject(with: try V2.data(name)) as? [String: Any])
        if let one = document["data"] as? [String: Any] {
            var fixtures = [one]
            try edit(&fixtures)
            document["data"] = fixtures[0]
        } else {
            var fixtures = try #require(document["data"] as? [[String: Any]])
            try edit(&fixtures)
            document["data"] = fixtures
        }
        return try JSONSerialization.data(withJSONObject: document)
    }

    static func events(_ fixture: [String: Any]) -> [[String: Any]] {
        (fixture["events"] as? [String: Any])?["data"] as? [[String: Any]] ?? []
    }

    static func setEvents(_ fixture: inout [String: Any], _ events: [[String: Any]]) {
        fixture["events"] = ["data": events]
    }

    /// Aberdeen–Livingston (the first fixture of the Scottish list) made a cup tie: Livingston's
    /// equaliser at 90+3 (2–2), then (`extraTime`) 30 goalless minutes, and a shoot-out Aberdeen wins 1–0.
    static func shootout(extraTime: Bool, tally: (Int, Int) = (1, 0)) throws -> Data {
        try edited(V2.scottish) { fixtures in
            var fixture = fixtures[0]
            var events = Self.events(fixture)
            let dykes = try #require(events.first { $0["result"] as? String == "2-1" })
            var equaliser = dykes
            equaliser["id"] = 11_879_658_101
            equaliser["minute"] = 90
            equaliser["extra_minute"] = 3
            equaliser["result"] = "2-2"
            events.append(equaliser)
            for (offset, (team, type)) in [("273", "pen_shootout_goal"), ("258", "pen_shootout_miss")].enumerated() {
                var kick = dykes
                kick["id"] = 11_879_658_110 + offset
                kick["team_id"] = team
                kick["type"] = type
                kick["minute"] = extraTime ? 120 : 90
                kick["result"] = ""
                events.append(kick)
            }
            Self.setEvents(&fixture, events)
            var scores = try #require(fixture["scores"] as? [String: Any])
            scores["visitorteam_score"] = 2
            scores["ft_score"] = "2-2"
            scores["et_score"] = extraTime ? "2-2" : NSNull()
            scores["ps_score"] = "\(tally.0)-\(tally.1)"
            scores["localteam_pen_score"] = tally.0
            scores["visitorteam_pen_score"] = tally.1
            fixture["scores"] = scores
            var time = try #require(fixture["time"] as? [String: Any])
            time["status"] = "FT_PEN"
            fixture["time"] = time
            fixtures = [fixture]
        }
    }

    @Test func aShootoutAfterExtraTime() throws {
        let state = try V2.fold(try V2.convert(try Self.shootout(extraTime: true)))
        #expect((state.homeScore, state.awayScore) == (2, 2))
        #expect(state.rules.competition == "knockout-soccer" && state.rules.overtimes == 2)
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == [
                "1st Half 1-0", "2nd Half 1-2", "ET1 0-0", "ET2 0-0",
            ])
        #expect(state.shootout == SideTally(home: 1, away: 0))
        #expect(state.shootoutAttempts.elements.map(\.scored) == [true, false])
        #expect(state.periodLabel == "Final/Pens" && state.status == .closed)
        #expect(state.scoring.elements.last?.clock == "90+3'")
    }

    @Test func aShootoutStraightAfterNinetyMinutes() throws {
        let state = try V2.fold(try V2.convert(try Self.shootout(extraTime: false)))
        #expect(state.rules.overtimes == 0)
        #expect(state.periods.map(\.label) == ["1st Half", "2nd Half"])
        #expect(state.shootout == SideTally(home: 1, away: 0))
        #expect(state.periodLabel == "Final/Pens")
    }

    @Test func aShootoutTallyTheKicksDoNotMakeIsRefused() throws {
        Self.expectError(
            try Self.shootout(extraTime: true, tally: (4, 3)), field: "data[0].scores.localteam_pen_score",
            "the shoot-out is 4-3, the events' kicks make 1-0")
    }

    @Test func anOwnGoalAMissedPenaltyAndAVarCheck() throws {
        let bytes = try Self.edited(V2.scottish) { fixtures in
            var events = Self.events(fixtures[1])
            // Hibernian's second goal made an own goal by a Hearts player, credited to Hibernian.
            let index = try #require(events.firstIndex { $0["result"] as? String == "0-2" })
            events[index]["type"] = "own-goal"
            var missed = events[index]
            missed["id"] = 11_879_660_101
            missed["type"] = "missed_penalty"
            missed["minute"] = 60
            missed["result"] = ""
            var check = missed
            check["id"] = 11_879_660_102
            check["type"] = "var"
            check["minute"] = 61
            events += [missed, check]
            Self.setEvents(&fixtures[1], events)
        }
        let hearts = try V2.fold(try #require(V2.games(try V2.convert(bytes)).last))
        #expect(hearts.scoring.elements.map(\.kind) == [.goal, .ownGoal])
        #expect(hearts.scoring.elements.last?.side == .away)
        #expect((hearts.homeScore, hearts.awayScore) == (0, 2))
    }

    @Test func withoutEventsTheGoalsAndCardsIncludesGiveTheSame() throws {
        let withEvents = V2.games(try V2.convert(try V2.data(V2.fixturesDate)))
        let bytes = try Self.edited(V2.fixturesDate) { fixtures in
            for index in fixtures.indices { fixtures[index]["events"] = nil }
        }
        let without = V2.games(try V2.convert(bytes))
        for (one, other) in zip(withEvents, without) {
            let (a, b) = (try V2.fold(one), try V2.fold(other))
            #expect(a.scoring.elements == b.scoring.elements)
            #expect(a.cards.elements == b.cards.elements)
        }
        #expect(without.count == 3)
    }

    @Test func aGameInPlayStaysOpen() throws {
        let bytes = try Self.edited(V2.scottish) { fixtures in
            fixtures = [fixtures[0]]
            Self.setEvents(&fixtures[0], Self.events(fixtures[0]).filter { ($0["minute"] as? Int ?? 0) < 70 })
            var time = try #require(fixtures[0]["time"] as? [String: Any])
            time["status"] = "LIVE"
            time["minute"] = 70
            fixtures[0]["time"] = time
        }
        let messages = try V2.convert(bytes)
        let state = try V2.fold(messages)
        #expect(state.status == .inprogress && state.periodNumber == 2 && !state.periodEnded)
        #expect((state.homeScore, state.awayScore) == (1, 0))
        #expect(!messages.contains { $0.event.type == "game.ended" })
    }

    @Test(arguments: [("POSTP", GameStatus.postponed), ("CANCL", .cancelled)])
    func aPostponedOrCancelledGame(_ status: String, _ ending: GameStatus) throws {
        let bytes = try Self.edited(V2.bolognaNapoli) { fixtures in
            fixtures[0]["goals"] = nil
            var time = try #require(fixtures[0]["time"] as? [String: Any])
            time["status"] = status
            fixtures[0]["time"] = time
        }
        let messages = try V2.convert(bytes)
        #expect(messages.map(\.event.type) == ["game.scheduled", "game.ended"])
        #expect(messages.last?.id == "sportmonks-v2-10420440-ended" && messages.last?.atDerived == true)
        #expect(try V2.fold(messages).status == ending)
    }

    // MARK: Refused documents

    static func expectError(_ bytes: Data, field: String?, _ reason: String) {
        #expect {
            _ = try V2.convert(bytes)
        } throws: { error in
            guard let error = error as? ConvertError else { return false }
            return error.format == "sportmonks-v2" && error.field == field && error.reason.contains(reason)
        }
    }

    @Test func aTruncatedDocumentIsRefusedNamingTheFormat() throws {
        let bytes = try V2.data(V2.scottish)
        Self.expectError(bytes.prefix(bytes.count / 2), field: nil, "not JSON")
    }

    @Test func aWrongFieldIsNamed() throws {
        let unknownTeam = try Self.edited(V2.scottish) { fixtures in
            var events = Self.events(fixtures[1])
            events[0]["team_id"] = "99"
            Self.setEvents(&fixtures[1], events)
        }
        Self.expectError(unknownTeam, field: "data[1].events.data[0].team_id", "neither the home (314)")
        let badResult = try Self.edited(V2.atleticoCelta) { fixtures in
            var events = Self.events(fixtures[0])
            events[1]["result"] = "1:0"
            Self.setEvents(&fixtures[0], events)
        }
        Self.expectError(badResult, field: "data.events.data[1].result", "home-away")
        let noMinute = try Self.edited(V2.atleticoCelta) { fixtures in
            var events = Self.events(fixtures[0])
            events[0]["minute"] = nil
            Self.setEvents(&fixtures[0], events)
        }
        Self.expectError(noMinute, field: "data.events.data[0].minute", "missing")
        let unknownStatus = try Self.edited(V2.bolognaNapoli) { fixtures in
            var time = try #require(fixtures[0]["time"] as? [String: Any])
            time["status"] = "AWARDED"
            fixtures[0]["time"] = time
        }
        Self.expectError(unknownStatus, field: "data[0].time.status", "found \"AWARDED\"")
        let noKickOff = try Self.edited(V2.atleticoCelta) { fixtures in
            var time = try #require(fixtures[0]["time"] as? [String: Any])
            time["starting_at"] = ["date_time": "2019-04-13 16:30:00"]
            fixtures[0]["time"] = time
        }
        Self.expectError(noKickOff, field: "data.time.starting_at.timestamp", "missing")
        let otherFixture = try Self.edited(V2.atleticoCelta) { fixtures in
            var events = Self.events(fixtures[0])
            events[3]["fixture_id"] = 1
            Self.setEvents(&fixtures[0], events)
        }
        // Event 3 is a substitution: its fixture is not read, the events converted are all this fixture's.
        #expect(try V2.convert(otherFixture) == V2.convert(try V2.data(V2.atleticoCelta)))
        let otherGoal = try Self.edited(V2.atleticoCelta) { fixtures in
            var events = Self.events(fixtures[0])
            events[1]["fixture_id"] = 1
            Self.setEvents(&fixtures[0], events)
        }
        Self.expectError(otherGoal, field: "data.events.data[1].fixture_id", "an event of fixture 10420715")
    }

    @Test func anEmptyListTwiceAFixtureAndTwoDocumentsAreRefused() throws {
        Self.expectError(Data(#"{"data": []}"#.utf8), field: "data", "found none")
        let twice = try Self.edited(V2.scottish) { fixtures in fixtures.append(fixtures[0]) }
        Self.expectError(twice, field: "data[2].id", "fixture 11879658 is listed twice")
        let bytes = try V2.data(V2.atleticoCelta)
        #expect {
            _ = try ProviderFormats.convert([bytes, bytes], format: SportmonksV2.self)
        } throws: { error in
            (error as? ConvertError)?.format == "sportmonks-v2"
                && (error as? ConvertError)?.reason.contains("takes one document") == true
        }
    }
}
