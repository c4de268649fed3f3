import Foundation
import ScoreDomain
import Testing

/// One row of a clock-sport table: a game of `competition` after `game.scheduled`, the events played
/// 60 s apart, and either its ``ScoreState/summary`` after the last one or the code refusing the last.
struct Script: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        case summary(String)
        case error(String)
    }

    var name: String
    var competition: String
    var events: [ScoreEvent]
    var outcome: Outcome
    /// The line score after the last event, when checked.
    var lineScore: String?
    var testDescription: String { name }

    init(_ name: String, _ competition: String, _ events: [ScoreEvent], _ outcome: Outcome, lineScore: String? = nil) {
        self.name = name
        self.competition = competition
        self.events = events
        self.outcome = outcome
        self.lineScore = lineScore
    }

    func check() {
        var game = Match(competition)
        do throws(FoldError) {
            try game.send(Array(events.dropLast()))
        } catch {
            Issue.record("refused before the last event: \(error)")
            return
        }
        let before = game.state
        do throws(FoldError) {
            let after = try game.send(events.last!)
            switch outcome {
            case .summary(let summary): #expect(after.summary == summary)
            case .error(let code): Issue.record("expected \(code), got \(after.summary)")
            }
            if let lineScore { #expect(after.lineScore == lineScore) }
        } catch {
            switch outcome {
            case .summary(let summary): Issue.record("expected \(summary), got \(error)")
            case .error(let code): #expect(error.code == code, "\(error)")
            }
            #expect(game.state == before)
        }
    }
}

private let home3: ScoreEvent = .score(.home, .three)
private let away2: ScoreEvent = .score(.away, .two)
private let homeGoal: ScoreEvent = .score(.home, .goal)
private let awayGoal: ScoreEvent = .score(.away, .goal)

/// Four NBA quarters tied 3-3 (a three each in Q1), then `more`.
private func nbaTied(_ more: [ScoreEvent] = []) -> [ScoreEvent] {
    [.gameStarted, home3, .score(.away, .three), .end(1), .start(2), .end(2), .start(3), .end(3), .start(4), .end(4)]
        + more
}

/// Regulation soccer (two halves) 1-1, then `more`.
private func soccerTied(_ more: [ScoreEvent] = []) -> [ScoreEvent] {
    [.gameStarted, homeGoal, .end(1), .start(2), awayGoal, .end(2)] + more
}

/// Three NHL periods 2-2 and a scoreless overtime, then `more`.
private func nhlToShootout(_ more: [ScoreEvent] = []) -> [ScoreEvent] {
    [
        .gameStarted, homeGoal, awayGoal, .end(1), .start(2), homeGoal, .end(2), .start(3), awayGoal, .end(3),
        .start(4),
        .end(4),
    ] + more
}

private func attempts(_ kicks: [(Side, Bool)]) -> [ScoreEvent] {
    kicks.map { .shootoutAttempt(team: $0.0, scored: $0.1, player: nil) }
}

@Suite("ClockFold: the clock sports' rules")
struct ClockFoldTests {
    @Test(
        "game.started: period 1, its clock stopped at the start",
        arguments: [
            ("nba", "inprogress Q1 0-0", "12:00 stopped @0"), ("wnba", "inprogress Q1 0-0", "10:00 stopped @0"),
            ("ncaa-men", "inprogress 1st Half 0-0", "20:00 stopped @0"),
            ("league-soccer", "inprogress 1st Half 0-0", "0:00 stopped @0"),
            ("knockout-soccer", "inprogress 1st Half 0-0", "0:00 stopped @0"),
            ("nhl", "inprogress 1st 0-0", "20:00 stopped @0"), ("nfl", "inprogress Q1 0-0", "15:00 stopped @0"),
            ("ncaa-football", "inprogress Q1 0-0", "15:00 stopped @0"),
        ])
    func gameStarted(_ competition: String, _ summary: String, _ clock: String) throws {
        var game = Match(competition)
        #expect(game.state.summary == "scheduled Pre-game 0-0")
        #expect(game.state.clockText == "none")
        try game.send(.gameStarted, at: 0)
        #expect(game.state.summary == summary)
        #expect(game.state.clockText == clock)
        #expect(game.state.periodNumber == 1)
        #expect(game.state.clock?.countsDown == (competition.hasSuffix("soccer") ? false : true))
        #expect(throws: FoldError.self) { try game.send(.gameStarted) }
    }

    @Test(
        "periods start and end in order",
        arguments: [
            Script(
                "period.ended of the current period", "nba", [.gameStarted, .end(1)],
                .summary("inprogress End of Q1 0-0")),
            Script("the next period", "nba", [.gameStarted, .end(1), .start(2)], .summary("inprogress Q2 0-0")),
            Script(
                "the next period without period.ended of the one before", "nba", [.gameStarted, home3, .start(2)],
                .summary("inprogress Q2 3-0"), lineScore: "Q1 3-0, Q2 0-0"),
            Script(
                "overtime without period.ended, not tied", "nba",
                [.gameStarted, home3, .start(2), .start(3), .start(4), .start(5)], .error("rule-broken")),
            Script(
                "the next period with its kind", "nba", [.gameStarted, .end(1), .start(2, .regulation)],
                .summary("inprogress Q2 0-0")),
            Script(
                "period.started of the running period confirms", "nba", [.gameStarted, .start(1)],
                .summary("inprogress Q1 0-0")),
            Script(
                "confirmation with the wrong kind", "nba", [.gameStarted, .start(1, .overtime)], .error("rule-broken")),
            Script(
                "next period with the wrong kind", "nba", [.gameStarted, .end(1), .start(2, .overtime)],
                .error("rule-broken")),
            Script("a period skipped", "nba", [.gameStarted, .end(1), .start(3)], .error("rule-broken")),
            Script("an ended period again", "nba", [.gameStarted, .end(1), .start(1)], .error("rule-broken")),
            Script(
                "a period back", "nba", [.gameStarted, .end(1), .start(2), .end(2), .start(2)], .error("rule-broken")),
            Script("period.ended twice", "nba", [.gameStarted, .end(1), .end(1)], .error("rule-broken")),
            Script("period.ended of another period", "nba", [.gameStarted, .end(2)], .error("rule-broken")),
            Script("period.started before game.started", "nba", [.start(1)], .error("not-started")),
            Script("period.ended before game.started", "nba", [.end(1)], .error("not-started")),
            Script(
                "period.started while delayed", "nba", [.gameStarted, .end(1), .statusChanged(.delayed), .start(2)],
                .error("not-in-progress")),
            Script("period 5 of a league match", "league-soccer", soccerTied([.start(3)]), .error("rule-broken")),
            Script("half-time", "league-soccer", [.gameStarted, .end(1)], .summary("inprogress Half-time 0-0")),
            Script(
                "second half", "league-soccer", [.gameStarted, .end(1), .start(2)], .summary("inprogress 2nd Half 0-0")),
            Script("end of the second half", "league-soccer", soccerTied(), .summary("inprogress End of 2nd Half 1-1")),
            Script(
                "NCAA men's halves", "ncaa-men", [.gameStarted, .end(1)], .summary("inprogress End of 1st Half 0-0")),
            Script(
                "NCAA men's third period is overtime", "ncaa-men",
                [.gameStarted, .end(1), .start(2), .end(2), .start(3)], .summary("inprogress OT 0-0")),
            Script(
                "hockey periods", "nhl", [.gameStarted, .end(1), .start(2), .end(2), .start(3)],
                .summary("inprogress 3rd 0-0")),
            Script("end of a hockey period", "nhl", [.gameStarted, .end(1)], .summary("inprogress End of 1st 0-0")),
            Script(
                "football quarters", "nfl", [.gameStarted, .end(1), .start(2), .end(2), .start(3), .end(3), .start(4)],
                .summary("inprogress Q4 0-0")),
        ])
    func periodOrder(_ row: Script) { row.check() }

    @Test(
        "overtime only when tied; a shoot-out only where the rules have one",
        arguments: [
            Script(
                "NBA overtime when tied", "nba", nbaTied([.start(5)]), .summary("inprogress OT 3-3"),
                lineScore: "Q1 3-3, Q2 0-0, Q3 0-0, Q4 0-0, OT 0-0"),
            Script("NBA overtime with its kind", "nba", nbaTied([.start(5, .overtime)]), .summary("inprogress OT 3-3")),
            Script(
                "NBA overtime not tied", "nba",
                [.gameStarted, home3, .end(1), .start(2), .end(2), .start(3), .end(3), .start(4), .end(4), .start(5)],
                .error("rule-broken")),
            Script(
                "NBA second overtime when tied again", "nba",
                nbaTied([.start(5), home3, away2, .score(.away, .freeThrow), .end(5), .start(6)]),
                .summary("inprogress 2OT 6-6")),
            Script(
                "NBA third overtime", "nba", nbaTied([.start(5), .end(5), .start(6), .end(6), .start(7)]),
                .summary("inprogress 3OT 3-3")),
            Script(
                "NBA second overtime not tied", "nba", nbaTied([.start(5), home3, .end(5), .start(6)]),
                .error("rule-broken")),
            Script("NBA shoot-out", "nba", nbaTied([.start(5, .shootout)]), .error("rule-broken")),
            Script(
                "NBA shoot-out attempt", "nba",
                nbaTied([.start(5), .shootoutAttempt(team: .home, scored: true, player: nil)]), .error("rule-broken")),
            Script(
                "league soccer shoot-out", "league-soccer", soccerTied([.start(3, .shootout)]), .error("rule-broken")),
            Script(
                "league soccer shoot-out attempt", "league-soccer",
                soccerTied([.shootoutAttempt(team: .home, scored: true, player: nil)]), .error("rule-broken")),
            Script("extra time when tied", "knockout-soccer", soccerTied([.start(3)]), .summary("inprogress ET1 1-1")),
            Script(
                "extra time not tied", "knockout-soccer",
                [.gameStarted, homeGoal, .end(1), .start(2), .end(2), .start(3)], .error("rule-broken")),
            Script(
                "ET2 without a tie", "knockout-soccer",
                soccerTied([.start(3), awayGoal, .end(3), .start(4, .extraTime)]), .summary("inprogress ET2 1-2")),
            Script(
                "no shoot-out after ET2 not tied", "knockout-soccer",
                soccerTied([.start(3), awayGoal, .end(3), .start(4), .end(4), .start(5)]), .error("rule-broken")),
            Script(
                "soccer shoot-out after ET2 tied", "knockout-soccer",
                soccerTied([.start(3), .end(3), .start(4), .end(4), .start(5, .shootout)]),
                .summary("inprogress Pens 1-1 SO 0-0")),
            Script(
                "no period after the shoot-out", "knockout-soccer",
                soccerTied([.start(3), .end(3), .start(4), .end(4), .start(5), .end(5), .start(6)]),
                .error("rule-broken")),
            Script(
                "a shoot-out before extra time", "knockout-soccer", soccerTied([.start(3, .shootout)]),
                .error("rule-broken")),
            Script(
                "NHL overtime", "nhl", [.gameStarted, .end(1), .start(2), .end(2), .start(3), .end(3), .start(4)],
                .summary("inprogress OT 0-0")),
            Script("NHL shoot-out", "nhl", nhlToShootout([.start(5)]), .summary("inprogress SO 2-2 SO 0-0")),
            Script("NHL no second overtime", "nhl", nhlToShootout([.start(5, .overtime)]), .error("rule-broken")),
            Script(
                "NHL playoffs second overtime", "nhl-playoffs", nhlToShootout([.start(5)]),
                .summary("inprogress 2OT 2-2")),
            Script(
                "NHL playoffs no shoot-out", "nhl-playoffs", nhlToShootout([.start(5, .shootout)]),
                .error("rule-broken")),
            Script(
                "NFL one overtime", "nfl",
                [
                    .gameStarted, .end(1), .start(2), .end(2), .start(3), .end(3), .start(4), .end(4), .start(5),
                    .end(5), .start(6),
                ], .error("rule-broken")),
            Script(
                "NCAA football untimed overtimes", "ncaa-football",
                [
                    .gameStarted, .end(1), .start(2), .end(2), .start(3), .end(3), .start(4), .end(4), .start(5),
                    .end(5), .start(6),
                ], .summary("inprogress 2OT 0-0")),
            Script(
                "shoot-out attempt before the shoot-out", "nhl",
                nhlToShootout([.shootoutAttempt(team: .home, scored: true, player: nil)]), .error("rule-broken")),
            Script(
                "shoot-out attempt after the shoot-out ended", "nhl",
                nhlToShootout([.start(5), .end(5), .shootoutAttempt(team: .home, scored: true, player: nil)]),
                .error("rule-broken")),
            Script("points in a shoot-out", "nhl", nhlToShootout([.start(5), homeGoal]), .error("rule-broken")),
        ])
    func overtime(_ row: Script) { row.check() }

    @Test(
        "points.scored: while a period runs, a kind of the sport worth its points",
        arguments: [
            Script("a three", "nba", [.gameStarted, home3], .summary("inprogress Q1 3-0")),
            Script(
                "every basketball kind", "nba", [.gameStarted, home3, .score(.away, .two), .score(.home, .freeThrow)],
                .summary("inprogress Q1 4-2")),
            Script(
                "every football kind", "nfl",
                [
                    .gameStarted, .score(.home, .touchdown), .score(.home, .extraPoint), .score(.away, .touchdown),
                    .score(.away, .twoPointConversion), .score(.home, .fieldGoal), .score(.away, .safety),
                    .score(.home, .defensiveConversion),
                ], .summary("inprogress Q1 12-10")),
            Script(
                "every soccer kind", "league-soccer",
                [.gameStarted, homeGoal, .score(.away, .penalty), .score(.away, .ownGoal)],
                .summary("inprogress 1st Half 1-2")),
            Script("a goal in hockey", "nhl", [.gameStarted, awayGoal], .summary("inprogress 1st 0-1")),
            Script(
                "a goal in a finished period", "league-soccer", [.gameStarted, .end(1), homeGoal], .error("rule-broken")
            ),
            Script("a basket at the end of a quarter", "nba", [.gameStarted, .end(1), home3], .error("rule-broken")),
            Script("a goal before the start", "nhl", [homeGoal], .error("not-started")),
            Script(
                "a goal during a delay", "nhl", [.gameStarted, .statusChanged(.delayed), homeGoal],
                .error("not-in-progress")),
            Script(
                "a goal after the end", "nhl", [.gameStarted, homeGoal, .gameEnded(.closed), homeGoal],
                .error("game-ended")),
            Script("a goal in basketball", "nba", [.gameStarted, homeGoal], .error("rule-broken")),
            Script("a three in soccer", "league-soccer", [.gameStarted, home3], .error("rule-broken")),
            Script("a penalty in hockey", "nhl", [.gameStarted, .score(.home, .penalty)], .error("rule-broken")),
            Script("a goal in football", "nfl", [.gameStarted, homeGoal], .error("rule-broken")),
            Script(
                "a touchdown in basketball", "nba", [.gameStarted, .score(.home, .touchdown)], .error("rule-broken")),
            Script(
                "a four-point basket", "nba",
                [.gameStarted, .pointsScored(PointsScored(team: .home, points: 4, kind: .three))],
                .error("invalid-event")),
            Script(
                "a run as points", "nba",
                [.gameStarted, .pointsScored(PointsScored(team: .home, points: 1, kind: .run))], .error("invalid-event")
            ),
            Script(
                "a correction as points", "nba",
                [.gameStarted, .pointsScored(PointsScored(team: .home, points: 0, kind: .correction))],
                .error("invalid-event")),
            Script(
                "past 999", "nba", [.gameStarted, .scoreCorrected(homeScore: 998, awayScore: 0), home3],
                .error("score-out-of-range")),
        ])
    func pointsScored(_ row: Script) { row.check() }

    @Test(
        "values the parser never produces are refused before anything else",
        arguments: [
            Script("clock.set below 0:00", "nba", [.gameStarted, .clockSet(ms: -1)], .error("invalid-event")),
            Script("clock.set 1000:00", "nba", [.gameStarted, .clockSet(ms: 60_000_000)], .error("invalid-event")),
            Script(
                "clock.set 999:59.9", "nba", [.gameStarted, .clockSet(ms: 59_999_900)], .summary("inprogress Q1 0-0")),
            Script(
                "clock.started below 0:00", "nba", [.gameStarted, .clockStarted(ms: -100)], .error("invalid-event")),
            Script(
                "clock.stopped below 0:00", "nba", [.gameStarted, .clockStopped(ms: -100)], .error("invalid-event")),
            Script(
                "a play's clock below 0:00", "nba",
                [.gameStarted, .pointsScored(PointsScored(team: .home, points: 2, kind: .two, clockMs: -1))],
                .error("invalid-event")),
            Script(
                "a card's clock below 0:00", "league-soccer",
                [.gameStarted, .cardShown(team: .home, card: .red, player: nil, clockMs: -1)], .error("invalid-event")),
            Script(
                "period 0", "nba", [.gameStarted, .periodStarted(period: 0, kind: nil)], .error("invalid-event")),
            Script("period.ended 100", "nba", [.gameStarted, .end(100)], .error("invalid-event")),
            Script(
                "down 5", "nfl",
                [
                    .gameStarted,
                    .situationChanged(
                        Situation(possession: .home, down: 5, distance: 10, yardLine: 25), turnover: false,
                        clockMs: nil),
                ], .error("invalid-event")),
            Script(
                "a down without distance", "nfl",
                [
                    .gameStarted,
                    .situationChanged(
                        Situation(possession: .home, down: 1, distance: nil, yardLine: 25), turnover: false,
                        clockMs: nil),
                ], .error("invalid-event")),
            Script(
                "yard line 0", "nfl",
                [
                    .gameStarted,
                    .situationChanged(
                        Situation(possession: .home, down: 1, distance: 10, yardLine: 0), turnover: false,
                        clockMs: nil),
                ], .error("invalid-event")),
            Script(
                "a situation's clock past 999:59.9", "nfl",
                [
                    .gameStarted,
                    .situationChanged(
                        Situation(possession: .home, down: nil, distance: nil, yardLine: nil), turnover: true,
                        clockMs: 60_000_000),
                ], .error("invalid-event")),
        ])
    func invalidEvents(_ row: Script) { row.check() }

    @Test(
        "cards in soccer only, situations in football only, baseball's events in baseball only",
        arguments: [
            Script(
                "a yellow card", "league-soccer",
                [.gameStarted, .cardShown(team: .home, card: .yellow, player: nil, clockMs: nil)],
                .summary("inprogress 1st Half 0-0")),
            Script(
                "a card at half-time", "league-soccer",
                [.gameStarted, .end(1), .cardShown(team: .home, card: .red, player: nil, clockMs: nil)],
                .summary("inprogress Half-time 0-0")),
            Script(
                "a card before the start", "league-soccer",
                [.cardShown(team: .home, card: .red, player: nil, clockMs: nil)], .error("not-started")),
            Script(
                "a card in basketball", "nba",
                [.gameStarted, .cardShown(team: .home, card: .red, player: nil, clockMs: nil)], .error("rule-broken")),
            Script(
                "a card in hockey", "nhl",
                [.gameStarted, .cardShown(team: .home, card: .yellow, player: nil, clockMs: nil)], .error("rule-broken")
            ),
            Script(
                "a situation in football", "nfl",
                [
                    .gameStarted,
                    .situationChanged(
                        Situation(possession: .home, down: 1, distance: 10, yardLine: 25), turnover: false, clockMs: nil
                    ),
                ], .summary("inprogress Q1 0-0")),
            Script(
                "a situation before the start", "nfl",
                [
                    .situationChanged(
                        Situation(possession: .home, down: nil, distance: nil, yardLine: nil), turnover: false,
                        clockMs: nil)
                ], .error("not-started")),
            Script(
                "a situation in soccer", "league-soccer",
                [
                    .gameStarted,
                    .situationChanged(
                        Situation(possession: .home, down: nil, distance: nil, yardLine: nil), turnover: false,
                        clockMs: nil),
                ], .error("rule-broken")),
            Script(
                "a down in basketball", "nba",
                [
                    .gameStarted,
                    .situationChanged(
                        Situation(possession: .home, down: 1, distance: 10, yardLine: 25), turnover: false, clockMs: nil
                    ),
                ], .error("rule-broken")),
            Script(
                "a run in soccer", "league-soccer", [.gameStarted, .runScored(team: .home, runs: 1)],
                .error("rule-broken")),
            Script(
                "an inning in hockey", "nhl", [.gameStarted, .inningChanged(inning: 2, half: .top)],
                .error("rule-broken")),
            Script("an out in football", "nfl", [.gameStarted, .outRecorded(outs: 1)], .error("rule-broken")),
            Script(
                "bases in basketball", "nba",
                [.gameStarted, .basesChanged(Bases(first: true, second: false, third: false))], .error("rule-broken")),
        ])
    func sportEvents(_ row: Script) { row.check() }

    @Test("baseball refuses the clock sports' events")
    func baseballRefusesClockEvents() throws {
        let events: [ScoreEvent] = [
            .start(2), .end(1), .clockSet(ms: 0), .clockStarted(ms: nil), .clockStopped(ms: nil), homeGoal,
            .shootoutAttempt(team: .home, scored: true, player: nil),
            .cardShown(team: .home, card: .red, player: nil, clockMs: nil),
            .situationChanged(
                Situation(possession: .home, down: nil, distance: nil, yardLine: nil), turnover: false, clockMs: nil),
        ]
        let playing = T.state(.inprogress, 4, .top)
        for event in events {
            #expect(throws: FoldError.self, "\(event.type)") { try ScoreFold.apply(T.message(event), to: playing) }
            do throws(FoldError) {
                _ = try ScoreFold.apply(T.message(event), to: playing)
            } catch {
                #expect(error.code == "rule-broken")
                #expect(error.reason.hasPrefix("\(event.type): not an event of baseball"), "\(error)")
            }
        }
    }

    @Test(
        "game.ended closed: a tie stands only where the rules say, or after a decided shoot-out",
        arguments: [
            Script("NBA tied", "nba", nbaTied([.gameEnded(.closed)]), .error("rule-broken")),
            Script(
                "NBA tied after overtime", "nba", nbaTied([.start(5), .end(5), .gameEnded(.closed)]),
                .error("rule-broken")),
            Script(
                "NBA won in overtime", "nba", nbaTied([.start(5), away2, .end(5), .gameEnded(.closed)]),
                .summary("closed Final/OT 3-5"), lineScore: "Q1 3-3, Q2 0-0, Q3 0-0, Q4 0-0, OT 0-2"),
            Script(
                "NBA won in 2OT", "nba", nbaTied([.start(5), .end(5), .start(6), away2, .end(6), .gameEnded(.closed)]),
                .summary("closed Final/2OT 3-5")),
            Script(
                "NBA won in regulation", "nba", [.gameStarted, home3, .end(1), .gameEnded(.closed)],
                .summary("closed Final 3-0")),
            Script(
                "NFL tie stands", "nfl", [.gameStarted, .end(1), .gameEnded(.closed)], .summary("closed Final 0-0")),
            Script(
                "NFL tie after overtime", "nfl",
                [
                    .gameStarted, .end(1), .start(2), .end(2), .start(3), .end(3), .start(4), .end(4), .start(5),
                    .end(5), .gameEnded(.closed),
                ], .summary("closed Final/OT 0-0")),
            Script(
                "NFL playoffs tied", "nfl-playoffs", [.gameStarted, .end(1), .gameEnded(.closed)], .error("rule-broken")
            ),
            Script(
                "league soccer draw", "league-soccer", soccerTied([.gameEnded(.closed)]), .summary("closed Final 1-1"),
                lineScore: "1st Half 1-0, 2nd Half 0-1"),
            Script(
                "knockout soccer tied after 90", "knockout-soccer", soccerTied([.gameEnded(.closed)]),
                .error("rule-broken")),
            Script(
                "knockout soccer after extra time", "knockout-soccer",
                soccerTied([.start(3), homeGoal, .end(3), .start(4), .end(4), .gameEnded(.closed)]),
                .summary("closed Final/AET 2-1"), lineScore: "1st Half 1-0, 2nd Half 0-1, ET1 1-0, ET2 0-0"),
            Script(
                "knockout soccer shoot-out undecided", "knockout-soccer",
                soccerTied(
                    [.start(3), .end(3), .start(4), .end(4), .start(5)] + attempts([(.home, true), (.away, true)]) + [
                        .gameEnded(.closed)
                    ]), .error("rule-broken")),
            Script(
                "knockout soccer shoot-out decided: not in the score", "knockout-soccer",
                soccerTied(
                    [.start(3), .end(3), .start(4), .end(4), .start(5)]
                        + attempts([
                            (.home, true), (.away, false), (.home, false), (.away, true), (.home, true), (.away, false),
                        ]) + [.end(5), .gameEnded(.closed)]), .summary("closed Final/Pens 1-1 SO 2-1"),
                lineScore: "1st Half 1-0, 2nd Half 0-1, ET1 0-0, ET2 0-0"),
            Script("NHL tied after overtime", "nhl", nhlToShootout([.gameEnded(.closed)]), .error("rule-broken")),
            Script(
                "NHL shoot-out undecided", "nhl",
                nhlToShootout([.start(5)] + attempts([(.home, false), (.away, false)]) + [.gameEnded(.closed)]),
                .error("rule-broken")),
            Script(
                "NHL shoot-out won by home: one goal more", "nhl",
                nhlToShootout([.start(5)] + attempts([(.home, true), (.away, false)]) + [.gameEnded(.closed)]),
                .summary("closed Final/SO 3-2 SO 1-0"), lineScore: "1st 1-1, 2nd 1-0, 3rd 0-1, OT 0-0"),
            Script(
                "NHL shoot-out won by away", "nhl",
                nhlToShootout(
                    [.start(5)] + attempts([(.home, false), (.away, true), (.home, true), (.away, true)]) + [
                        .end(5), .gameEnded(.closed),
                    ]), .summary("closed Final/SO 2-3 SO 1-2")),
            Script(
                "NHL won in overtime", "nhl", Array(nhlToShootout().dropLast()) + [awayGoal, .gameEnded(.closed)],
                .summary("closed Final/OT 2-3")),
            Script("closed before the start", "nhl", [.gameEnded(.closed)], .error("not-started")),
            Script("cancelled before the start", "nhl", [.gameEnded(.cancelled)], .summary("cancelled Pre-game 0-0")),
            Script("postponed tied", "nba", nbaTied([.gameEnded(.postponed)]), .summary("postponed End of Q4 3-3")),
            Script(
                "ended twice", "nba", [.gameStarted, home3, .gameEnded(.closed), .gameEnded(.closed)],
                .error("game-ended")),
        ])
    func gameEnded(_ row: Script) { row.check() }
}
