import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// Sportmonks Football API 3.0 fixtures (fixtures/providers/sportmonks-v3, NOTICE.md there): two real
/// fixture documents converted and folded, checked against the document's own figures (its `scores`,
/// each goal's stated `result`, its cards) read with Foundation's JSON reader, not the converter.
/// API 2.0 has its own tests (SportmonksV2Tests, SportmonksV2TrapTests).
@Suite("Sportmonks API v3: a fixture with participants, scores and events to canonical messages")
struct SportmonksTests {
    static let manUtdVilla = "fixture-19135043-excerpt.json"
    static let liverpoolWestHam = "fixture-19427161-excerpt.json"
    static let both = [manUtdVilla, liverpoolWestHam]

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: fixture("providers/sportmonks-v3/\(name)")))
    }

    static func convert(_ bytes: Data) throws -> [FeedMessage] {
        try ProviderFormats.convert([bytes], format: SportmonksV3.self).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    /// The fixture object of a document (`data`, or the document itself), as Foundation reads it.
    static func object(_ bytes: Data) throws -> [String: Any] {
        let document = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        return document["data"] as? [String: Any] ?? document
    }

    /// The document's own figures.
    struct Official {
        /// `scores` by description: (home, away).
        var scores: [String: (home: Int, away: Int)] = [:]
        /// Goals, own goals and scored penalties in match-minute order: type, player, minute text, result.
        var goals: [(type: Int, player: String, minute: String, result: String)] = []
        var cards = 0
        var sendingsOff = (home: 0, away: 0)

        init(_ bytes: Data) throws {
            let fixture = try SportmonksTests.object(bytes)
            var homeId = 0
            for case let team as [String: Any] in fixture["participants"] as? [Any] ?? [] {
                if (team["meta"] as? [String: Any])?["location"] as? String == "home" {
                    homeId = team["id"] as? Int ?? 0
                }
            }
            for case let entry as [String: Any] in fixture["scores"] as? [Any] ?? [] {
                let description = try #require(entry["description"] as? String)
                let score = try #require(entry["score"] as? [String: Any])
                var tally = scores[description] ?? (0, 0)
                if score["participant"] as? String == "home" {
                    tally.home = try #require(score["goals"] as? Int)
                } else {
                    tally.away = try #require(score["goals"] as? Int)
                }
                scores[description] = tally
            }
            var events = (fixture["events"] as? [[String: Any]] ?? []).map { event in
                (event, (event["minute"] as? Int ?? 0) * 100 + (event["extra_minute"] as? Int ?? 0))
            }
            events.sort { $0.1 < $1.1 }
            for (event, _) in events {
                let type = event["type_id"] as? Int ?? 0
                let minute = event["minute"] as? Int ?? 0
                let extra = event["extra_minute"] as? Int
                let text = extra.map { "\(minute)+\($0)'" } ?? "\(minute)'"
                if [14, 15, 16].contains(type) {
                    goals.append(
                        (type, event["player_name"] as? String ?? "", text, event["result"] as? String ?? ""))
                }
                if [19, 20, 21].contains(type), event["rescinded"] as? Bool != true {
                    cards += 1
                    if type != 19 {
                        if event["participant_id"] as? Int == homeId {
                            sendingsOff.home += 1
                        } else {
                            sendingsOff.away += 1
                        }
                    }
                }
            }
        }

        func score(_ description: String) throws -> (home: Int, away: Int) {
            try #require(scores[description])
        }
    }

    // MARK: Both real games against their own figures

    @Test(arguments: both)
    func foldsToTheStatedFinalAndHalves(_ name: String) throws {
        let bytes = try Self.data(name)
        let official = try Official(bytes)
        let state = try Self.fold(try Self.convert(bytes))
        let current = try official.score("CURRENT")
        let first = try official.score("1ST_HALF")
        let second = try official.score("2ND_HALF_ONLY")
        #expect((state.homeScore, state.awayScore) == current)
        // 2ND_HALF is the score at full time; 2ND_HALF_ONLY the second half's goals.
        #expect(try official.score("2ND_HALF") == current)
        #expect((first.home + second.home, first.away + second.away) == current)
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == [
                "1st Half \(first.home)-\(first.away)", "2nd Half \(second.home)-\(second.away)",
            ])
        #expect(state.status == .closed && state.periodLabel == "Final")
        #expect(state.shootout == nil)
        #expect(state.rules.competition == "league-soccer")
    }

    @Test(arguments: both)
    func scoringListIsTheDocumentsGoalsWithTheirStatedRunningScores(_ name: String) throws {
        let bytes = try Self.data(name)
        let official = try Official(bytes)
        let plays = try Self.fold(try Self.convert(bytes)).scoring.elements
        #expect(plays.count == official.goals.count)
        let kinds: [Int: ScoringKind] = [14: .goal, 15: .ownGoal, 16: .penalty]
        #expect(plays.map(\.kind) == official.goals.map { kinds[$0.type] })
        #expect(plays.map(\.player) == official.goals.map(\.player))
        #expect(plays.map(\.clock) == official.goals.map(\.minute))
        #expect(plays.map { "\($0.homeScore)-\($0.awayScore)" } == official.goals.map(\.result))
    }

    @Test(arguments: both)
    func cardsAreTheDocumentsCards(_ name: String) throws {
        let bytes = try Self.data(name)
        let official = try Official(bytes)
        let state = try Self.fold(try Self.convert(bytes))
        #expect(state.cards.elements.count == official.cards)
        #expect(state.redCards == SideTally(home: official.sendingsOff.home, away: official.sendingsOff.away))
    }

    @Test func manUtdVillaTeamsRedCardPenaltyAndStoppageMinutes() throws {
        let state = try Self.fold(try Self.convert(try Self.data(Self.manUtdVilla)))
        #expect(state.gameId == "sportmonks-19135043")
        #expect(state.home.code == "MUN" && state.home.name == "Manchester United")
        #expect(state.away.code == "AVL" && state.away.name == "Aston Villa")
        #expect(state.startsAt == parseRFC3339("2025-05-25T15:00:00Z"))
        #expect((state.homeScore, state.awayScore) == (2, 0))
        let plays = state.scoring.elements
        #expect(plays.map(\.player) == ["Amad", "Christian Eriksen"])
        #expect(plays.map(\.kind) == [.goal, .penalty])
        #expect(plays.map(\.clock) == ["76'", "87'"])
        // Emiliano Martínez, sent off in the first half's stoppage time (45 + 1).
        let red = try #require(state.cards.elements.first { $0.card == .red })
        #expect(red.player == "Emiliano Martínez" && red.side == .away && red.clock == "45+1'" && red.period == 1)
        #expect(state.redCards == SideTally(home: 0, away: 1))
        #expect(state.cards.elements.last?.clock == "90+4'")
    }

    @Test func liverpoolWestHamOwnGoalAndEventsOutOfOrder() throws {
        let bytes = try Self.data(Self.liverpoolWestHam)
        let messages = try Self.convert(bytes)
        let state = try Self.fold(messages)
        #expect(state.gameId == "sportmonks-19427161")
        #expect(state.home.code == "LIV" && state.away.name == "West Ham United")
        #expect((state.homeScore, state.awayScore) == (5, 2))
        let plays = state.scoring.elements
        #expect(plays.last?.kind == .ownGoal && plays.last?.player == "Axel Disasi" && plays.last?.side == .home)
        // The document lists an 82nd-minute own goal second and the 5th-minute goal fifth: game order is
        // the minute's, not the array's nor the ids'.
        let ids = try Self.object(bytes)["events"] as? [[String: Any]] ?? []
        #expect(ids.first?["id"] as? Int == 156_082_278)
        #expect(plays.map(\.id).first == "sportmonks-v3-19427161-156077580")
    }

    @Test(arguments: both)
    func timesAreDerivedFromTheKickOffAndTheMatchMinute(_ name: String) throws {
        let messages = try Self.convert(try Self.data(name))
        let kickOff = try #require(messages.first?.at)
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        guard case .gameScheduled(_, _, let startsAt, _) = messages[0].event else {
            Issue.record("the first message is not game.scheduled")
            return
        }
        #expect(startsAt == kickOff)
        // A second-half event at minute m: the kick-off, the 15-minute half-time break, and m - 1 minutes.
        var period = 0
        for message in messages {
            if case .periodStarted(let number, _) = message.event { period = number }
            guard period == 2, case .pointsScored(let play) = message.event, let ms = play.clockMs else { continue }
            #expect(message.at == kickOff.addingTimeInterval(15 * 60 + Double(ms) / 1000))
        }
    }

    /// Issue 27 point 1: no event states a wall clock, so every message but `game.scheduled` (at the
    /// stated `starting_at`) is marked derived, the same way on every conversion.
    @Test(arguments: zip(both, ["2025-05-25T15:00:00Z", "2026-02-28T15:00:00Z"]))
    func everyTimeButTheScheduledOneIsMarkedDerived(_ name: String, _ startingAt: String) throws {
        let bytes = try Self.data(name)
        let messages = try Self.convert(bytes)
        #expect(messages.count > 10)
        #expect(messages.first?.event.type == "game.scheduled" && messages.first?.atDerived == false)
        #expect(messages.first?.at == parseRFC3339(startingAt))
        #expect(!messages[0].canonicalJSON().contains("atDerived"))
        #expect(messages.dropFirst().allSatisfy { $0.atDerived })
        #expect(messages.dropFirst().allSatisfy { $0.canonicalJSON().contains(#""atDerived":true"#) })
        let again = try Self.convert(bytes)
        #expect(again == messages && again.map { $0.canonicalJSON() } == messages.map { $0.canonicalJSON() })
    }

    @Test(arguments: both)
    func convertingTwiceGivesTheSameMessagesAndAutoDetects(_ name: String) throws {
        let bytes = try Self.data(name)
        let first = try Self.convert(bytes)
        #expect(first == (try Self.convert(bytes)))
        #expect(Set(first.map(\.id)).count == first.count)
        #expect(first.allSatisfy { $0.id.hasPrefix("sportmonks-v3-") && $0.gameId == first[0].gameId })
        let auto = try ProviderFormats.convert([bytes], format: nil)
        #expect(auto.format.name == "sportmonks-v3")
        #expect(auto.messages == first)
    }

    // MARK: Traps, on the real documents edited

    /// The document `name` with `edit` applied to its fixture object.
    static func edited(_ name: String, _ edit: (inout [String: Any]) throws -> Void) throws -> Data {
        let document = try #require(try JSONSerialization.jsonObject(with: try data(name)) as? [String: Any])
        if var fixture = document["data"] as? [String: Any] {
            try edit(&fixture)
            return try JSONSerialization.data(withJSONObject: ["data": fixture])
        }
        var fixture = document
        try edit(&fixture)
        return try JSONSerialization.data(withJSONObject: fixture)
    }

    static func events(_ fixture: [String: Any]) -> [[String: Any]] { fixture["events"] as? [[String: Any]] ?? [] }

    @Test func oneGoalRecordedTwiceCountsOnce() throws {
        let bytes = try Self.edited(Self.manUtdVilla) { fixture in
            var events = Self.events(fixture)
            var copy = try #require(events.first { $0["type_id"] as? Int == 14 })
            copy["id"] = 150_479_703
            events.append(copy)
            fixture["events"] = events
        }
        let state = try Self.fold(try Self.convert(bytes))
        #expect((state.homeScore, state.awayScore) == (2, 0))
        #expect(state.scoring.elements.map(\.player) == ["Amad", "Christian Eriksen"])
    }

    @Test func anOwnGoalCreditedToThePlayersTeamGoesWhereTheStatedResultSays() throws {
        let bytes = try Self.edited(Self.liverpoolWestHam) { fixture in
            fixture["events"] = Self.events(fixture).map { event in
                var event = event
                if event["type_id"] as? Int == 15 { event["participant_id"] = 1 }
                return event
            }
        }
        let state = try Self.fold(try Self.convert(bytes))
        #expect((state.homeScore, state.awayScore) == (5, 2))
        #expect(state.scoring.elements.last?.side == .home)
    }

    @Test func aMissingGoalIsCorrectedToTheNextStatedResult() throws {
        let bytes = try Self.edited(Self.liverpoolWestHam) { fixture in
            fixture["events"] = Self.events(fixture).filter { $0["id"] as? Int != 156_080_767 }
        }
        let state = try Self.fold(try Self.convert(bytes))
        #expect((state.homeScore, state.awayScore) == (5, 2))
        #expect(state.scoring.elements.map(\.kind).filter { $0 == .correction }.count == 1)
        #expect(state.scoring.elements.map { "\($0.homeScore)-\($0.awayScore)" }.contains("4-1"))
    }

    @Test func aRescindedRedCardIsNotShown() throws {
        let bytes = try Self.edited(Self.manUtdVilla) { fixture in
            fixture["events"] = Self.events(fixture).map { event in
                var event = event
                if event["type_id"] as? Int == 20 { event["rescinded"] = true }
                return event
            }
        }
        let state = try Self.fold(try Self.convert(bytes))
        #expect(state.redCards == SideTally())
        #expect(state.cards.elements.count == 4)
    }

    /// How a written second leg tells its first leg: the `aggregate` include's `result` (in the order
    /// of its `name`), its `fixtures` with the first leg's `CURRENT` scores, or not at all.
    enum Aggregate { case result, firstLegFixture, none }

    /// Man Utd–Villa made a second leg after a 1–2 first leg at Villa Park: an away goal at 90+3 (2–1,
    /// 3–3 on aggregate), extra time without goals (with `extraTimeGoal`, Højlund at 95': 3–1), the
    /// shoot-out won 1–0 by home. The aggregate is given as Sportmonks' `aggregate` include gives it
    /// (Real Madrid–Man City 2025, aggregate 58589: `name` "first leg's home vs away", `result` in that
    /// order, `fixtures` with their `scores`).
    static func shootoutSecondLeg(
        tally: (Int, Int) = (1, 0), aggregate: Aggregate = .result, extraTimeGoal: Bool = false
    ) throws -> Data {
        try edited(manUtdVilla) { fixture in
            fixture["state_id"] = 8
            fixture["leg"] = "2/2"
            fixture["aggregate_id"] = 58_589
            var events = Self.events(fixture)
            let amad = try #require(events.first { $0["type_id"] as? Int == 14 })
            func goal(_ id: Int, _ team: Int, _ player: String, _ minute: Int, _ extra: Int?, _ result: String) {
                var goal = amad
                goal["id"] = id
                goal["participant_id"] = team
                goal["player_name"] = player
                goal["minute"] = minute
                goal["extra_minute"] = extra
                goal["result"] = result
                events.append(goal)
            }
            goal(150_490_001, 15, "Ollie Watkins", 90, 3, "2-1")
            if extraTimeGoal { goal(150_490_002, 14, "Rasmus Højlund", 95, nil, "3-1") }
            for (offset, (participant, type)) in [(14, 23), (15, 22)].enumerated() {
                var kick = amad
                kick["id"] = 150_490_010 + offset
                kick["participant_id"] = participant
                kick["type_id"] = type
                kick["minute"] = 120
                kick["result"] = nil
                events.append(kick)
            }
            fixture["events"] = events
            let current = extraTimeGoal ? (3, 1) : (2, 1)
            var scores = (fixture["scores"] as? [[String: Any]] ?? []).filter {
                $0["description"] as? String != "CURRENT"
            }
            let extraTime = extraTimeGoal ? 1 : 0
            for (side, goals, pens, inExtraTime) in [
                ("home", current.0, tally.0, extraTime), ("away", current.1, tally.1, 0),
            ] {
                scores.append(["description": "CURRENT", "score": ["goals": goals, "participant": side]])
                scores.append(["description": "PENALTY_SHOOTOUT", "score": ["goals": pens, "participant": side]])
                scores.append(["description": "EXTRA_TIME", "score": ["goals": inExtraTime, "participant": side]])
            }
            fixture["scores"] = scores
            var include: [String: Any] = [
                "id": 58_589, "name": "Aston Villa vs Manchester United", "fixture_ids": [150_000_001, 19_135_043],
                "result": "3-3", "detail": "After Penalties", "winner_participant_id": 14,
            ]
            switch aggregate {
            case .result:
                fixture["aggregate"] = include
            case .firstLegFixture:
                include["result"] = nil
                include["fixtures"] = [
                    [
                        "id": 150_000_001, "leg": "1/2", "state_id": 5, "name": "Aston Villa vs Manchester United",
                        "scores": [
                            [
                                "participant_id": 15, "score": ["goals": 2, "participant": "home"],
                                "description": "CURRENT",
                            ],
                            [
                                "participant_id": 14, "score": ["goals": 1, "participant": "away"],
                                "description": "CURRENT",
                            ],
                        ],
                    ]
                ]
                fixture["aggregate"] = include
            case .none:
                break
            }
        }
    }

    @Test(arguments: [Aggregate.result, .firstLegFixture])
    func aSecondLegLevelOnAggregateGoesToExtraTimeAndAShootout(_ aggregate: Aggregate) throws {
        let state = try Self.fold(try Self.convert(try Self.shootoutSecondLeg(aggregate: aggregate)))
        // 2–1 on the night after 1–2 at Villa Park: 3–3 on aggregate; the score is the match's own.
        #expect(state.rules.firstLeg == SideTally(home: 1, away: 2))
        #expect(state.rules.competition == "knockout-soccer" && !state.rules.tieStands)
        #expect(state.rules.overtimes == 2 && state.rules.shootout)
        #expect((state.homeScore, state.awayScore) == (2, 1))
        #expect(state.shootout == SideTally(home: 1, away: 0))
        #expect(state.periodLabel == "Final/Pens" && state.status == .closed)
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == [
                "1st Half 0-0", "2nd Half 2-1", "ET1 0-0", "ET2 0-0",
            ])
        #expect(state.scoring.elements.map(\.clock) == ["76'", "87'", "90+3'"])
        #expect(state.shootoutAttempts.elements.map(\.scored) == [true, false])
    }

    @Test func extraTimeOfASecondLegWhoseFirstLegIsUnknownIsRefused() throws {
        let bytes = try Self.shootoutSecondLeg(aggregate: .none, extraTimeGoal: true)
        #expect {
            _ = try Self.convert(bytes)
        } throws: { error in
            guard let error = error as? ConvertError else { return false }
            return error.format == "sportmonks-v3" && error.field?.hasSuffix("].minute") == true
                && error.reason.contains("match score at 2-1 and no first leg known")
        }
    }

    @Test func aSecondLegLevelOnAggregateAtTheEndWithoutAShootoutKeepsATieStanding() throws {
        // Decided on away goals (before 2021): no extra time, no shoot-out; the canonical rules have no
        // away-goals rule, so the leg is read as before, a tie that may stand, without `firstLeg`.
        let bytes = try Self.edited(Self.manUtdVilla) { fixture in
            fixture["leg"] = "2/2"
            fixture["aggregate_id"] = 58_589
            fixture["aggregate"] = ["name": "Aston Villa vs Manchester United", "result": "2-2"]
        }
        let state = try Self.fold(try Self.convert(bytes))
        #expect((state.homeScore, state.awayScore) == (2, 0))
        #expect(state.rules.firstLeg == nil && state.rules.tieStands)
    }

    @Test func aShootoutStraightAfterNinetyMinutesIsPeriodThree() throws {
        let bytes = try Self.edited(Self.manUtdVilla) { fixture in
            fixture["state_id"] = 8
            fixture["leg"] = "2/2"
            var events = Self.events(fixture).filter { $0["type_id"] as? Int != 16 }
            var kick = try #require(events.first { $0["type_id"] as? Int == 14 })
            var equaliser = kick
            equaliser["id"] = 150_490_001
            equaliser["participant_id"] = 15
            equaliser["minute"] = 90
            equaliser["extra_minute"] = 3
            equaliser["result"] = "1-1"
            events.append(equaliser)
            kick["type_id"] = 22
            kick["result"] = nil
            kick["id"] = 150_490_010
            events.append(kick)
            fixture["events"] = events
            fixture["scores"] = [
                ["description": "CURRENT", "score": ["goals": 1, "participant": "home"]],
                ["description": "CURRENT", "score": ["goals": 1, "participant": "away"]],
            ]
        }
        let state = try Self.fold(try Self.convert(bytes))
        #expect((state.homeScore, state.awayScore) == (1, 1))
        // A second leg without the aggregate include: the first leg is unknown, a tie may stand.
        #expect(state.rules.overtimes == 0 && state.rules.tieStands && state.rules.firstLeg == nil)
        #expect(state.shootout == SideTally(home: 0, away: 0))
        #expect(state.shootoutAttempts.elements.map(\.scored) == [false])
        #expect(state.periods.map(\.label) == ["1st Half", "2nd Half"])
        #expect(state.status == .closed)
    }

    @Test func aFirstLegMayEndLevel() throws {
        let bytes = try Self.edited(Self.manUtdVilla) { fixture in
            fixture["leg"] = "1/2"
            fixture["events"] = Self.events(fixture).map { event in
                var event = event
                if event["type_id"] as? Int == 16 {
                    event["participant_id"] = 15
                    event["result"] = "1-1"
                }
                return event
            }
            fixture["scores"] = [
                ["description": "CURRENT", "score": ["goals": 1, "participant": "home"]],
                ["description": "CURRENT", "score": ["goals": 1, "participant": "away"]],
            ]
        }
        let state = try Self.fold(try Self.convert(bytes))
        #expect((state.homeScore, state.awayScore) == (1, 1))
        #expect(state.rules.competition == "knockout-soccer" && state.rules.tieStands && state.rules.firstLeg == nil)
        #expect(state.status == .closed && state.periodLabel == "Final")
    }

    // MARK: Refused documents

    static func expectError(_ bytes: Data, field: String?, _ reason: String) {
        #expect {
            _ = try Self.convert(bytes)
        } throws: { error in
            guard let error = error as? ConvertError else { return false }
            return error.format == "sportmonks-v3" && error.field == field && error.reason.contains(reason)
        }
    }

    @Test func aTruncatedDocumentIsRefusedNamingTheFormat() throws {
        let bytes = try Self.data(Self.liverpoolWestHam)
        Self.expectError(bytes.prefix(bytes.count / 2), field: nil, "not JSON")
    }

    @Test func aWrongFieldIsNamed() throws {
        let unknownTeam = try Self.edited(Self.liverpoolWestHam) { fixture in
            var events = Self.events(fixture)
            events[4]["participant_id"] = 99
            fixture["events"] = events
        }
        Self.expectError(unknownTeam, field: "data.events[4].participant_id", "neither the home (8)")
        let noMinute = try Self.edited(Self.manUtdVilla) { fixture in
            var events = Self.events(fixture)
            events[0]["minute"] = nil
            fixture["events"] = events
        }
        Self.expectError(noMinute, field: "events[0].minute", "missing")
        let badResult = try Self.edited(Self.manUtdVilla) { fixture in
            fixture["events"] = Self.events(fixture).map { event in
                var event = event
                if event["type_id"] as? Int == 16 { event["result"] = "2:0" }
                return event
            }
        }
        Self.expectError(badResult, field: "events[15].result", "home-away")
        let unknownState = try Self.edited(Self.manUtdVilla) { fixture in fixture["state_id"] = 99 }
        Self.expectError(unknownState, field: "state_id", "state")
    }

    @Test func aShootoutTallyTheKicksDoNotMakeIsRefused() throws {
        let bytes = try Self.shootoutSecondLeg(tally: (4, 3))
        #expect {
            _ = try Self.convert(bytes)
        } throws: { error in
            guard let error = error as? ConvertError, let field = error.field else { return false }
            return error.format == "sportmonks-v3" && field.hasPrefix("scores[") && field.hasSuffix("].score.goals")
                && error.reason.contains("the shoot-out is 4-3")
        }
    }
}
