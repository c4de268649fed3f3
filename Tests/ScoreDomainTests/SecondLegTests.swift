import Foundation
import ScoreDomain
import Testing

/// A two-legged tie's second leg: extra time and a shoot-out follow the aggregate, the score is the
/// match's own (a Champions League qualifier's second leg 2-1 after a 1-2 first leg goes to extra time).
@Suite("second legs: decided on aggregate")
struct SecondLegTests {
    /// A knockout second leg whose first leg ended `home`-`away` (for this game's sides), after 90
    /// minutes with the home side 1-0 up.
    static func homeOneUp(firstLeg: SideTally?) throws(FoldError) -> Match {
        var game = Match("knockout-soccer") { $0.firstLeg = firstLeg }
        try game.send([.gameStarted, .score(.home, .goal), .end(1), .start(2), .end(2)])
        return game
    }

    @Test("level on aggregate after 90: extra time and a shoot-out are played, the final is the match score")
    func levelOnAggregate() throws {
        var game = try Self.homeOneUp(firstLeg: SideTally(home: 0, away: 1))
        try game.send([.start(3), .end(3), .start(4), .end(4), .start(5, .shootout)])
        try game.send([
            .shootoutAttempt(team: .home, scored: true, player: nil),
            .shootoutAttempt(team: .away, scored: false, player: nil), .end(5), .gameEnded(.closed),
        ])
        #expect(game.state.homeScore == 1)
        #expect(game.state.awayScore == 0)
        #expect(game.state.summary == "closed Final/Pens 1-0 SO 1-0")
    }

    @Test("ahead on aggregate: no extra time; the leg ends although the first leg's loser won it")
    func aheadOnAggregate() throws {
        var ahead = try Self.homeOneUp(firstLeg: SideTally(home: 1, away: 0))
        #expect(throws: FoldError.self) { try ahead.send(.start(3)) }
        var behind = try Self.homeOneUp(firstLeg: SideTally(home: 0, away: 2))
        try behind.send(.gameEnded(.closed))
        #expect(behind.state.status == .closed)
        #expect(behind.state.homeScore == 1)
    }

    @Test("level on aggregate at the end: the tie is not decided")
    func levelAtTheEnd() throws {
        var game = try Self.homeOneUp(firstLeg: SideTally(home: 0, away: 1))
        #expect(throws: FoldError.self) { try game.send(.gameEnded(.closed)) }
        let single = try Self.homeOneUp(firstLeg: nil)
        var copy = single
        try copy.send(.gameEnded(.closed))
        #expect(copy.state.status == .closed)
    }

    @Test("firstLeg is read, written and kept in the state; a bad one names the field")
    func feed() throws {
        let line =
            #"{"id":"s","gameId":"g","at":"2026-08-01T18:00:00Z","type":"game.scheduled","sport":"soccer","#
            + #""competition":"knockout-soccer","rules":{"firstLeg":{"home":1,"away":2}},"#
            + #""home":{"code":"AAA","name":"A","logo":""},"away":{"code":"BBB","name":"B","logo":""},"#
            + #""startsAt":"2026-08-01T19:00:00Z"}"#
        let message = try FeedParser.parse(line)
        guard case .gameScheduled(_, _, _, let setup) = message.event else {
            Issue.record("not game.scheduled")
            return
        }
        #expect(setup.rules.firstLeg == SideTally(home: 1, away: 2))
        #expect(try FeedParser.parse(message.canonicalJSON()) == message)
        let state = try ScoreFold.apply(message, to: nil)
        #expect(try ScoreState(json: state.jsonValue) == state)
        for bad in [#"{"home":1}"#, #"{"home":-1,"away":0}"#, #"[1,2]"#] {
            let text = line.replacingOccurrences(of: #"{"home":1,"away":2}"#, with: bad)
            #expect {
                try FeedParser.parse(text)
            } throws: { error in
                "\(error)".contains("rules.firstLeg")
            }
        }
    }
}
