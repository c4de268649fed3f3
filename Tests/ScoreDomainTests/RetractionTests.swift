import Foundation
import ScoreDomain
import Testing

/// `event.retracted` and `score.corrected` in the clock sports: the game as if the play had not happened.
@Suite("ClockFold: retractions and corrections")
struct RetractionTests {
    /// League soccer: home goal "a" and away goal "b" in the first half, home "c" and away "d" in the second.
    static func soccerGame() throws -> Match {
        var game = Match("league-soccer")
        try game.send(.gameStarted, at: 0)
        try game.send(.clockStarted(ms: nil), at: 0)
        try game.send(.score(.home, .goal), at: 600, id: "a")
        try game.send(.score(.away, .goal), at: 1_200, id: "b")
        try game.send(.end(1), at: 2_760)
        try game.send(.start(2), at: 3_600)
        try game.send(.clockStarted(ms: nil), at: 3_600)
        try game.send(.score(.home, .penalty), at: 4_200, id: "c")
        try game.send(.score(.away, .goal), at: 4_800, id: "d")
        return game
    }

    @Test("a goal taken back: score, line score and the running scores after it shift")
    func retractGoal() throws {
        var game = try Self.soccerGame()
        #expect(
            game.state.scoringList == [
                "a 1 11' home goal 1-0", "b 1 21' away goal 1-1", "c 2 56' home penalty 2-1", "d 2 66' away goal 2-2",
            ])
        try game.send(.retracted(id: "a", reason: "VAR: offside"), at: 4_900)
        #expect(game.state.summary == "inprogress 2nd Half 1-2")
        #expect(game.state.lineScore == "1st Half 0-1, 2nd Half 1-1")
        #expect(
            game.state.scoringList == ["b 1 21' away goal 0-1", "c 2 56' home penalty 1-1", "d 2 66' away goal 1-2"])
        #expect(game.state.retracted.elements == ["a"])
        try game.send(.retracted(id: "d", reason: nil), at: 5_000)
        #expect(game.state.summary == "inprogress 2nd Half 1-1")
        #expect(game.state.scoringList == ["b 1 21' away goal 0-1", "c 2 56' home penalty 1-1"])
        #expect(game.state.retracted.elements == ["a", "d"])
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var retracts: String
        var code: String
        var reason: String
        var testDescription: String { retracts }
    }

    @Test(
        "refused: unknown, already retracted, not a play, a correction",
        arguments: [
            Refusal(
                retracts: "zzz", code: "unknown-retraction",
                reason:
                    #"event.retracted names "zzz", which is no scoring play, shoot-out attempt or card of game "g1""#),
            Refusal(
                retracts: "m1", code: "unknown-retraction",
                reason: #"event.retracted names "m1", which is no scoring play, shoot-out attempt or card of game "g1""#
            ),
            Refusal(
                retracts: "a", code: "already-retracted",
                reason: #"event.retracted names "a", which game "g1" has already taken back"#),
            Refusal(
                retracts: "fix", code: "not-retractable",
                reason:
                    #"event.retracted names "fix", a score.corrected of game "g1": send another score.corrected instead"#
            ),
        ])
    func refused(_ row: Refusal) throws {
        var game = try Self.soccerGame()
        try game.send(.retracted(id: "a", reason: nil), at: 4_900)
        try game.send(.scoreCorrected(homeScore: 2, awayScore: 2), at: 4_950, id: "fix")
        let before = game.state
        #expect(throws: FoldError(code: row.code, reason: row.reason)) {
            try game.send(.retracted(id: row.retracts, reason: nil), at: 5_000)
        }
        #expect(game.state == before)
    }

    @Test("after the end a goal can still be taken back; the final changes")
    func retractAfterTheEnd() throws {
        var game = try Self.soccerGame()
        try game.send(.end(2), at: 6_000)
        try game.send(.gameEnded(.closed), at: 6_010)
        #expect(game.state.summary == "closed Final 2-2")
        try game.send(.retracted(id: "c", reason: "penalty retaken and missed"), at: 6_300)
        #expect(game.state.summary == "closed Final 1-2")
        #expect(game.state.lineScore == "1st Half 1-1, 2nd Half 0-1")
        #expect(game.state.scoringList.last == "d 2 66' away goal 1-2")
        #expect(throws: FoldError.self) { try game.send(.score(.home, .goal), at: 6_400) }
    }

    @Test("a red card taken back: red cards and the card list; a yellow leaves red cards alone")
    func retractCard() throws {
        var game = Match("league-soccer")
        try game.send(.gameStarted, at: 0)
        try game.send(.cardShown(team: .away, card: .yellow, player: "P", clockMs: nil), id: "y")
        try game.send(.cardShown(team: .away, card: .secondYellow, player: "P", clockMs: nil), id: "y2")
        try game.send(.cardShown(team: .home, card: .red, player: "Q", clockMs: nil), id: "r")
        #expect(game.state.redCards == SideTally(home: 1, away: 1))
        try game.send(.retracted(id: "r", reason: "rescinded"))
        #expect(game.state.redCards == SideTally(home: 0, away: 1))
        try game.send(.retracted(id: "y", reason: nil))
        #expect(game.state.redCards == SideTally(home: 0, away: 1))
        #expect(game.state.cards.elements.map(\.id) == ["y2"])
        #expect(game.state.retracted.elements == ["r", "y"])
        #expect(
            throws: FoldError(
                code: "already-retracted", reason: #"event.retracted names "r", which game "g1" has already taken back"#
            )
        ) {
            try game.send(.retracted(id: "r", reason: nil))
        }
    }

    /// An NHL game 2-2 after overtime, in the shoot-out: home scores s1, s3, s5; away scores s2, s4, misses s6.
    static func nhlShootout() throws -> Match {
        var game = Match("nhl")
        try game.send([
            .gameStarted, .score(.home, .goal), .score(.away, .goal), .end(1), .start(2), .score(.home, .goal),
        ])
        try game.send([.end(2), .start(3), .score(.away, .goal), .end(3), .start(4), .end(4), .start(5)])
        for (index, (side, scored)) in [
            (Side.home, true), (.away, true), (.home, true), (.away, true), (.home, true), (.away, false),
        ].enumerated() {
            try game.send(.shootoutAttempt(team: side, scored: scored, player: nil), id: "s\(index + 1)")
        }
        return game
    }

    @Test("a shoot-out attempt taken back during the shoot-out changes the tally only")
    func retractAttempt() throws {
        var game = try Self.nhlShootout()
        #expect(game.state.summary == "inprogress SO 2-2 SO 3-2")
        try game.send(.retracted(id: "s5", reason: nil))
        #expect(game.state.summary == "inprogress SO 2-2 SO 2-2")
        try game.send(.retracted(id: "s6", reason: nil))
        #expect(game.state.summary == "inprogress SO 2-2 SO 2-2")
        #expect(game.state.shootoutAttempts.elements.map(\.id) == ["s1", "s2", "s3", "s4"])
        #expect(throws: FoldError.self) { try game.send(.gameEnded(.closed)) }
    }

    @Test("after an NHL final, a shoot-out attempt taken back moves or removes the winner's extra goal")
    func retractAttemptAfterTheFinal() throws {
        var game = try Self.nhlShootout()
        try game.send(.end(5))
        try game.send(.gameEnded(.closed))
        #expect(game.state.summary == "closed Final/SO 3-2 SO 3-2")
        #expect(game.state.lineScore == "1st 1-1, 2nd 1-0, 3rd 0-1, OT 0-0")
        try game.send(.retracted(id: "s1", reason: nil))
        #expect(game.state.summary == "closed Final/SO 2-2 SO 2-2")
        try game.send(.retracted(id: "s3", reason: nil))
        #expect(game.state.summary == "closed Final/SO 2-3 SO 1-2")
        #expect(game.state.lineScore == "1st 1-1, 2nd 1-0, 3rd 0-1, OT 0-0")
        #expect(game.state.scoringList.last == "m9 3 20:00 away goal 2-2")
        #expect(game.state.inPlayScore == SideTally(home: 2, away: 2))
        // A goal of regulation taken back after the final: the shoot-out's extra goal stays with its winner.
        try game.send(.retracted(id: "m2", reason: nil))
        #expect(game.state.summary == "closed Final/SO 1-3 SO 1-2")
        #expect(
            game.state.scoringList == [
                "m3 1 20:00 away goal 0-1", "m6 2 20:00 home goal 1-1", "m9 3 20:00 away goal 1-2",
            ])
    }

    @Test("baseball: a run taken back, also after the end; the innings' line score follows")
    func retractRun() throws {
        func fold(_ event: ScoreEvent, _ id: String, _ state: ScoreState) throws -> ScoreState {
            try ScoreFold.apply(T.message(event, id: id), to: state)
        }
        var state = T.state(.inprogress, 1, .top)
        state = try fold(.runScored(team: .away, runs: 2), "r1", state)
        state = try fold(.inningChanged(inning: 2, half: .bottom), "i1", state)
        state = try fold(.runScored(team: .home, runs: 1), "r2", state)
        state = try fold(.runScored(team: .home, runs: 4), "r3", state)
        state = try fold(.retracted(id: "r1", reason: "fan interference"), "x1", state)
        #expect(state.summary == "inprogress Bottom 2nd 5-0")
        #expect(state.lineScore == "1st 0-0, 2nd 5-0")
        #expect(state.scoringList == ["r2 2 - home run 1-0", "r3 2 - home run 5-0"])
        state = try fold(.gameEnded(.closed), "e", state)
        state = try fold(.retracted(id: "r3", reason: nil), "x2", state)
        #expect(state.summary == "closed Bottom 2nd 1-0")
        #expect(throws: FoldError.self) { try fold(.retracted(id: "i1", reason: nil), "x3", state) }
        #expect(throws: FoldError.self) { try fold(.runScored(team: .home, runs: 1), "r4", state) }
    }

    @Test("score.corrected: a correction entry in the current period with its change; nothing when unchanged")
    func correction() throws {
        var game = Match("nba")
        try game.send([.gameStarted, .score(.home, .three), .end(1), .start(2)])
        try game.send(.scoreCorrected(homeScore: 5, awayScore: 1), id: "fix")
        #expect(game.state.summary == "inprogress Q2 5-1")
        #expect(game.state.lineScore == "Q1 3-0, Q2 2-1")
        #expect(game.state.scoringList == ["m2 1 12:00 home three 3-0", "fix 2 - correction 2,1 5-1"])
        try game.send(.scoreCorrected(homeScore: 5, awayScore: 1), id: "same")
        #expect(game.state.scoring.count == 2)
        try game.send(.scoreCorrected(homeScore: 4, awayScore: 1), id: "down")
        #expect(game.state.scoringList.last == "down 2 - correction -1,0 4-1")
        #expect(game.state.lineScore == "Q1 3-0, Q2 1-1")
        try game.send(.gameEnded(.closed))
        try game.send(.scoreCorrected(homeScore: 4, awayScore: 6), id: "late")
        #expect(game.state.summary == "closed Final 4-6")
        #expect(game.state.scoringList.last == "late 2 - correction 0,5 4-6")
    }

    @Test("score.corrected after an NHL shoot-out final: the entry holds the in-play score")
    func correctionAfterShootout() throws {
        var game = try Self.nhlShootout()
        try game.send(.gameEnded(.closed))
        try game.send(.scoreCorrected(homeScore: 4, awayScore: 2), id: "fix")
        #expect(game.state.summary == "closed Final/SO 4-2 SO 3-2")
        #expect(game.state.scoringList.last == "fix 4 - correction 1,0 3-2")
        #expect(game.state.lineScore == "1st 1-1, 2nd 1-0, 3rd 0-1, OT 1-0")
    }
}
