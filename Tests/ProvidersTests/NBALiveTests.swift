import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// A document of fixtures/providers/nba-live.
private func document(_ file: String) throws -> JSONValue {
    try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/\(file)"))))
}

private func members(_ value: JSONValue?) -> [String: JSONValue] {
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
private func edit(_ action: JSONValue, _ changes: [String: JSONValue]) -> JSONValue {
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

@Suite("nba-live: NBA live-data play-by-play and box score")
struct NBALiveTests {
    static let game = "0022000180"

    @Test("a real game (ORL at BOS, 2021-01-15) folds to the box score's and the play-by-play's figures")
    func realGame() throws {
        let pbp = try document("playbyplay_\(Self.game).json")
        let box = try document("boxscore_\(Self.game).json")
        let messages = try NBALive.convert([pbp, box])
        let states = try fold(messages)
        let final = try #require(states.last)
        let boxGame = members(members(box)["game"])
        let home = members(boxGame["homeTeam"])
        let away = members(boxGame["awayTeam"])

        #expect(final.gameId == "nba-\(Self.game)")
        #expect(final.sport == .basketball)
        #expect(final.rules.competition == "nba")
        #expect(final.status == .closed)
        #expect(final.home == Team(code: "BOS", name: "Boston Celtics", logo: ""))
        #expect(final.away == Team(code: "ORL", name: "Orlando Magic", logo: ""))
        #expect(final.startsAt == parseRFC3339(text(boxGame["gameTimeUTC"]) ?? ""))
        // The box score's finals and its first period (the published sample keeps one period).
        #expect(final.homeScore == integer(home["score"]))
        #expect(final.awayScore == integer(away["score"]))
        #expect(final.homeScore == 124 && final.awayScore == 97)
        let first = try #require(final.periods.first)
        #expect(first.home == integer(members(array(home["periods"]).first)["score"]))
        #expect(first.away == integer(members(array(away["periods"]).first)["score"]))
        // The line score: the running scores the play-by-play states at each period's end.
        #expect(final.periods.map(\.label) == ["Q1", "Q2", "Q3", "Q4"])
        #expect(final.periods.map(\.home) == [34, 26, 28, 36])
        #expect(final.periods.map(\.away) == [28, 20, 24, 25])
        // The box score's team statistics: made twos, threes and free throws are the scoring list.
        let scoring = final.scoring.elements
        let homeStats = members(home["statistics"])
        let awayStats = members(away["statistics"])
        func made(_ kind: ScoringKind, _ side: Side) -> Int {
            scoring.filter { $0.kind == kind && $0.side == side }.count
        }
        #expect(made(.two, .home) == integer(homeStats["twoPointersMade"]))
        #expect(made(.two, .away) == integer(awayStats["twoPointersMade"]))
        #expect(made(.three, .home) == integer(homeStats["threePointersMade"]))
        #expect(made(.three, .away) == integer(awayStats["threePointersMade"]))
        #expect(made(.freeThrow, .home) == integer(homeStats["freeThrowsMade"]))
        #expect(made(.freeThrow, .away) == integer(awayStats["freeThrowsMade"]))
        #expect(scoring.allSatisfy { $0.player != nil })
        // The document agrees with itself: no correction was needed.
        #expect(!messages.contains { if case .scoreCorrected = $0.event { true } else { false } })
    }

    @Test("every running score the play-by-play states is the fold's after that action")
    func runningScores() throws {
        let pbp = try document("playbyplay_\(Self.game).json")
        let messages = try NBALive.convert([pbp, try document("boxscore_\(Self.game).json")])
        let states = try fold(messages)
        // The state after the last message of each action number.
        var after: [Int: ScoreState] = [:]
        for (message, state) in zip(messages, states) {
            if let number = actionNumber(message.id) { after[number] = state }
        }
        var current = states[0]
        var checked = 0
        let actions = array(members(members(pbp)["game"])["actions"]).sorted {
            (integer(members($0)["orderNumber"]) ?? 0) < (integer(members($1)["orderNumber"]) ?? 0)
        }
        for action in actions {
            let fields = members(action)
            let number = try #require(integer(fields["actionNumber"]))
            if let state = after[number] { current = state }
            #expect(
                "\(current.homeScore)-\(current.awayScore)"
                    == "\(text(fields["scoreHome"]) ?? "?")-\(text(fields["scoreAway"]) ?? "?")",
                "action \(number)")
            checked += 1
        }
        #expect(checked == actions.count && checked > 200)
    }

    @Test("the mapping: ids from actionNumber and the edit stamp, clock, wall-clock time, kinds and players")
    func mapping() throws {
        let messages = try NBALive.convert([try document("playbyplay_\(Self.game).json")])
        #expect(Set(messages.map(\.id)).count == messages.count)
        #expect(
            messages.map(\.type).prefix(5) == [
                "game.scheduled", "game.started", "period.started", "clock.started", "points.scored",
            ])
        // The first basket: J. Teague's three at 11:46 of the first, actionNumber 7, edited 00:40:50.
        let three = try #require(messages.first { $0.type == "points.scored" })
        #expect(three.id == "nba-live-\(Self.game)-7-20210116T004050Z")
        #expect(three.at == parseRFC3339("2021-01-16T00:40:43.7Z"))
        #expect(
            three.event
                == .pointsScored(
                    PointsScored(team: .home, points: 3, kind: .three, player: "J. Teague", clockMs: 706_000)))
        let states = try fold(messages)
        let entry = try #require(states.last?.scoring.elements.first)
        #expect(entry.clock == "11:46")
        #expect(entry.period == 1)
        // Overtime is not played: four periods, each started, ended; the game ended once.
        #expect(messages.filter { $0.type == "period.ended" }.count == 4)
        #expect(messages.filter { $0.type == "game.ended" }.count == 1)
        #expect(messages.last?.type == "game.ended")
        // Messages are in game order: their times never go back.
        #expect(zip(messages.dropFirst(2), messages.dropFirst(3)).allSatisfy { $0.at <= $1.at })
    }

    @Test("without the box score the sides come from the first basket of each team, the codes for names")
    func withoutBoxScore() throws {
        let messages = try NBALive.convert([try document("playbyplay_\(Self.game).json")])
        let final = try #require(fold(messages).last)
        #expect(final.home == Team(code: "BOS", name: "BOS", logo: ""))
        #expect(final.away == Team(code: "ORL", name: "ORL", logo: ""))
        #expect(final.homeScore == 124 && final.awayScore == 97)
        #expect(final.startsAt == parseRFC3339("2021-01-16T00:40:29.8Z"))
    }

    @Test("converting twice, or with the documents in another order, gives the same messages")
    func deterministic() throws {
        let pbp = try document("playbyplay_\(Self.game).json")
        let box = try document("boxscore_\(Self.game).json")
        let once = try NBALive.convert([pbp, box])
        #expect(try NBALive.convert([pbp, box]) == once)
        #expect(try NBALive.convert([box, pbp]) == once)
        // Actions in another order in the document: the game order is orderNumber's.
        #expect(try NBALive.convert([withActions(pbp) { $0.reversed() }, box]) == once)
    }

    @Test("an earlier poll's made shot the provider edited or dropped is given and then retracted")
    func editedActions() throws {
        let pbp = try document("playbyplay_\(Self.game).json")
        let box = try document("boxscore_\(Self.game).json")
        let final = try NBALive.convert([pbp, box])
        // An earlier poll: the first 60 actions, action 7 (a three) first recorded as a two with an
        // earlier edit stamp and the next basket (action 10 or later) recorded for the wrong player.
        let actions = array(members(members(pbp)["game"])["actions"])
        let firstTwo = try #require(
            actions.first { text(members($0)["actionType"]) == "2pt" && text(members($0)["shotResult"]) == "Made" })
        let twoNumber = try #require(integer(members(firstTwo)["actionNumber"]))
        let earlier = withActions(pbp) { actions in
            Array(actions.prefix(60)).map { action in
                switch integer(members(action)["actionNumber"]) {
                case 7:
                    edit(
                        action,
                        [
                            "actionType": .string("2pt"), "scoreHome": .string("2"),
                            "edited": .string("2021-01-16T00:40:44Z"),
                        ])
                case twoNumber:
                    edit(action, ["playerNameI": .string("A. Nobody"), "edited": .string("2021-01-16T00:40:59Z")])
                default:
                    action
                }
            }
        }
        let messages = try NBALive.convert([earlier, pbp, box])
        let retractions = messages.filter { $0.type == "event.retracted" }
        #expect(retractions.count == 2)
        #expect(
            retractions.first?.event
                == .retracted(id: "nba-live-\(Self.game)-7-20210116T004044Z", reason: "edited by the provider"))
        // The last poll's messages are all there, in the same order; the retracted version precedes its retraction.
        let ghosts: Set = [
            "nba-live-\(Self.game)-7-20210116T004044Z", "nba-live-\(Self.game)-\(twoNumber)-20210116T004059Z",
        ]
        #expect(Set(retractions.compactMap { if case .retracted(let id, _) = $0.event { id } else { nil } }) == ghosts)
        #expect(messages.filter { !ghosts.contains($0.id) && $0.type != "event.retracted" } == final)
        let ghostIndex = try #require(messages.firstIndex { $0.id == "nba-live-\(Self.game)-7-20210116T004044Z" })
        #expect(messages[ghostIndex + 1].type == "event.retracted")
        let state = try #require(fold(messages).last)
        let plain = try #require(fold(final).last)
        #expect(state.homeScore == 124 && state.awayScore == 97)
        #expect(state.periods.map(\.home) == plain.periods.map(\.home))
        #expect(state.scoring.elements == plain.scoring.elements)
        #expect(state.retracted.count == 2)
        // A poll that is the same document again adds nothing.
        #expect(try NBALive.convert([pbp, pbp, box]) == final)
    }

    @Test("a stated running score the baskets do not make becomes a score.corrected")
    func statedScoreWins() throws {
        let pbp = try document("playbyplay_\(Self.game).json")
        // Drop the first basket (a BOS three) but keep every stated score: from then on the document
        // says 3 more for BOS than its baskets.
        let changed = withActions(pbp) { $0.filter { integer(members($0)["actionNumber"]) != 7 } }
        let messages = try NBALive.convert([changed])
        let corrections = messages.filter { $0.type == "score.corrected" }
        #expect(corrections.count == 1)
        // The next action (10, a missed two) states 3-0: the correction is there, as its own message.
        #expect(corrections.first?.event == .scoreCorrected(homeScore: 3, awayScore: 0))
        #expect(corrections.first?.id == "nba-live-\(Self.game)-10-20210116T004146Z-score")
        let final = try #require(fold(messages).last)
        #expect(final.homeScore == 124 && final.awayScore == 97)
    }

    @Test("overtime: a fifth period of type OVERTIME after a tie is an overtime period of five minutes")
    func overtime() throws {
        // Written for the test (no real overtime document was found): four tied periods, then one of overtime.
        func action(
            _ number: Int, _ period: Int, _ type: String, _ sub: String, _ clock: String, _ home: Int, _ away: Int,
            team: Int? = nil, made: Bool = false
        ) -> JSONValue {
            var fields: [String: JSONValue] = [
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

    @Test("detect: the play-by-play and the box score, nothing else")
    func detect() throws {
        #expect(NBALive.detect(try document("playbyplay_\(Self.game).json")))
        #expect(NBALive.detect(try document("boxscore_\(Self.game).json")))
        #expect(!NBALive.detect(.object(["game": .object(["actions": .array([])])])))
        #expect(!NBALive.detect(.array([])))
        #expect(ProviderFormats.named("nba-live") == nil ? false : true)
        let (format, _) = try ProviderFormats.convert(
            [try Data(contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/playbyplay_\(Self.game).json")))],
            format: nil)
        #expect(format.name == "nba-live")
    }

    @Test(
        "a truncated or wrong document names the format and the field",
        arguments: [
            ("clock", JSONValue.string("4:32"), "game.actions[3].clock"),
            ("clock", JSONValue.null, "game.actions[3].clock"),
            ("timeActual", JSONValue.string("yesterday"), "game.actions[3].timeActual"),
            ("period", JSONValue.int(0), "game.actions[3].period"),
            ("actionNumber", JSONValue.string("7"), "game.actions[3].actionNumber"),
            ("scoreHome", JSONValue.string("x"), "game.actions[3].scoreHome"),
            ("teamId", JSONValue.int(42), "game.actions[3].teamId"),
        ])
    func wrongAction(_ key: String, _ value: JSONValue, _ field: String) throws {
        let pbp = try document("playbyplay_\(Self.game).json")
        // actions[3] in the file is a made two of ORL (action 12).
        let broken = withActions(pbp) { actions in
            actions.enumerated().map { $0.offset == 3 ? edit($0.element, [key: value]) : $0.element }
        }
        #expect(integer(members(array(members(members(pbp)["game"])["actions"])[3])["actionNumber"]) == 12)
        #expect(throws: ConvertError.self) { try NBALive.convert([broken]) }
        let box = try document("boxscore_\(Self.game).json")
        do {
            _ = try NBALive.convert([broken, box])
            Issue.record("converted")
        } catch {
            #expect(error.format == "nba-live")
            #expect(error.field == field)
        }
    }

    @Test("wrong documents: no game, no actions, no play-by-play, another game's box score, cut bytes")
    func wrongDocuments() throws {
        let pbp = try document("playbyplay_\(Self.game).json")
        let box = try document("boxscore_\(Self.game).json")
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
        let bytes = try Data(
            contentsOf: URL(fileURLWithPath: fixture("providers/nba-live/playbyplay_\(Self.game).json")))
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
