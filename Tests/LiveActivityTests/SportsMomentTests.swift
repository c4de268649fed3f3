import Foundation
import LiveActivity
import ScoreDomain
import Testing

/// Which change of a clock sport alerts at priority 10, and with which title (issue 26 point 5).
@Suite("the clock sports: moments per sport")
struct SportsMomentTests {
    /// A game of `sport` under `competition`, started at 0 with its clock running from 10 s.
    static func started(_ sport: Sport, _ competition: String) -> S.Game {
        var game = S.Game(sport, competition)
        game.add(.gameStarted, 0)
        game.add(.clockStarted(ms: nil), 10)
        return game
    }

    /// Plays on from `game` through the end of period `last`, each period 100 s after the one before
    /// (starting at `from` seconds), the clock run to its end.
    static func periods(_ game: inout S.Game, through last: Int, from: Double = 100) {
        let current = game.final!.periodNumber
        var at = from
        for period in current...last {
            if period > current {
                game.add(.periodStarted(period: period, kind: nil), at)
                if game.final!.clock != nil { game.add(.clockStarted(ms: nil), at + 1) }
            }
            game.add(.periodEnded(period: period), at + 50)
            at += 100
        }
    }

    /// The push the last message of `game` gives one activity that saw the whole game (no interval,
    /// a large budget): priority and alert title, or `nil` when nothing goes out.
    static func last(_ game: S.Game) throws -> (priority: Int, title: String?, body: String?)? {
        let changes = game.changes
        let version = try #require(changes.last?.next.version)
        let pushes = S.pushes(changes, policy: ThrottlePolicy(minInterval: 0), frequentUpdates: true)
        guard let push = pushes.last(where: { $0.version == version }) else { return nil }
        var body: String?
        if case .string(let text) = SchemaCheck.member(try S.json(push.payload), "aps", "alert", "body") { body = text }
        return (push.priority, try S.title(push.payload), body)
    }

    static func scored(_ team: Side, _ kind: ScoringKind, clockMs: Int? = nil) -> ScoreEvent {
        .pointsScored(PointsScored(team: team, points: kind.points, kind: kind, clockMs: clockMs))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var build: @Sendable () -> S.Game
        /// `nil`: no push; else the priority and the alert title.
        var expected: (priority: Int, title: String?)?
        var testDescription: String { name }
    }

    static let soccer: [Case] = [
        Case(
            name: "soccer goal",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(scored(.home, .goal), 60)
                return g
            }, expected: (10, "Goal")),
        Case(
            name: "soccer penalty",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(scored(.away, .penalty), 60)
                return g
            }, expected: (10, "Penalty goal")),
        Case(
            name: "soccer own goal",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(scored(.away, .ownGoal), 60)
                return g
            }, expected: (10, "Own goal")),
        Case(
            name: "soccer red card",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(.cardShown(team: .home, card: .red, player: nil, clockMs: nil), 60)
                return g
            }, expected: (10, "Red card")),
        Case(
            name: "soccer second yellow",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(.cardShown(team: .home, card: .secondYellow, player: nil, clockMs: nil), 60)
                return g
            }, expected: (10, "Red card")),
        Case(
            name: "soccer yellow card: nothing the phone shows",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(.cardShown(team: .home, card: .yellow, player: nil, clockMs: nil), 60)
                return g
            }, expected: nil),
        Case(
            name: "soccer disallowed goal",
            build: {
                var g = started(.soccer, "knockout-soccer")
                let goal = g.add(scored(.home, .goal), 60)
                g.add(.retracted(id: goal, reason: "VAR"), 120)
                return g
            }, expected: (10, "Goal disallowed")),
        Case(
            name: "soccer rescinded red card: priority 5",
            build: {
                var g = started(.soccer, "knockout-soccer")
                let card = g.add(.cardShown(team: .home, card: .red, player: nil, clockMs: nil), 60)
                g.add(.retracted(id: card, reason: nil), 120)
                return g
            }, expected: (5, nil)),
        Case(
            name: "soccer half-time",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(.periodEnded(period: 1), 60)
                return g
            }, expected: (10, "Half-time")),
        Case(
            name: "soccer end of the 2nd half, tied in a knockout",
            build: {
                var g = started(.soccer, "knockout-soccer")
                periods(&g, through: 2)
                return g
            }, expected: (10, "End of 2nd Half")),
        Case(
            name: "soccer end of the 2nd half with a winner: the final follows",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(scored(.home, .goal), 20)
                periods(&g, through: 2)
                return g
            }, expected: (5, nil)),
        Case(
            name: "soccer end of the first half of extra time",
            build: {
                var g = started(.soccer, "knockout-soccer")
                periods(&g, through: 3)
                return g
            }, expected: (10, "End of ET1")),
        Case(
            name: "soccer shoot-out result",
            build: {
                var g = started(.soccer, "knockout-soccer")
                periods(&g, through: 4)
                g.add(.periodStarted(period: 5, kind: .shootout), 1000)
                g.add(.shootoutAttempt(team: .away, scored: true, player: nil), 1010)
                g.add(.shootoutAttempt(team: .home, scored: false, player: nil), 1020)
                g.add(.periodEnded(period: 5), 1030)
                return g
            }, expected: (10, "LAL win the shoot-out")),
        Case(
            name: "soccer shoot-out kick: priority 5",
            build: {
                var g = started(.soccer, "knockout-soccer")
                periods(&g, through: 4)
                g.add(.periodStarted(period: 5, kind: .shootout), 1000)
                g.add(.shootoutAttempt(team: .away, scored: true, player: nil), 1010)
                return g
            }, expected: (5, nil)),
        Case(
            name: "soccer final",
            build: {
                var g = started(.soccer, "league-soccer")
                periods(&g, through: 2)
                g.add(.gameEnded(.closed), 400)
                return g
            }, expected: (10, "Final")),
        Case(
            name: "soccer clock.set within the tolerance: nothing",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(.clockSet(ms: 50_000 + 1500), 60)
                return g
            }, expected: nil),
        Case(
            name: "soccer clock.set beyond the tolerance: a jump, priority 5",
            build: {
                var g = started(.soccer, "knockout-soccer")
                g.add(.clockSet(ms: 50_000 + 5000), 60)
                return g
            }, expected: (5, nil)),
    ]

    static let basketball: [Case] = [
        Case(
            name: "basketball basket in Q1: priority 5",
            build: {
                var g = started(.basketball, "nba")
                g.add(scored(.home, .two), 60)
                return g
            }, expected: (5, nil)),
        Case(
            name: "basketball lead change in Q4 with 5:00 left: priority 5",
            build: {
                var g = started(.basketball, "nba")
                periods(&g, through: 3)
                g.add(.periodStarted(period: 4, kind: nil), 1000)
                g.add(.clockStarted(ms: nil), 1000)
                g.add(scored(.home, .two), 1000 + 420)
                return g
            }, expected: (5, nil)),
        Case(
            name: "basketball lead change in Q4 with 1:30 left",
            build: {
                var g = started(.basketball, "nba")
                periods(&g, through: 3)
                g.add(.periodStarted(period: 4, kind: nil), 1000)
                g.add(.clockStarted(ms: nil), 1000)
                g.add(scored(.home, .two), 1100)
                g.add(scored(.away, .three), 1000 + 630)
                return g
            }, expected: (10, "Lead change")),
        Case(
            name: "basketball tie in Q4 with 0:30 left",
            build: {
                var g = started(.basketball, "nba")
                periods(&g, through: 3)
                g.add(.periodStarted(period: 4, kind: nil), 1000)
                g.add(.clockStarted(ms: nil), 1000)
                g.add(scored(.home, .two), 1100)
                g.add(scored(.away, .two), 1000 + 690)
                return g
            }, expected: (10, "Tied")),
        Case(
            name: "basketball basket that extends a late lead: priority 5",
            build: {
                var g = started(.basketball, "nba")
                periods(&g, through: 3)
                g.add(.periodStarted(period: 4, kind: nil), 1000)
                g.add(.clockStarted(ms: nil), 1000)
                g.add(scored(.home, .two), 1100)
                g.add(scored(.home, .two), 1000 + 690)
                return g
            }, expected: (5, nil)),
        Case(
            name: "basketball lead change in the 2nd half's last two minutes (NCAA men)",
            build: {
                var g = started(.basketball, "ncaa-men")
                periods(&g, through: 1)
                g.add(.periodStarted(period: 2, kind: nil), 1000)
                g.add(.clockStarted(ms: nil), 1000)
                g.add(scored(.home, .two), 1100)
                g.add(scored(.away, .three), 1000 + 1100)
                return g
            }, expected: (10, "Lead change")),
        Case(
            name: "basketball end of Q1",
            build: {
                var g = started(.basketball, "nba")
                g.add(.periodEnded(period: 1), 60)
                return g
            }, expected: (10, "End of Q1")),
        Case(
            name: "basketball end of Q2",
            build: {
                var g = started(.basketball, "nba")
                periods(&g, through: 2)
                return g
            }, expected: (10, "Half-time")),
        Case(
            name: "basketball overtime",
            build: {
                var g = started(.basketball, "nba")
                periods(&g, through: 4)
                g.add(.periodStarted(period: 5, kind: .overtime), 1000)
                return g
            }, expected: (10, "Overtime")),
        Case(
            name: "basketball lead change in overtime",
            build: {
                var g = started(.basketball, "nba")
                periods(&g, through: 4)
                g.add(.periodStarted(period: 5, kind: .overtime), 1000)
                g.add(.clockStarted(ms: nil), 1001)
                g.add(scored(.away, .two), 1010)
                return g
            }, expected: (10, "Lead change")),
        Case(
            name: "basketball final",
            build: {
                var g = started(.basketball, "nba")
                g.add(scored(.away, .two), 20)
                periods(&g, through: 4)
                g.add(.gameEnded(.closed), 1000)
                return g
            }, expected: (10, "Final")),
    ]

    static let hockey: [Case] = [
        Case(
            name: "hockey goal",
            build: {
                var g = started(.hockey, "nhl")
                g.add(scored(.home, .goal), 60)
                return g
            }, expected: (10, "Goal")),
        Case(
            name: "hockey disallowed goal",
            build: {
                var g = started(.hockey, "nhl")
                let goal = g.add(scored(.home, .goal), 60)
                g.add(.retracted(id: goal, reason: "offside"), 100)
                return g
            }, expected: (10, "Goal disallowed")),
        Case(
            name: "hockey end of the 1st period",
            build: {
                var g = started(.hockey, "nhl")
                g.add(.periodEnded(period: 1), 60)
                return g
            }, expected: (10, "End of 1st period")),
        Case(
            name: "hockey overtime",
            build: {
                var g = started(.hockey, "nhl")
                periods(&g, through: 3)
                g.add(.periodStarted(period: 4, kind: .overtime), 1000)
                return g
            }, expected: (10, "Overtime")),
        Case(
            name: "hockey second overtime (playoffs)",
            build: {
                var g = started(.hockey, "nhl-playoffs")
                periods(&g, through: 4)
                g.add(.periodStarted(period: 5, kind: .overtime), 1000)
                return g
            }, expected: (10, "Overtime (2OT)")),
        Case(
            name: "hockey shoot-out result",
            build: {
                var g = started(.hockey, "nhl")
                periods(&g, through: 4)
                g.add(.periodStarted(period: 5, kind: .shootout), 1000)
                g.add(.shootoutAttempt(team: .home, scored: true, player: nil), 1010)
                g.add(.periodEnded(period: 5), 1030)
                return g
            }, expected: (10, "BOS win the shoot-out")),
        Case(
            name: "hockey final",
            build: {
                var g = started(.hockey, "nhl")
                g.add(scored(.away, .goal), 20)
                periods(&g, through: 3)
                g.add(.gameEnded(.closed), 1000)
                return g
            }, expected: (10, "Final")),
    ]

    static let football: [Case] = [
        Case(
            name: "football touchdown",
            build: {
                var g = started(.football, "nfl")
                g.add(scored(.home, .touchdown), 60)
                return g
            }, expected: (10, "Touchdown")),
        Case(
            name: "football extra point: priority 5",
            build: {
                var g = started(.football, "nfl")
                g.add(scored(.home, .touchdown), 60)
                g.add(scored(.home, .extraPoint), 100)
                return g
            }, expected: (5, nil)),
        Case(
            name: "football field goal",
            build: {
                var g = started(.football, "nfl")
                g.add(scored(.away, .fieldGoal), 60)
                return g
            }, expected: (10, "Field goal")),
        Case(
            name: "football safety",
            build: {
                var g = started(.football, "nfl")
                g.add(scored(.away, .safety), 60)
                return g
            }, expected: (10, "Safety")),
        Case(
            name: "football turnover",
            build: {
                var g = started(.football, "nfl")
                g.add(
                    .situationChanged(
                        Situation(possession: .home, down: 1, distance: 10, yardLine: 25), turnover: false, clockMs: nil
                    ), 30)
                g.add(
                    .situationChanged(
                        Situation(possession: .away, down: 1, distance: 10, yardLine: 60), turnover: true, clockMs: nil),
                    60)
                return g
            }, expected: (10, "Turnover")),
        Case(
            name: "football a new down: priority 5",
            build: {
                var g = started(.football, "nfl")
                g.add(
                    .situationChanged(
                        Situation(possession: .home, down: 1, distance: 10, yardLine: 25), turnover: false, clockMs: nil
                    ), 30)
                g.add(
                    .situationChanged(
                        Situation(possession: .home, down: 2, distance: 4, yardLine: 31), turnover: false, clockMs: nil),
                    60)
                return g
            }, expected: (5, nil)),
        Case(
            name: "football end of Q1",
            build: {
                var g = started(.football, "nfl")
                g.add(.periodEnded(period: 1), 60)
                return g
            }, expected: (10, "End of Q1")),
        Case(
            name: "football end of Q3",
            build: {
                var g = started(.football, "nfl")
                periods(&g, through: 3)
                return g
            }, expected: (10, "End of Q3")),
        Case(
            name: "football final",
            build: {
                var g = started(.football, "nfl")
                g.add(scored(.away, .fieldGoal), 20)
                periods(&g, through: 4)
                g.add(.gameEnded(.closed), 1000)
                return g
            }, expected: (10, "Final")),
    ]

    @Test(arguments: soccer + basketball + hockey + football)
    func moment(_ test: Case) throws {
        let push = try Self.last(test.build())
        #expect(push?.priority == test.expected?.priority, "\(push.map { "\($0)" } ?? "no push")")
        #expect(push?.title == test.expected?.title)
    }

    @Test("the alert body names the period label: extra time, the shoot-out's tally, the final")
    func alertBody() throws {
        var game = Self.started(.soccer, "knockout-soccer")
        Self.periods(&game, through: 3)
        game.add(.periodStarted(period: 4, kind: .extraTime), 1000)
        game.add(.clockStarted(ms: nil), 1001)
        game.add(Self.scored(.away, .goal), 1010)
        #expect(try Self.last(game)?.body == "LAL 1 – 0 BOS, ET2")
        game.add(Self.scored(.home, .goal), 1020)
        game.add(.periodEnded(period: 4), 1030)
        game.add(.periodStarted(period: 5, kind: .shootout), 1040)
        game.add(.shootoutAttempt(team: .away, scored: false, player: nil), 1050)
        game.add(.shootoutAttempt(team: .home, scored: true, player: nil), 1060)
        game.add(.periodEnded(period: 5), 1070)
        game.add(.gameEnded(.closed), 1080)
        let final = try #require(try Self.last(game))
        #expect(final.title == "Final")
        #expect(final.body == "LAL 1 – 1 BOS, Final/Pens (0–1)")
    }

    @Test("relevance: higher for a close and late game, per sport's margins")
    func relevance() throws {
        func relevance(_ game: S.Game) throws -> Int {
            let push = try #require(S.pushes(game.changes, policy: ThrottlePolicy(minInterval: 0)).last)
            guard case .int(let score) = SchemaCheck.member(try S.json(push.payload), "aps", "relevance-score") else {
                throw CancellationError()
            }
            return score
        }
        var early = Self.started(.basketball, "nba")
        early.add(Self.scored(.home, .two), 60)
        var lateClose = Self.started(.basketball, "nba")
        Self.periods(&lateClose, through: 3)
        lateClose.add(.periodStarted(period: 4, kind: nil), 1000)
        lateClose.add(.clockStarted(ms: nil), 1000)
        lateClose.add(Self.scored(.home, .two), 1600)
        var lateBlowout = lateClose
        for second in 0..<10 { lateBlowout.add(Self.scored(.home, .three), 1601 + Double(second)) }
        let (a, b, c) = (try relevance(early), try relevance(lateClose), try relevance(lateBlowout))
        #expect(b > a && b > c, "\(a) \(b) \(c)")
        #expect((0...100).contains(a) && (0...100).contains(b) && (0...100).contains(c))
        var soccer = Self.started(.soccer, "league-soccer")
        soccer.add(Self.scored(.home, .goal), 60)
        var soccerTwo = soccer
        soccerTwo.add(Self.scored(.home, .goal), 70)
        #expect(try relevance(soccer) > relevance(soccerTwo))
    }
}
