import Foundation
import ScoreDomain
import Testing

/// One row of a fold table: the state before, the event (for game "g1" at 20:00:00Z), and either
/// the exact state after or the error code.
struct FoldCase: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        case state(ScoreState)
        case error(String)
    }

    var name: String
    var before: ScoreState?
    var event: ScoreEvent
    var outcome: Outcome
    var testDescription: String { name }

    func check() {
        let message = T.message(event)
        do throws(FoldError) {
            let after = try ScoreFold.apply(message, to: before)
            switch outcome {
            case .state(let expected): #expect(after == expected)
            case .error(let code): Issue.record("expected \(code), got \(after)")
            }
        } catch {
            switch outcome {
            case .state(let expected): Issue.record("expected \(expected), got \(error)")
            case .error(let code): #expect(error.code == code, "\(error)")
            }
        }
    }
}

/// A state after an accepted fold: version 5 + 1, updatedAt = the message's `at`.
private func after(
    _ status: GameStatus, _ inning: Int = 0, _ half: Half = .top, outs: Int = 0, home: Int = 0, away: Int = 0,
    homeTeam: Team = T.bos, awayTeam: Team = T.nyy, startsAt: String = "2019-04-01T19:05:00Z",
    scoring: ScoringPlay? = nil
) -> ScoreState {
    var state = T.state(
        status, inning, half, outs: outs, home: home, away: away, version: 6, updatedAt: "2019-04-01T20:00:00Z",
        homeTeam: homeTeam, awayTeam: awayTeam, startsAt: startsAt)
    if let scoring { state.scoring.append(scoring) }
    return state
}

/// The scoring-list entry of message "m1" (T.message's id): a run, or a correction's change.
private func entry(_ inning: Int, _ side: Side?, _ points: Int = 0, change: (Int, Int) = (0, 0), home: Int, away: Int)
    -> ScoringPlay
{
    ScoringPlay(
        id: "m1", period: inning, clock: nil, side: side, points: points, kind: side == nil ? .correction : .run,
        player: nil, homeChange: change.0, awayChange: change.1, homeScore: home, awayScore: away)
}

/// A state before the message: version 5, updated at 19:30:00Z.
private func S(
    _ status: GameStatus, _ inning: Int = 0, _ half: Half = .top, outs: Int = 0, home: Int = 0, away: Int = 0,
    version: Int = 5, updatedAt: String = "2019-04-01T19:30:00Z"
) -> ScoreState {
    T.state(status, inning, half, outs: outs, home: home, away: away, version: version, updatedAt: updatedAt)
}
private let pregame = T.state(.scheduled)
private let delayedPregame = T.state(.delayed)
private let playing = T.state(.inprogress, 4, .top, outs: 1, home: 3, away: 2)

@Suite("ScoreFold rules")
struct ScoreFoldTests {
    @Test(
        "1. unknown game: only game.scheduled creates it",
        arguments: [
            FoldCase(
                name: "game.scheduled creates version 1", before: nil,
                event: .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt),
                outcome: .state(T.state(.scheduled, version: 1, updatedAt: "2019-04-01T20:00:00Z"))),
            FoldCase(name: "game.started", before: nil, event: .gameStarted, outcome: .error("game-not-scheduled")),
            FoldCase(
                name: "inning.changed", before: nil, event: .inningChanged(inning: 1, half: .top),
                outcome: .error("game-not-scheduled")),
            FoldCase(
                name: "run.scored", before: nil, event: .runScored(team: .home, runs: 1),
                outcome: .error("game-not-scheduled")),
            FoldCase(
                name: "out.recorded", before: nil, event: .outRecorded(outs: 1), outcome: .error("game-not-scheduled")),
            FoldCase(
                name: "score.corrected", before: nil, event: .scoreCorrected(homeScore: 1, awayScore: 0),
                outcome: .error("game-not-scheduled")),
            FoldCase(
                name: "status.changed", before: nil, event: .statusChanged(.delayed),
                outcome: .error("game-not-scheduled")),
            FoldCase(
                name: "game.ended", before: nil, event: .gameEnded(.cancelled), outcome: .error("game-not-scheduled")),
        ])
    func unknownGame(_ row: FoldCase) { row.check() }

    @Test(
        "2. game.scheduled again re-schedules only a scheduled game that has not started",
        arguments: [
            FoldCase(
                name: "re-schedule replaces teams and start", before: pregame,
                event: .gameScheduled(home: T.tex, away: T.bos, startsAt: T.date("2019-04-02T17:05:00Z")),
                outcome: .state(after(.scheduled, homeTeam: T.tex, awayTeam: T.bos, startsAt: "2019-04-02T17:05:00Z"))),
            FoldCase(
                name: "pre-game delay", before: delayedPregame,
                event: .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt),
                outcome: .error("already-started")),
            FoldCase(
                name: "in progress", before: playing,
                event: .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt),
                outcome: .error("already-started")),
            FoldCase(
                name: "postponed", before: S(.postponed, 0, .top),
                event: .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt), outcome: .error("game-ended")),
        ])
    func reschedule(_ row: FoldCase) { row.check() }

    @Test(
        "3. game.started from scheduled or a pre-game delay",
        arguments: [
            FoldCase(
                name: "scheduled", before: pregame, event: .gameStarted, outcome: .state(after(.inprogress, 1, .top))),
            FoldCase(
                name: "pre-game delay", before: delayedPregame, event: .gameStarted,
                outcome: .state(after(.inprogress, 1, .top))),
            FoldCase(name: "in progress", before: playing, event: .gameStarted, outcome: .error("already-started")),
            FoldCase(
                name: "delayed after the start", before: S(.delayed, 5, .bottom), event: .gameStarted,
                outcome: .error("already-started")),
            FoldCase(
                name: "suspended", before: S(.suspended, 5, .bottom), event: .gameStarted,
                outcome: .error("already-started")),
            FoldCase(name: "cancelled", before: S(.cancelled), event: .gameStarted, outcome: .error("game-ended")),
        ])
    func gameStarted(_ row: FoldCase) { row.check() }

    @Test(
        "4. inning.changed moves forward only, resets outs, keeps the status",
        arguments: [
            FoldCase(
                name: "before the start", before: pregame, event: .inningChanged(inning: 1, half: .top),
                outcome: .error("not-started")),
            FoldCase(
                name: "during a pre-game delay", before: delayedPregame, event: .inningChanged(inning: 1, half: .top),
                outcome: .error("not-started")),
            FoldCase(
                name: "top to bottom resets outs", before: S(.inprogress, 4, .top, outs: 3, home: 3, away: 2),
                event: .inningChanged(inning: 4, half: .bottom),
                outcome: .state(after(.inprogress, 4, .bottom, outs: 0, home: 3, away: 2))),
            FoldCase(
                name: "bottom to next top", before: S(.inprogress, 4, .bottom, outs: 3),
                event: .inningChanged(inning: 5, half: .top), outcome: .state(after(.inprogress, 5, .top))),
            FoldCase(
                name: "jump several halves", before: S(.inprogress, 4, .top, outs: 2),
                event: .inningChanged(inning: 6, half: .bottom), outcome: .state(after(.inprogress, 6, .bottom))),
            FoldCase(
                name: "same half-inning is a no-op that keeps outs", before: S(.inprogress, 4, .top, outs: 2),
                event: .inningChanged(inning: 4, half: .top), outcome: .state(after(.inprogress, 4, .top, outs: 2))),
            FoldCase(
                name: "bottom back to top of the same inning", before: S(.inprogress, 4, .bottom),
                event: .inningChanged(inning: 4, half: .top), outcome: .error("inning-backwards")),
            FoldCase(
                name: "top back to previous bottom", before: S(.inprogress, 5, .top),
                event: .inningChanged(inning: 4, half: .bottom), outcome: .error("inning-backwards")),
            FoldCase(
                name: "back several innings", before: S(.inprogress, 5, .top),
                event: .inningChanged(inning: 2, half: .top), outcome: .error("inning-backwards")),
            FoldCase(
                name: "delayed game stays delayed", before: S(.delayed, 4, .top, outs: 3),
                event: .inningChanged(inning: 4, half: .bottom), outcome: .state(after(.delayed, 4, .bottom))),
            FoldCase(
                name: "suspended game stays suspended", before: S(.suspended, 4, .bottom, outs: 3),
                event: .inningChanged(inning: 5, half: .top), outcome: .state(after(.suspended, 5, .top))),
            FoldCase(
                name: "extra innings up to 99", before: S(.inprogress, 98, .bottom),
                event: .inningChanged(inning: 99, half: .top), outcome: .state(after(.inprogress, 99, .top))),
            FoldCase(
                name: "closed", before: S(.closed, 9, .bottom), event: .inningChanged(inning: 10, half: .top),
                outcome: .error("game-ended")),
        ])
    func inningChanged(_ row: FoldCase) { row.check() }

    @Test(
        "5. run.scored adds to the named team while in progress, up to 999",
        arguments: [
            FoldCase(
                name: "home run for home", before: playing, event: .runScored(team: .home, runs: 1),
                outcome: .state(
                    after(
                        .inprogress, 4, .top, outs: 1, home: 4, away: 2, scoring: entry(4, .home, 1, home: 4, away: 2)))
            ),
            FoldCase(
                name: "grand slam for away", before: playing, event: .runScored(team: .away, runs: 4),
                outcome: .state(
                    after(
                        .inprogress, 4, .top, outs: 1, home: 3, away: 6, scoring: entry(4, .away, 4, home: 3, away: 6)))
            ),
            FoldCase(
                name: "home reaches exactly 999", before: S(.inprogress, 9, .bottom, home: 998),
                event: .runScored(team: .home, runs: 1),
                outcome: .state(
                    after(.inprogress, 9, .bottom, home: 999, scoring: entry(9, .home, 1, home: 999, away: 0)))),
            FoldCase(
                name: "home past 999", before: S(.inprogress, 9, .bottom, home: 998),
                event: .runScored(team: .home, runs: 2), outcome: .error("score-out-of-range")),
            FoldCase(
                name: "away past 999", before: S(.inprogress, 9, .top, away: 999),
                event: .runScored(team: .away, runs: 1),
                outcome: .error("score-out-of-range")),
            FoldCase(
                name: "scheduled", before: pregame, event: .runScored(team: .home, runs: 1),
                outcome: .error("not-in-progress")),
            FoldCase(
                name: "pre-game delay", before: delayedPregame, event: .runScored(team: .home, runs: 1),
                outcome: .error("not-in-progress")),
            FoldCase(
                name: "delayed", before: S(.delayed, 4, .top), event: .runScored(team: .away, runs: 1),
                outcome: .error("not-in-progress")),
            FoldCase(
                name: "suspended", before: S(.suspended, 4, .top), event: .runScored(team: .away, runs: 1),
                outcome: .error("not-in-progress")),
            FoldCase(
                name: "closed", before: S(.closed, 9, .top), event: .runScored(team: .away, runs: 1),
                outcome: .error("game-ended")),
            FoldCase(
                name: "cancelled", before: S(.cancelled, 3, .top), event: .runScored(team: .away, runs: 1),
                outcome: .error("game-ended")),
        ])
    func runScored(_ row: FoldCase) { row.check() }

    @Test(
        "6. out.recorded up to three outs, which do not roll the inning",
        arguments: [
            FoldCase(
                name: "one out", before: S(.inprogress, 2, .bottom), event: .outRecorded(outs: 1),
                outcome: .state(after(.inprogress, 2, .bottom, outs: 1))),
            FoldCase(
                name: "double play to three outs stays in the half", before: S(.inprogress, 2, .bottom, outs: 1),
                event: .outRecorded(outs: 2), outcome: .state(after(.inprogress, 2, .bottom, outs: 3))),
            FoldCase(
                name: "triple play", before: S(.inprogress, 2, .top), event: .outRecorded(outs: 3),
                outcome: .state(after(.inprogress, 2, .top, outs: 3))),
            FoldCase(
                name: "four outs", before: S(.inprogress, 2, .top, outs: 2), event: .outRecorded(outs: 2),
                outcome: .error("too-many-outs")),
            FoldCase(
                name: "out after the third", before: S(.inprogress, 2, .top, outs: 3), event: .outRecorded(outs: 1),
                outcome: .error("too-many-outs")),
            FoldCase(
                name: "scheduled", before: pregame, event: .outRecorded(outs: 1), outcome: .error("not-in-progress")),
            FoldCase(
                name: "delayed", before: S(.delayed, 2, .top), event: .outRecorded(outs: 1),
                outcome: .error("not-in-progress")),
            FoldCase(
                name: "suspended", before: S(.suspended, 2, .top), event: .outRecorded(outs: 1),
                outcome: .error("not-in-progress")),
            FoldCase(
                name: "postponed", before: S(.postponed, 2, .top), event: .outRecorded(outs: 1),
                outcome: .error("game-ended")),
        ])
    func outRecorded(_ row: FoldCase) { row.check() }

    @Test(
        "7. score.corrected sets both scores in any status, also after the end",
        arguments: [
            FoldCase(
                name: "in progress", before: playing, event: .scoreCorrected(homeScore: 2, awayScore: 2),
                outcome: .state(
                    after(
                        .inprogress, 4, .top, outs: 1, home: 2, away: 2,
                        scoring: entry(4, nil, change: (-1, 0), home: 2, away: 2)))),
            FoldCase(
                name: "scheduled", before: pregame, event: .scoreCorrected(homeScore: 0, awayScore: 1),
                outcome: .state(after(.scheduled, away: 1, scoring: entry(0, nil, change: (0, 1), home: 0, away: 1)))),
            FoldCase(
                name: "delayed", before: S(.delayed, 6, .bottom, home: 1),
                event: .scoreCorrected(homeScore: 0, awayScore: 0),
                outcome: .state(after(.delayed, 6, .bottom, scoring: entry(6, nil, change: (-1, 0), home: 0, away: 0)))),
            FoldCase(
                name: "closed", before: S(.closed, 9, .top, outs: 3, home: 7, away: 3),
                event: .scoreCorrected(homeScore: 6, awayScore: 3),
                outcome: .state(
                    after(
                        .closed, 9, .top, outs: 3, home: 6, away: 3,
                        scoring: entry(9, nil, change: (-1, 0), home: 6, away: 3)))),
            FoldCase(
                name: "postponed", before: S(.postponed, 4, .top, home: 1, away: 3),
                event: .scoreCorrected(homeScore: 1, awayScore: 2),
                outcome: .state(
                    after(
                        .postponed, 4, .top, home: 1, away: 2, scoring: entry(4, nil, change: (0, -1), home: 1, away: 2)
                    ))),
            FoldCase(
                name: "same scores still counts as an event", before: playing,
                event: .scoreCorrected(homeScore: 3, awayScore: 2),
                outcome: .state(after(.inprogress, 4, .top, outs: 1, home: 3, away: 2))),
        ])
    func scoreCorrected(_ row: FoldCase) { row.check() }

    @Test(
        "8. status.changed: only a delay before the start; any interim status after",
        arguments: [
            FoldCase(
                name: "pre-game delay", before: pregame, event: .statusChanged(.delayed),
                outcome: .state(after(.delayed))),
            FoldCase(
                name: "inprogress before the start", before: pregame, event: .statusChanged(.inprogress),
                outcome: .error("not-started")),
            FoldCase(
                name: "suspended before the start", before: pregame, event: .statusChanged(.suspended),
                outcome: .error("not-started")),
            FoldCase(
                name: "inprogress during a pre-game delay", before: delayedPregame, event: .statusChanged(.inprogress),
                outcome: .error("not-started")),
            FoldCase(
                name: "delayed again before the start is a no-op", before: delayedPregame,
                event: .statusChanged(.delayed), outcome: .state(after(.delayed))),
            FoldCase(
                name: "rain delay", before: playing, event: .statusChanged(.delayed),
                outcome: .state(after(.delayed, 4, .top, outs: 1, home: 3, away: 2))),
            FoldCase(
                name: "suspended", before: playing, event: .statusChanged(.suspended),
                outcome: .state(after(.suspended, 4, .top, outs: 1, home: 3, away: 2))),
            FoldCase(
                name: "inprogress while in progress is a no-op", before: playing, event: .statusChanged(.inprogress),
                outcome: .state(after(.inprogress, 4, .top, outs: 1, home: 3, away: 2))),
            FoldCase(
                name: "resume after a delay", before: S(.delayed, 4, .top, outs: 1), event: .statusChanged(.inprogress),
                outcome: .state(after(.inprogress, 4, .top, outs: 1))),
            FoldCase(
                name: "delay becomes a suspension", before: S(.delayed, 4, .top), event: .statusChanged(.suspended),
                outcome: .state(after(.suspended, 4, .top))),
            FoldCase(
                name: "resume after a suspension", before: S(.suspended, 7, .bottom),
                event: .statusChanged(.inprogress),
                outcome: .state(after(.inprogress, 7, .bottom))),
            FoldCase(
                name: "closed", before: S(.closed, 9, .top), event: .statusChanged(.inprogress),
                outcome: .error("game-ended")),
        ])
    func statusChanged(_ row: FoldCase) { row.check() }

    @Test(
        "9. game.ended: closed needs a start; cancelled and postponed any time",
        arguments: [
            FoldCase(
                name: "closed from in progress", before: playing, event: .gameEnded(.closed),
                outcome: .state(after(.closed, 4, .top, outs: 1, home: 3, away: 2))),
            FoldCase(
                name: "closed from a delay after the start", before: S(.delayed, 7, .top, home: 5),
                event: .gameEnded(.closed), outcome: .state(after(.closed, 7, .top, home: 5))),
            FoldCase(
                name: "closed before the start", before: pregame, event: .gameEnded(.closed),
                outcome: .error("not-started")),
            FoldCase(
                name: "cancelled before the start", before: pregame, event: .gameEnded(.cancelled),
                outcome: .state(after(.cancelled))),
            FoldCase(
                name: "postponed during a pre-game delay", before: delayedPregame, event: .gameEnded(.postponed),
                outcome: .state(after(.postponed))),
            FoldCase(
                name: "postponed after the start", before: S(.delayed, 4, .top, outs: 2, away: 3),
                event: .gameEnded(.postponed), outcome: .state(after(.postponed, 4, .top, outs: 2, away: 3))),
            FoldCase(
                name: "cancelled while suspended", before: S(.suspended, 6, .bottom), event: .gameEnded(.cancelled),
                outcome: .state(after(.cancelled, 6, .bottom))),
            FoldCase(
                name: "ended twice", before: S(.closed, 9, .top), event: .gameEnded(.closed),
                outcome: .error("game-ended")),
            FoldCase(
                name: "postponed then cancelled", before: S(.postponed), event: .gameEnded(.cancelled),
                outcome: .error("game-ended")),
        ])
    func gameEnded(_ row: FoldCase) { row.check() }

    @Test(
        "values the parser never produces are rejected before anything else",
        arguments: [
            FoldCase(
                name: "runs 0", before: playing, event: .runScored(team: .home, runs: 0),
                outcome: .error("invalid-event")),
            FoldCase(
                name: "runs 5", before: playing, event: .runScored(team: .home, runs: 5),
                outcome: .error("invalid-event")),
            FoldCase(
                name: "runs -1 on an unknown game", before: nil, event: .runScored(team: .away, runs: -1),
                outcome: .error("invalid-event")),
            FoldCase(name: "outs 0", before: playing, event: .outRecorded(outs: 0), outcome: .error("invalid-event")),
            FoldCase(name: "outs 4", before: playing, event: .outRecorded(outs: 4), outcome: .error("invalid-event")),
            FoldCase(
                name: "inning 0", before: playing, event: .inningChanged(inning: 0, half: .top),
                outcome: .error("invalid-event")),
            FoldCase(
                name: "inning 100", before: playing, event: .inningChanged(inning: 100, half: .top),
                outcome: .error("invalid-event")),
            FoldCase(
                name: "negative score", before: S(.closed, 9, .top),
                event: .scoreCorrected(homeScore: -1, awayScore: 0), outcome: .error("invalid-event")),
            FoldCase(
                name: "score 1000", before: playing, event: .scoreCorrected(homeScore: 0, awayScore: 1000),
                outcome: .error("invalid-event")),
            FoldCase(
                name: "status.changed closed", before: playing, event: .statusChanged(.closed),
                outcome: .error("invalid-event")),
            FoldCase(
                name: "status.changed scheduled", before: playing, event: .statusChanged(.scheduled),
                outcome: .error("invalid-event")),
            FoldCase(
                name: "game.ended delayed", before: playing, event: .gameEnded(.delayed),
                outcome: .error("invalid-event")),
            FoldCase(
                name: "game.ended scheduled", before: playing, event: .gameEnded(.scheduled),
                outcome: .error("invalid-event")),
        ])
    func invalidEvents(_ row: FoldCase) { row.check() }

    @Test("11. a message for another game is refused, even after the end")
    func wrongGame() {
        for before in [pregame, playing, S(.closed, 9, .top)] {
            #expect(
                throws: FoldError(
                    code: "wrong-game", reason: #"message "m1" is for game "g2" but was applied to game "g1""#)
            ) {
                try ScoreFold.apply(T.message(.scoreCorrected(homeScore: 1, awayScore: 1), game: "g2"), to: before)
            }
        }
    }

    @Test("11. every accepted message bumps version and takes the message time, even an earlier one")
    func versionAndUpdatedAt() throws {
        let before = S(.inprogress, 3, .top, version: 41, updatedAt: "2019-04-01T21:00:00Z")
        let message = T.message(.outRecorded(outs: 1), at: "2019-04-01T20:59:58.5Z")
        let next = try ScoreFold.apply(message, to: before)
        #expect(next.version == 42)
        #expect(next.updatedAt == T.date("2019-04-01T20:59:58.500Z"))
    }

    struct Reason: Sendable, CustomTestStringConvertible {
        var before: ScoreState?
        var event: ScoreEvent
        var description: String
        var testDescription: String { description }
    }

    @Test(
        "error descriptions are sentences for an operator",
        arguments: [
            Reason(
                before: nil, event: .gameStarted,
                description:
                    #"game-not-scheduled: game.started for game "g1" needs a game.scheduled message first; the game is unknown"#
            ),
            Reason(
                before: S(.delayed, 4, .top), event: .runScored(team: .home, runs: 1),
                description: #"not-in-progress: run.scored needs a game in progress; game "g1" is delayed"#),
            Reason(
                before: S(.closed, 9, .top), event: .outRecorded(outs: 1),
                description:
                    #"game-ended: out.recorded is not accepted after the end; game "g1" is closed and only takes score.corrected"#
            ),
            Reason(
                before: playing, event: .gameStarted,
                description:
                    #"already-started: game.started needs a game that has not started; game "g1" is inprogress, Top 4th"#
            ),
            Reason(
                before: delayedPregame, event: .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt),
                description:
                    #"already-started: game.scheduled can only re-schedule a game that has not started; game "g1" is delayed, Pre-game"#
            ),
            Reason(
                before: pregame, event: .statusChanged(.inprogress),
                description:
                    #"not-started: status.changed to inprogress needs a started game (send game.started); game "g1" is scheduled, Pre-game"#
            ),
            Reason(
                before: pregame, event: .gameEnded(.closed),
                description:
                    #"not-started: game.ended to closed needs a started game (use cancelled or postponed before the start); game "g1" is scheduled, Pre-game"#
            ),
            Reason(
                before: pregame, event: .inningChanged(inning: 1, half: .top),
                description: #"not-started: inning.changed needs a started game; game "g1" is scheduled, Pre-game"#),
            Reason(
                before: S(.inprogress, 5, .top), event: .inningChanged(inning: 4, half: .bottom),
                description: #"inning-backwards: inning.changed to Bottom 4th goes backwards; game "g1" is at Top 5th"#),
            Reason(
                before: S(.inprogress, 2, .top, outs: 2), event: .outRecorded(outs: 2),
                description:
                    #"too-many-outs: out.recorded of 2 would make 4 outs in Top 2nd of game "g1", which already has 2"#),
            Reason(
                before: S(.inprogress, 9, .bottom, home: 998), event: .runScored(team: .home, runs: 2),
                description: "score-out-of-range: run.scored would take the home score to 1000; scores stop at 999"),
            Reason(
                before: playing, event: .runScored(team: .home, runs: 7),
                description: "invalid-event: run.scored: runs must be between 1 and 4"),
        ])
    func reasons(_ reason: Reason) {
        do throws(FoldError) {
            let state = try ScoreFold.apply(T.message(reason.event), to: reason.before)
            Issue.record("accepted: \(state)")
        } catch {
            #expect(error.description == reason.description)
        }
    }
}
