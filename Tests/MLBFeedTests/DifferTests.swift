import Foundation
import MLBFeed
import ScoreDomain
import Testing

@Suite("the differ: GUMBO documents to canonical messages")
struct DifferTests {
    @Test("a full game from Preview to Final: ids, events and the final state")
    func fullGame() throws {
        let (messages, view) = replay(try snapshots("full-game"), from: MLBGameView(gamePk: 746001))
        #expect(
            shortIds(messages) == [
                "0001-scheduled", "0002-started", "0003-bases-1", "0004-outs-2", "0005-away-runs-2", "0006-bases-empty",
                "0007-outs-3", "0008-bottom-2", "0009-home-runs-1", "0010-top-3", "0011-outs-3", "0012-bottom-4",
                "0013-home-runs-3", "0014-top-5", "0015-outs-1", "0016-bases-2", "0017-outs-3", "0018-top-6",
                "0019-away-runs-3", "0020-bottom-7", "0021-home-runs-5", "0022-outs-3", "0023-top-9", "0024-outs-2",
                "0025-bases-13", "0026-outs-3", "0027-final",
            ])
        #expect(messages.allSatisfy { $0.gameId == "mlb-746001" && $0.id.hasPrefix("mlb-746001-") })
        #expect(messages[0].event.type == "game.scheduled")
        #expect(messages[4].event == .runScored(team: .away, runs: 2))
        #expect(messages[12].event == .runScored(team: .home, runs: 2))
        #expect(messages.last?.event == .gameEnded(.closed))
        #expect(rfc3339(messages.last!.at) == "2026-04-02T02:07:44Z")
        let state = try #require(view.state)
        #expect((state.awayScore, state.homeScore, state.status) == (3, 5, .closed))
        #expect(state.inning == "Top 9th")
        #expect(state.outs == 3)
        #expect(state.version == 27)
        #expect(state.away.code == "NYY")
        #expect(view.timecode?.text == "20260402_021500")
    }

    @Test(
        "every message folds: replaying them through ScoreFold gives the same state",
        arguments: [
            "full-game", "extra-innings", "corrections", "rain-postponed",
        ])
    func folds(_ game: String) throws {
        let (messages, view) = replay(try snapshots(game), from: MLBGameView(gamePk: try snapshot(game, 1).gamePk))
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        #expect(state == view.state)
        #expect(Set(messages.map(\.id)).count == messages.count)
    }

    @Test("extra innings: tied after nine, a run each in the 10th, a walk-off in the bottom of the 11th")
    func extraInnings() throws {
        let (messages, view) = replay(try snapshots("extra-innings"), from: MLBGameView(gamePk: 746002))
        let state = try #require(view.state)
        #expect(
            (state.awayScore, state.homeScore, state.status, state.inning, state.outs) == (
                4, 5, .closed, "Bottom 11th", 1
            ))
        let innings = messages.compactMap { message -> String? in
            if case .inningChanged(let inning, let half) = message.event { return "\(half.rawValue) \(inning)" }
            return nil
        }
        #expect(innings.suffix(4) == ["top 10", "bottom 10", "top 11", "bottom 11"])
        #expect(shortIds(messages).suffix(4) == ["0026-bottom-11", "0027-home-runs-5", "0028-outs-1", "0029-final"])
    }

    @Test("a correction that lowers a score becomes score.corrected, then the game goes on")
    func correction() throws {
        let game = try snapshots("corrections")
        let before = replay(Array(game[0..<3]), from: MLBGameView(gamePk: 746003)).view
        #expect(before.state?.awayScore == 2)
        let diff = MLBDiffer.diff(before, game[3])
        #expect(diff.messages.map(\.event) == [.scoreCorrected(homeScore: 0, awayScore: 1), .outRecorded(outs: 1)])
        #expect(shortIds(diff.messages) == ["0009-corrected-1-0", "0010-outs-2"])
        #expect(diff.notes == ["scoring play(s) rewritten: at-bat 12"])
        #expect(diff.view.state?.awayScore == 1)
    }

    @Test("an overturned home run takes the run back with score.corrected")
    func overturned() throws {
        let game = try snapshots("corrections")
        let homer = replay(Array(game[0..<6]), from: MLBGameView(gamePk: 746003)).view
        #expect((homer.state?.awayScore, homer.state?.homeScore) == (1, 1))
        let diff = MLBDiffer.diff(homer, game[6])
        #expect(diff.messages.first?.event == .scoreCorrected(homeScore: 0, awayScore: 1))
        #expect(diff.notes.contains("scoring play(s) rewritten: at-bat 30"))
        let final = replay(Array(game[6...]), from: homer).view.state
        #expect((final?.awayScore, final?.homeScore, final?.status) == (1, 0, .closed))
    }

    @Test("a scoring play rewritten without changing the totals still sends score.corrected")
    func rewrittenSameTotals() throws {
        let game = try snapshots("full-game")
        let view = replay(Array(game[0..<8]), from: MLBGameView(gamePk: 746001)).view
        var rewritten = game[7]
        rewritten.timecode = MLBTimecode("20260401_234500")!
        rewritten.scoringPlays[0].atBatIndex = 2  // the runs credited to another play
        let diff = MLBDiffer.diff(view, rewritten)
        #expect(diff.messages.map(\.event) == [.scoreCorrected(homeScore: 1, awayScore: 2)])
    }

    @Test("a rain delay, the resumption, a second delay, then postponed; a delayed start before")
    func rain() throws {
        let (messages, view) = replay(try snapshots("rain-postponed"), from: MLBGameView(gamePk: 746004))
        let statuses = messages.compactMap { message -> String? in
            switch message.event {
            case .statusChanged(let status): "status \(status.rawValue)"
            case .gameEnded(let status): "ended \(status.rawValue)"
            case .gameStarted: "started"
            default: nil
            }
        }
        #expect(
            statuses == [
                "status delayed", "started", "status delayed", "status inprogress", "status delayed", "ended postponed",
            ])
        let state = try #require(view.state)
        #expect((state.awayScore, state.homeScore, state.status, state.inning) == (3, 0, .postponed, "Top 4th"))
    }

    @Test("the same document twice adds nothing; an older one is ignored")
    func duplicatesAndOrder() throws {
        let game = try snapshots("full-game")
        let view = replay(Array(game[0..<9]), from: MLBGameView(gamePk: 746001)).view
        let again = MLBDiffer.diff(view, game[8])
        #expect(again.outcome == .applied)
        #expect(again.messages.isEmpty)
        #expect(again.view == view)
        let older = MLBDiffer.diff(view, game[5])
        #expect(older.outcome == .stale(last: game[8].timecode))
        #expect(older.messages.isEmpty)
        #expect(older.view == view)
        let other = MLBDiffer.diff(view, try snapshot("extra-innings", 3))
        #expect(other.outcome == .otherGame(gamePk: 746002))
    }

    @Test("a restart from the log's messages continues with the same ids as an uninterrupted run")
    func restart() throws {
        let game = try snapshots("full-game")
        let whole = replay(game, from: MLBGameView(gamePk: 746001))
        for cut in 1..<game.count {
            let first = replay(Array(game[0..<cut]), from: MLBGameView(gamePk: 746001))
            let restarted = try MLBGameView(gamePk: 746001, replaying: first.messages)
            #expect(restarted.state == first.view.state)
            // After a restart the follower sees the documents from the start again (older ones are ignored).
            let rest = replay(game, from: restarted)
            #expect(first.messages + rest.messages == whole.messages, "cut after document \(cut)")
        }
    }

    @Test("joining a game in progress sends what is needed to reach its state, in order")
    func joinMidGame() throws {
        let (messages, view) = replay([try snapshot("full-game", 10)], from: MLBGameView(gamePk: 746001))
        #expect(
            shortIds(messages) == [
                "0001-scheduled", "0002-started", "0003-away-runs-2", "0004-outs-3", "0005-bottom-2",
                "0006-home-runs-1",
                "0007-bottom-4", "0008-home-runs-3", "0009-top-6", "0010-away-runs-3", "0011-bottom-7",
                "0012-home-runs-5", "0013-outs-3",
            ])
        #expect((view.state?.awayScore, view.state?.homeScore, view.state?.inning) == (3, 5, "Bottom 7th"))
    }

    @Test("more than four runs at once are split into messages of at most four")
    func bigInning() throws {
        let game = try snapshots("full-game")
        let view = replay(Array(game[0..<4]), from: MLBGameView(gamePk: 746001)).view
        var big = game[3]
        big.timecode = MLBTimecode("20260401_232000")!
        big.awayRuns = 6
        big.innings = [.init(number: 1, awayRuns: 6, homeRuns: nil)]
        let diff = MLBDiffer.diff(view, big)
        #expect(diff.messages.map(\.event) == [.runScored(team: .away, runs: 4), .runScored(team: .away, runs: 2)])
        #expect(shortIds(diff.messages) == ["0004-away-runs-4", "0005-away-runs-6"])
    }

    @Test("after the end only score corrections are sent")
    func afterTheEnd() throws {
        let game = try snapshots("full-game")
        let view = replay(game, from: MLBGameView(gamePk: 746001)).view
        var corrected = game[12]
        corrected.timecode = MLBTimecode("20260402_040000")!
        corrected.homeRuns = 4
        corrected.outs = 1
        let diff = MLBDiffer.diff(view, corrected)
        #expect(diff.messages.map(\.event) == [.scoreCorrected(homeScore: 4, awayScore: 3)])
        var reopened = corrected
        reopened.timecode = MLBTimecode("20260402_050000")!
        reopened.status = .init(abstractGameState: "Live", detailedState: "In Progress")
        let second = MLBDiffer.diff(diff.view, reopened)
        #expect(second.messages.isEmpty)
        #expect(second.notes == ["the game ended as closed but the feed now says \"In Progress\""])
    }

    @Test("outs taken back and innings going backwards are noted, not sent")
    func notExpressible() throws {
        let game = try snapshots("full-game")
        let view = replay(Array(game[0..<5]), from: MLBGameView(gamePk: 746001)).view
        var fewer = game[4]
        fewer.timecode = MLBTimecode("20260401_231600")!
        fewer.outs = 1
        let diff = MLBDiffer.diff(view, fewer)
        #expect(diff.messages.isEmpty)
        #expect(diff.notes == ["outs went from 2 to 1 in Top 1st: kept"])
        let later = replay(Array(game[0..<9]), from: MLBGameView(gamePk: 746001)).view
        var backwards = game[7]
        backwards.timecode = MLBTimecode("20260402_002000")!
        backwards.awayRuns = 2
        backwards.homeRuns = 3
        backwards.scoringPlays = game[8].scoringPlays
        let back = MLBDiffer.diff(later, backwards)
        #expect(back.messages.isEmpty)
        #expect(back.notes.first?.contains("is before Top 5th") == true)
    }

    @Test("a re-schedule before the start sends game.scheduled again")
    func reschedule() throws {
        let game = try snapshots("full-game")
        let view = replay([game[0]], from: MLBGameView(gamePk: 746001)).view
        var moved = game[1]
        moved.startsAt = parseRFC3339("2026-04-02T00:10:00Z")!
        let diff = MLBDiffer.diff(view, moved)
        #expect(shortIds(diff.messages) == ["0002-rescheduled"])
        #expect(diff.view.state.map { rfc3339($0.startsAt) } == "2026-04-02T00:10:00Z")
    }

    @Test("a document without the score totals keeps the score: no correction to 0–0, no runs sent again")
    func missingTotals() throws {
        let game = try snapshots("full-game")
        let view = replay(Array(game[0..<9]), from: MLBGameView(gamePk: 746001)).view
        #expect(view.state.map { ($0.awayScore, $0.homeScore) } ?? (0, 0) == (2, 3))
        var partial = game[9]
        partial.hasTotals = false
        partial.awayRuns = 0
        partial.homeRuns = 0
        let diff = MLBDiffer.diff(view, partial)
        #expect(!diff.messages.contains { $0.event.type == "score.corrected" || $0.event.type == "run.scored" })
        #expect(diff.notes.contains { $0.contains("no liveData.linescore.teams totals") })
        #expect(diff.view.state.map { ($0.awayScore, $0.homeScore) } ?? (0, 0) == (2, 3))
        // The next whole document goes on as if the partial one had been complete.
        let next = MLBDiffer.diff(diff.view, game[10])
        #expect(!next.messages.contains { $0.event.type == "score.corrected" })
    }
}
