import Foundation
import ScoreDomain
import Testing

/// The clock anchor through a game: started, stopped, set, a play's clock within the tolerance or not,
/// the period's end; and the clock of a scoring entry as the sport shows it.
@Suite("ClockFold: the clock anchor and the scoring list")
struct ClockAnchorTests {
    @Test("basketball: start, plays within 2 s leave the anchor, 3 s off re-anchor, stop, set, end at 0:00")
    func countdown() throws {
        var game = Match("nba")
        try game.send(.gameStarted, at: 0)
        #expect(game.state.clockText == "12:00 stopped @0")
        try game.send(.clockStarted(ms: nil), at: 10)
        #expect(game.state.clockText == "12:00 running @10")
        try game.send(.score(.home, .two, clock: "11:00"), at: 70)
        #expect(game.state.clockText == "12:00 running @10")
        try game.send(.score(.away, .two, clock: "10:02"), at: 130)  // predicted 10:00: 2 s, within
        #expect(game.state.clockText == "12:00 running @10")
        try game.send(.score(.home, .three, clock: "8:57"), at: 190)  // predicted 9:00: 3 s off
        #expect(game.state.clockText == "8:57 running @190")
        try game.send(.clockSet(ms: ms("7:58")), at: 250)  // predicted 7:57: 1 s
        #expect(game.state.clockText == "8:57 running @190")
        try game.send(.clockSet(ms: ms("8:30")), at: 250)  // a jump
        #expect(game.state.clockText == "8:30 running @250")
        try game.send(.clockStarted(ms: nil), at: 260)  // already running: nothing
        #expect(game.state.clockText == "8:30 running @250")
        try game.send(.clockStopped(ms: nil), at: 270.5)
        #expect(game.state.clockText == "8:09.5 stopped @270")
        #expect(game.state.clock?.at == Match.at(270.5))
        try game.send(.clockSet(ms: ms("8:09.5")), at: 280)  // stopped, the same value: nothing changes
        #expect(game.state.clockText == "8:09.5 stopped @270")
        try game.send(.clockSet(ms: ms("8:09")), at: 285)  // stopped, any other value is a correction
        #expect(game.state.clockText == "8:09 stopped @285")
        try game.send(.clockStopped(ms: ms("8:00")), at: 290)  // stopped, 9 s off: set
        #expect(game.state.clockText == "8:00 stopped @290")
        try game.send(.clockStarted(ms: ms("8:01")), at: 300)
        #expect(game.state.clockText == "8:01 running @300")
        try game.send(.clockStopped(ms: ms("7:00")), at: 350)  // the provider's value wins on a stop
        #expect(game.state.clockText == "7:00 stopped @350")
        try game.send(.clockStarted(ms: nil), at: 360)
        #expect(game.state.clock?.value(at: Match.at(780)) == 0)  // never below 0:00
        try game.send(.end(1), at: 800)
        #expect(game.state.clockText == "0:00 stopped @800")
        #expect(game.state.clock?.countsDown == true)
        #expect(throws: FoldError.self) { try game.send(.clockStarted(ms: nil), at: 810) }
        try game.send(.start(2), at: 900)
        #expect(game.state.clockText == "12:00 stopped @900")
        #expect(
            game.state.scoringList == [
                "m3 1 11:00 home two 2-0", "m4 1 10:02 away two 2-2", "m5 1 8:57 home three 5-2",
            ])
    }

    @Test("a period ended early by the provider stops a countdown at 0:00")
    func periodEndStopsAtZero() throws {
        var game = Match("nhl")
        try game.send(.gameStarted, at: 0)
        try game.send(.clockStarted(ms: nil), at: 0)
        try game.send(.end(1), at: 600)  // the anchor says 10:00 left; the period is over
        #expect(game.state.clockText == "0:00 stopped @600")
        #expect(game.state.periodLabel == "End of 1st")
    }

    @Test("the tolerance is a rule: 0 s re-anchors on any difference")
    func toleranceRule() throws {
        var game = Match("nba") { $0.clockToleranceMs = 0 }
        try game.send(.gameStarted, at: 0)
        try game.send(.clockStarted(ms: nil), at: 0)
        try game.send(.clockSet(ms: ms("11:00")), at: 60)
        #expect(game.state.clockText == "12:00 running @0")
        try game.send(.clockSet(ms: ms("9:59.9")), at: 120)
        #expect(game.state.clockText == "9:59.9 running @120")
    }

    @Test("soccer: counting up, the half's stoppage time, half-time keeps the minute, the second half from 45:00")
    func soccer() throws {
        var game = Match("knockout-soccer")
        try game.send(.gameStarted, at: 0)
        try game.send(.clockStarted(ms: nil), at: 0)
        try game.send(.score(.away, .ownGoal, player: "J. Doe"), at: 1_000, id: "og")  // 16:40
        try game.send(.cardShown(team: .home, card: .yellow, player: nil, clockMs: ms("20:00")), at: 1_200, id: "y")
        try game.send(.score(.home, .goal), at: 2_832, id: "g1")  // 47:12: 45+3'
        #expect(game.state.clockText == "0:00 running @0")
        try game.send(.end(1), at: 2_900)
        #expect(game.state.clockText == "48:20 stopped @2900")
        #expect(game.state.periodLabel == "Half-time")
        try game.send(.start(2), at: 3_800)
        #expect(game.state.clockText == "45:00 stopped @3800")
        try game.send(.clockStarted(ms: nil), at: 3_800)
        try game.send(.score(.home, .penalty, clock: "52:12"), at: 4_232, id: "p")
        try game.send(.cardShown(team: .away, card: .red, player: "X", clockMs: nil), at: 4_300, id: "r")
        try game.send(.score(.away, .goal, clock: "93:12"), at: 6_792, id: "g2")
        try game.send(.end(2), at: 6_900)
        try game.send(.start(3), at: 7_200)
        #expect(game.state.clockText == "90:00 stopped @7200")
        try game.send(.clockStarted(ms: nil), at: 7_200)
        try game.send(.score(.home, .goal), at: 7_830, id: "g3")  // 100:30
        try game.send(.end(3), at: 8_200)
        try game.send(.start(4), at: 8_300)
        #expect(game.state.clockText == "105:00 stopped @8300")
        try game.send(.clockStarted(ms: nil), at: 8_300)
        try game.send(.score(.away, .goal), at: 9_260, id: "g4")  // 121:00: 120+2'
        #expect(
            game.state.scoringList == [
                "og 1 17' away ownGoal 0-1", "g1 1 45+3' home goal 1-1", "p 2 53' home penalty 2-1",
                "g2 2 90+4' away goal 2-2", "g3 3 101' home goal 3-2", "g4 4 120+2' away goal 3-3",
            ])
        #expect(game.state.lineScore == "1st Half 1-1, 2nd Half 1-1, ET1 1-0, ET2 0-1")
        #expect(game.state.redCards == SideTally(home: 0, away: 1))
        #expect(
            game.state.cards.elements.map { "\($0.id) \($0.period) \($0.clock ?? "-") \($0.card.rawValue)" } == [
                "y 1 21' yellow", "r 2 54' red",
            ])
        #expect(game.state.summary == "inprogress ET2 3-3")
    }

    @Test("a scoring entry's clock: the provider's value, else the anchor's; none in an untimed period")
    func scoringClock() throws {
        var game = Match("ncaa-football")
        try game.send(.gameStarted, at: 0)
        try game.send(.score(.home, .fieldGoal), at: 30)  // clock stopped at 15:00
        try game.send(.clockStarted(ms: nil), at: 40)
        try game.send(.score(.away, .touchdown), at: 867.5)  // 15:00 - 827.5 s = 1:12.5 → 1:13
        try game.send(.score(.away, .extraPoint, clock: "0:04.3"), at: 900)
        try game.send(.score(.home, .safety), at: 905)  // the anchor was set to 0:04.3 at 900: 0:00
        try game.send(.clockStarted(ms: nil), at: 1_000)
        #expect(game.state.clockText == "0:04.3 running @900")
        try game.send(.end(1), at: 1_000)
        try game.send(.start(2), at: 1_100)
        try game.send(.end(2), at: 1_200)
        try game.send(.start(3), at: 1_300)
        try game.send(.end(3), at: 1_400)
        try game.send(.start(4), at: 1_500)
        try game.send(.score(.home, .safety, clock: "0:00"), at: 1_600)
        try game.send(.end(4), at: 1_700)
        try game.send(.start(5), at: 1_800)
        #expect(game.state.clockText == "none")
        #expect(throws: FoldError.self) { try game.send(.clockStarted(ms: nil), at: 1_850) }
        try game.send(.score(.home, .touchdown), at: 1_900)
        try game.send(.score(.away, .touchdown, clock: "0:00"), at: 1_950)
        #expect(
            game.state.scoringList == [
                "m2 1 15:00 home fieldGoal 3-0", "m4 1 1:13 away touchdown 3-6", "m5 1 0:04.3 away extraPoint 3-7",
                "m6 1 0:00.0 home safety 5-7", "m14 4 0:00.0 home safety 7-7", "m17 5 - home touchdown 13-7",
                "m18 5 0:00.0 away touchdown 13-13",
            ])
        #expect(game.state.lineScore == "Q1 5-7, Q2 0-0, Q3 0-0, Q4 2-0, OT 6-6")
    }
}
