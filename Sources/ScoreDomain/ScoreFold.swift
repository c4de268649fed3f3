import Foundation

/// The pure fold of feed messages into a ``ScoreState``: one message in, the next state out.
///
/// No I/O, no clock. Baseball's rules are here; the clock sports' in ``ClockFold``. A baseball
/// event allocates only for a scoring play (one node of the scoring list).
public enum ScoreFold {
    /// Applies `message` to `state` (`nil` = the game is unknown) and returns the new state, with
    /// `version` one higher and `updatedAt` set to `message.at`.
    ///
    /// Checks, in order: the event's values are in their documented ranges (`invalid-event`); the
    /// game exists (`game-not-scheduled`); the message is for this game (`wrong-game`); the game has
    /// not ended, unless the message is `score.corrected` (`game-ended`); then the rule of the
    /// message type (see `docs/feed-format.md`).
    /// - Throws: ``FoldError``; the caller's state is unchanged.
    public static func apply(_ message: FeedMessage, to state: ScoreState?) throws(FoldError) -> ScoreState {
        try validate(message.event)
        guard var state else {
            guard case .gameScheduled(let home, let away, let startsAt, let setup) = message.event else {
                throw .gameNotScheduled(message)
            }
            return ScoreState(
                gameId: message.gameId, home: home, away: away, startsAt: startsAt, version: 1, updatedAt: message.at,
                setup: setup)
        }
        guard message.gameId == state.gameId else { throw .wrongGame(message, state) }
        if state.status.isEnded {
            switch message.event {
            case .scoreCorrected, .retracted: break
            default: throw .gameEnded(message.event, state)
            }
        }
        if state.sport == .baseball {
            try apply(message.event, id: message.id, to: &state)
        } else {
            try ClockFold.apply(message, to: &state)
        }
        state.version += 1
        state.updatedAt = message.at
        return state
    }

    /// Rejects events whose values the parser would never produce.
    private static func validate(_ event: ScoreEvent) throws(FoldError) {
        switch event {
        case .gameScheduled, .gameStarted, .basesChanged, .shootoutAttempt, .retracted:
            break
        case .clockSet(let ms):
            try validateClock(ms, event)
        case .clockStarted(let ms), .clockStopped(let ms), .cardShown(_, _, _, let ms):
            try validateClock(ms, event)
        case .situationChanged(let situation, _, let ms):
            try validateClock(ms, event)
            let known = [situation.down, situation.distance, situation.yardLine].compactMap { $0 }
            guard known.isEmpty || known.count == 3, (1...4).contains(situation.down ?? 1),
                (1...99).contains(situation.distance ?? 1), (1...99).contains(situation.yardLine ?? 1)
            else { throw .invalidEvent(event, "down 1-4, distance and yardLine 1-99 go together") }
        case .periodStarted(let period, _), .periodEnded(let period):
            guard (1...99).contains(period) else { throw .invalidEvent(event, "period must be between 1 and 99") }
        case .pointsScored(let play):
            guard play.points == play.kind.points, play.kind != .run, play.kind != .correction else {
                throw .invalidEvent(event, "a \(play.kind.rawValue) is not worth \(play.points)")
            }
            try validateClock(play.clockMs, event)
        case .inningChanged(let inning, _):
            guard (1...99).contains(inning) else { throw .invalidEvent(event, "inning must be between 1 and 99") }
        case .runScored(_, let runs):
            guard (1...4).contains(runs) else { throw .invalidEvent(event, "runs must be between 1 and 4") }
        case .outRecorded(let outs):
            guard (1...3).contains(outs) else { throw .invalidEvent(event, "outs must be between 1 and 3") }
        case .scoreCorrected(let homeScore, let awayScore):
            guard (0...999).contains(homeScore), (0...999).contains(awayScore) else {
                throw .invalidEvent(event, "scores must be between 0 and 999")
            }
        case .statusChanged(let status):
            guard status.isInterimStatus else {
                throw .invalidEvent(event, "status must be inprogress, delayed or suspended")
            }
        case .gameEnded(let status):
            guard status.isEnded else { throw .invalidEvent(event, "status must be closed, cancelled or postponed") }
        }
    }

    /// A clock value the feed can write: 0:00 to 999:59.9.
    private static func validateClock(_ ms: Int?, _ event: ScoreEvent) throws(FoldError) {
        guard let ms, !(0...59_999_900).contains(ms) else { return }
        throw .invalidEvent(event, "clock must be between 0:00 and 999:59.9")
    }

    /// The per-type rules, for a game that exists and has not ended (or a score correction).
    private static func apply(_ event: ScoreEvent, id: String, to state: inout ScoreState) throws(FoldError) {
        let started = state.inningNumber >= 1
        switch event {
        case .gameScheduled:
            try SharedFold.reschedule(event, started: started, in: &state)

        case .gameStarted:
            try SharedFold.start(event, started: started, in: &state)
            state.inningNumber = 1
            state.half = .top
            state.outs = 0

        case .inningChanged(let inning, let half):
            guard started else { throw .notStarted(event, state, hint: "") }
            let target = inning * 2 + (half == .bottom ? 1 : 0)
            guard target >= state.halfInningIndex else { throw .inningBackwards(inning, half, state) }
            if target > state.halfInningIndex {
                state.inningNumber = inning
                state.half = half
                state.outs = 0
                state.bases = .empty
            }

        case .runScored(let team, let runs):
            guard started, state.status == .inprogress else { throw .notInProgress(event, state) }
            guard state[score: team] + runs <= 999 else { throw .scoreOutOfRange(team, state[score: team] + runs) }
            state[score: team] += runs
            let inPlay = state.inPlayScore
            state.scoring.append(
                ScoringPlay(
                    id: id, period: state.inningNumber, clock: nil, side: team, points: runs, kind: .run, player: nil,
                    homeScore: inPlay.home, awayScore: inPlay.away))

        case .outRecorded(let outs):
            guard started, state.status == .inprogress else { throw .notInProgress(event, state) }
            guard state.outs + outs <= 3 else { throw .tooManyOuts(outs, state) }
            state.outs += outs

        case .basesChanged(let bases):
            guard started, state.status == .inprogress else { throw .notInProgress(event, state) }
            state.bases = bases

        case .scoreCorrected(let homeScore, let awayScore):
            SharedFold.correct(home: homeScore, away: awayScore, id: id, in: &state)

        case .retracted(let retracted, _):
            try SharedFold.retract(retracted, in: &state)

        case .periodStarted, .periodEnded, .clockSet, .clockStarted, .clockStopped, .pointsScored, .shootoutAttempt,
            .cardShown, .situationChanged:
            throw .otherSport(event, state)

        case .statusChanged(let status):
            try SharedFold.changeStatus(to: status, event, started: started, in: &state)

        case .gameEnded(let status):
            if !started && status == .closed {
                throw .notStarted(event, state, hint: " (use cancelled or postponed before the start)")
            }
            state.status = status
        }
    }
}
