import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// StatsBomb open data (fixtures/providers/statsbomb, NOTICE.md there): real matches converted and
/// folded, checked against the match file's result and the events' own goals, kicks and periods.
@Suite("StatsBomb open data: a match's events (and its match file) to canonical messages")
struct StatsBombTests {
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: fixture("providers/statsbomb/\(name)")))
    }

    static func json(_ name: String) throws -> JSONValue { try JSONValue.parse(try data(name)) }

    static func convert(_ names: [String]) throws -> [FeedMessage] {
        try ProviderFormats.convert(try names.map(data), format: StatsBomb.self).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    /// The match file entry's `home_score`/`away_score` (the official result, shoot-out excluded).
    static func officialScore(_ file: String, matchId: Int) throws -> (home: Int, away: Int) {
        guard case .array(let entries) = try json(file) else { throw ConvertError(format: "test", reason: "no array") }
        for case .object(let entry) in entries where entry["match_id"] == .int(matchId) {
            guard case .int(let home)? = entry["home_score"], case .int(let away)? = entry["away_score"] else { break }
            return (home, away)
        }
        throw ConvertError(format: "test", reason: "match \(matchId) not in \(file)")
    }

    /// Every scoring play, shoot-out kick and card the events file holds, counted from the document
    /// itself (not through the converter), for comparing counts.
    static func eventCounts(_ file: String) throws -> (goals: Int, kicks: Int, cards: Int) {
        guard case .array(let events) = try json(file) else { return (0, 0, 0) }
        var counts = (goals: 0, kicks: 0, cards: 0)
        for case .object(let event) in events {
            guard case .object(let type)? = event["type"], case .string(let name)? = type["name"] else { continue }
            let period = event["period"]
            if name == "Shot", case .object(let shot)? = event["shot"], case .object(let outcome)? = shot["outcome"] {
                if period == .int(5) {
                    counts.kicks += 1
                } else if outcome["name"] == .string("Goal") {
                    counts.goals += 1
                }
            }
            if name == "Own Goal For" { counts.goals += 1 }
            for key in ["foul_committed", "bad_behaviour"] {
                if case .object(let detail)? = event[key], detail["card"] != nil { counts.cards += 1 }
            }
        }
        return counts
    }

    // MARK: Turkey–Italy, UEFA Euro 2020 opener (match 3788741): an own goal, two yellow cards.

    static let euroOpener = ["events-3788741-excerpt.json", "matches-55-43-excerpt.json"]

    @Test func euroOpenerFoldsToTheMatchFileResult() throws {
        let messages = try Self.convert(Self.euroOpener)
        let state = try Self.fold(messages)
        let official = try Self.officialScore("matches-55-43-excerpt.json", matchId: 3_788_741)
        #expect(state.gameId == "statsbomb-3788741")
        #expect(state.home.name == "Turkey" && state.home.code == "TUR")
        #expect(state.away.name == "Italy" && state.away.code == "ITA")
        #expect(state.rules.competition == "league-soccer")
        #expect(state.status == .closed)
        #expect((state.homeScore, state.awayScore) == official)
        #expect((official.home, official.away) == (0, 3))
        #expect(state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["1st Half 0-0", "2nd Half 0-3"])
        #expect(state.shootout == nil)
        #expect(state.periodLabel == "Final")
    }

    @Test func euroOpenerScoringListHasTheOwnGoalOnce() throws {
        let state = try Self.fold(try Self.convert(Self.euroOpener))
        let plays = state.scoring.elements
        let counts = try Self.eventCounts("events-3788741-excerpt.json")
        #expect(plays.count == counts.goals)
        #expect(plays.map(\.kind) == [.ownGoal, .goal, .goal])
        #expect(plays.map(\.side) == [.away, .away, .away])
        #expect(plays.map(\.player) == ["Merih Demiral", "Ciro Immobile", "Lorenzo Insigne"])
        #expect(plays.map(\.clock) == ["53'", "66'", "79'"])
        #expect(plays.map { "\($0.homeScore)-\($0.awayScore)" } == ["0-1", "0-2", "0-3"])
        #expect(state.cards.elements.count == counts.cards)
        #expect(state.cards.elements.map(\.card) == [.yellow, .yellow])
        #expect(state.cards.elements.map(\.side) == [.home, .home])
        #expect(state.redCards == SideTally())
    }

    @Test func euroOpenerTimesAreDerivedFromTheKickOff() throws {
        let messages = try Self.convert(Self.euroOpener)
        let kickOff = try #require(parseRFC3339("2021-06-11T21:00:00Z"))
        #expect(messages.first?.at == kickOff)
        guard case .gameScheduled(_, _, let startsAt, _) = messages[0].event else {
            Issue.record("the first message is not game.scheduled")
            return
        }
        #expect(startsAt == kickOff)
        // The own goal: 52:12 in the second half, its timestamp 00:07:12.xxx after a 15-minute break
        // that follows a first half of 45:55.
        let ownGoal = try #require(messages.first { $0.id.hasSuffix(Self.ownGoalForId) })
        let secondHalf = kickOff.addingTimeInterval(45 * 60 + 55 + 15 * 60)
        #expect(ownGoal.at.timeIntervalSince(secondHalf) > 7 * 60 + 12)
        #expect(ownGoal.at.timeIntervalSince(secondHalf) < 7 * 60 + 13)
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
    }

    static let ownGoalForId: String = {
        // Read from the fixture so the test names no id it could get wrong.
        guard case .array(let events)? = try? json("events-3788741-excerpt.json") else { return "?" }
        for case .object(let event) in events where event["type"].flatMap(Self.typeName) == "Own Goal For" {
            if case .string(let id)? = event["id"] { return id }
        }
        return "?"
    }()

    static func typeName(_ value: JSONValue) -> String? {
        guard case .object(let type) = value, case .string(let name)? = type["name"] else { return nil }
        return name
    }

    // MARK: Argentina–France, FIFA World Cup 2022 final (match 3869685): extra time, a shoot-out.

    static let worldCupFinal = ["events-3869685-excerpt.json", "matches-43-106-excerpt.json"]

    @Test func worldCupFinalFoldsToTheMatchFileResultAndTheShootOut() throws {
        let state = try Self.fold(try Self.convert(Self.worldCupFinal))
        let official = try Self.officialScore("matches-43-106-excerpt.json", matchId: 3_869_685)
        #expect(state.gameId == "statsbomb-3869685")
        #expect(state.home.code == "ARG" && state.away.code == "FRA")
        #expect(state.rules.competition == "knockout-soccer")
        #expect(state.status == .closed)
        #expect((state.homeScore, state.awayScore) == official)
        #expect((official.home, official.away) == (3, 3))
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == [
                "1st Half 2-0", "2nd Half 0-2", "ET1 0-0", "ET2 1-1",
            ])
        #expect(state.periodLabel == "Final/Pens")
        #expect(state.shootout == SideTally(home: 4, away: 2))
        let kicks = state.shootoutAttempts.elements
        let counts = try Self.eventCounts("events-3869685-excerpt.json")
        #expect(kicks.count == counts.kicks)
        #expect(kicks.map(\.side) == [.away, .home, .away, .home, .away, .home, .away, .home])
        #expect(kicks.map(\.scored) == [true, true, false, true, false, true, true, true])
        #expect(kicks.filter { $0.side == .home && $0.scored }.count == 4)
        #expect(kicks.filter { $0.side == .away && $0.scored }.count == 2)
    }

    @Test func worldCupFinalScoringList() throws {
        let state = try Self.fold(try Self.convert(Self.worldCupFinal))
        let plays = state.scoring.elements
        #expect(plays.count == (try Self.eventCounts("events-3869685-excerpt.json")).goals)
        #expect(plays.map(\.kind) == [.penalty, .goal, .penalty, .goal, .goal, .penalty])
        #expect(
            plays.map(\.player) == [
                "Lionel Andrés Messi Cuccittini", "Ángel Fabián Di María Hernández", "Kylian Mbappé Lottin",
                "Kylian Mbappé Lottin", "Lionel Andrés Messi Cuccittini", "Kylian Mbappé Lottin",
            ])
        #expect(plays.map { "\($0.homeScore)-\($0.awayScore)" } == ["1-0", "2-0", "2-1", "2-2", "3-2", "3-3"])
        #expect(plays.map(\.period) == [1, 1, 2, 2, 4, 4])
        #expect(plays.map(\.clock) == ["23'", "36'", "80'", "81'", "108'", "118'"])
    }

    // MARK: Barcelona–Girona, La Liga 2018/19 (match 15986): a league draw, a red card, nine cards.

    static let barcelonaGirona = ["events-15986-excerpt.json", "matches-11-4-excerpt.json"]

    @Test func leagueDrawFromTheRightOfTwoMeetings() throws {
        let state = try Self.fold(try Self.convert(Self.barcelonaGirona))
        let official = try Self.officialScore("matches-11-4-excerpt.json", matchId: 15986)
        // The match file holds both meetings of the two teams; the home side's Starting XI comes first.
        #expect(state.gameId == "statsbomb-15986")
        #expect(state.startsAt == parseRFC3339("2018-09-23T20:45:00Z"))
        #expect(state.home.name == "Barcelona" && state.away.name == "Girona")
        #expect(state.rules.competition == "league-soccer")
        #expect((state.homeScore, state.awayScore) == official)
        #expect((official.home, official.away) == (2, 2))
        #expect(state.status == .closed && state.periodLabel == "Final")
        #expect(state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["1st Half 1-1", "2nd Half 1-1"])
        let plays = state.scoring.elements
        #expect(plays.count == (try Self.eventCounts("events-15986-excerpt.json")).goals)
        #expect(
            plays.map(\.player) == [
                "Lionel Andrés Messi Cuccittini", "Cristhian Ricardo Stuani Curbelo",
                "Cristhian Ricardo Stuani Curbelo", "Gerard Piqué Bernabéu",
            ])
        #expect(plays.map(\.clock) == ["19'", "45'", "51'", "63'"])
        #expect(plays.map { "\($0.homeScore)-\($0.awayScore)" } == ["1-0", "1-1", "1-2", "2-2"])
    }

    @Test func cardsFromFoulsAndBadBehaviour() throws {
        let state = try Self.fold(try Self.convert(Self.barcelonaGirona))
        let cards = state.cards.elements
        #expect(cards.count == (try Self.eventCounts("events-15986-excerpt.json")).cards)
        #expect(cards.count == 9)
        #expect(cards.filter { $0.side == .home }.count == 4)
        #expect(cards.filter { $0.card == .red }.map(\.player) == ["Clément Lenglet"])
        #expect(cards.first { $0.card == .red }?.clock == "33'")
        #expect(state.redCards == SideTally(home: 1, away: 0))
        // Bad Behaviour cards (no foul) count too: Portugués 68', Piqué 80'.
        #expect(cards.suffix(2).map(\.player) == ["Cristian Portugués Manzanera", "Gerard Piqué Bernabéu"])
    }

    // MARK: Every fixture

    @Test(arguments: [euroOpener, worldCupFinal, barcelonaGirona])
    func convertingTwiceGivesTheSameMessages(_ names: [String]) throws {
        let first = try Self.convert(names)
        #expect(first == (try Self.convert(names)))
        #expect(Set(first.map(\.id)).count == first.count)
        #expect(first.allSatisfy { $0.id.hasPrefix(first[0].gameId + "-") })
    }

    @Test(arguments: [euroOpener, worldCupFinal, barcelonaGirona])
    func everyTimeButTheStatedKickOffIsMarkedDerived(_ names: [String]) throws {
        let messages = try Self.convert(names)
        // game.scheduled at the match file's kick-off (match_date + kick_off): stated, not derived.
        let scheduled = try #require(messages.first)
        guard case .gameScheduled(_, _, let kickOff, _) = scheduled.event else {
            Issue.record("the first message is \(scheduled.event.type)")
            return
        }
        #expect(scheduled.at == kickOff && !scheduled.atDerived)
        // Every other time is the kick-off plus the match time: derived, game.started included.
        #expect(messages.count > 5)
        for message in messages.dropFirst() { #expect(message.atDerived, "\(message.id)") }
        #expect(try Self.convert(names).map { $0.canonicalJSON() } == messages.map { $0.canonicalJSON() })
        // Read back: the mark survives (the times' sub-millisecond fractions need not).
        for message in messages {
            #expect(try FeedParser.parse(message.canonicalJSON()).atDerived == message.atDerived)
        }
    }

    @Test func withoutTheMatchFileTheEpochKickOffIsDerivedToo() throws {
        let messages = try Self.convert([Self.euroOpener[0]])
        #expect(messages.first?.event.type == "game.scheduled")
        #expect(messages.first?.at == Date(timeIntervalSince1970: 0))
        #expect(messages.allSatisfy { $0.atDerived })
    }

    @Test(arguments: [euroOpener, worldCupFinal, barcelonaGirona])
    func detectedFromTheEventsDocument(_ names: [String]) throws {
        #expect(StatsBomb.detect(try Self.json(names[0])))
        #expect(!StatsBomb.detect(try Self.json(names[1])))
        let auto = try ProviderFormats.convert(try names.map(Self.data), format: nil)
        #expect(auto.format.name == StatsBomb.name)
    }

    @Test func withoutTheMatchFileTheFirstStartingXIIsHomeAndTheIdTheFirstEvents() throws {
        let messages = try Self.convert([Self.euroOpener[0]])
        let state = try Self.fold(messages)
        #expect(state.home.name == "Turkey")
        #expect((state.homeScore, state.awayScore) == (0, 3))
        #expect(state.startsAt == Date(timeIntervalSince1970: 0))
        #expect(state.gameId.hasPrefix("statsbomb-") && state.gameId.count <= 64)
    }

    // MARK: Refused documents

    static func expectError(_ documents: [JSONValue], field: String, _ reason: String) {
        #expect {
            _ = try StatsBomb.convert(documents)
        } throws: { error in
            guard let error = error as? ConvertError else { return false }
            return error.format == "statsbomb" && error.field == field && error.reason.contains(reason)
        }
    }

    @Test func aTruncatedDocumentNamesTheFieldAndFormat() throws {
        guard case .array(let events) = try Self.json(Self.euroOpener[0]) else { return }
        let cut = Array(
            events.prefix { Self.typeName($0.member("type")) != "Half End" || $0.member("period") != .int(2) })
        Self.expectError([.array(cut)], field: "[\(cut.count - 1)].type.name", "period 2 has no Half End")
        let bytes = try Self.data(Self.euroOpener[0])
        #expect {
            _ = try ProviderFormats.convert([bytes.prefix(bytes.count / 2)], format: StatsBomb.self)
        } throws: { error in
            (error as? ConvertError)?.format == "statsbomb"
                && (error as? ConvertError)?.reason.contains("not JSON") == true
        }
    }

    @Test func aWrongFieldIsNamed() throws {
        guard case .array(var events) = try Self.json(Self.euroOpener[0]), case .object(var event) = events[5] else {
            return
        }
        event["period"] = .string("2")
        events[5] = .object(event)
        Self.expectError([.array(events)], field: "[5].period", "not an integer")
        event["period"] = .int(6)
        events[5] = .object(event)
        Self.expectError([.array(events)], field: "[5].period", "not 1–5")
        Self.expectError([.object([:])], field: "", "not an array")
    }

    @Test func aMatchFileWithoutTheMatchIsRefused() throws {
        let events = try Self.json(Self.euroOpener[0])
        let otherMatch = try Self.json(Self.worldCupFinal[1])
        Self.expectError(
            [events, otherMatch], field: "matches[].home_team.home_team_id", "0 matches of Turkey and Italy")
    }
}

extension JSONValue {
    /// A member of an object, `.null` otherwise (test helper).
    fileprivate func member(_ key: String) -> JSONValue {
        if case .object(let members) = self { return members[key] ?? .null }
        return .null
    }
}
