import Foundation

/// The pure fold of feed messages into a ``ScoreState``: one message in, the next state out.
///
/// No I/O, no clock; allocation-free when the message is accepted.
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
            guard case .gameScheduled(let home, let away, let startsAt) = message.event else {
                throw .gameNotScheduled(message)
            }
            return ScoreState(
                gameId: message.gameId, home: home, away: away, startsAt: startsAt, version: 1, updatedAt: message.at)
        }
        guard message.gameId == state.gameId else { throw .wrongGame(message, state) }
        if state.status.isEnded {
            guard case .scoreCorrected = message.event else { throw .gameEnded(message.event, state) }
        }
        try apply(message.event, to: &state)
        state.version += 1
        state.updatedAt = message.at
        return state
    }

    /// Rejects events whose values the parser would never produce.
    private static func validate(_ event: ScoreEvent) throws(FoldError) {
        switch event {
        case .gameScheduled, .gameStarted, .basesChanged:
            break
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

    /// The per-type rules, for a game that exists and has not ended (or a score correction).
    private static func apply(_ event: ScoreEvent, to state: inout ScoreState) throws(FoldError) {
        let started = state.inningNumber >= 1
        switch event {
        case .gameScheduled(let home, let away, let startsAt):
            guard state.status == .scheduled, !started else { throw .alreadyStarted(event, state) }
            state.reschedule(home: home, away: away, startsAt: startsAt)

        case .gameStarted:
            guard !started, state.status == .scheduled || state.status == .delayed else {
                throw .alreadyStarted(event, state)
            }
            state.status = .inprogress
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
            switch team {
            case .home:
                guard state.homeScore + runs <= 999 else { throw .scoreOutOfRange(team, state.homeScore + runs) }
                state.homeScore += runs
            case .away:
                guard state.awayScore + runs <= 999 else { throw .scoreOutOfRange(team, state.awayScore + runs) }
                state.awayScore += runs
            }

        case .outRecorded(let outs):
            guard started, state.status == .inprogress else { throw .notInProgress(event, state) }
            guard state.outs + outs <= 3 else { throw .tooManyOuts(outs, state) }
            state.outs += outs

        case .basesChanged(let bases):
            guard started, state.status == .inprogress else { throw .notInProgress(event, state) }
            state.bases = bases

        case .scoreCorrected(let homeScore, let awayScore):
            state.homeScore = homeScore
            state.awayScore = awayScore

        case .statusChanged(let status):
            if !started && status != .delayed {
                throw .notStarted(event, state, hint: status == .inprogress ? " (send game.started)" : "")
            }
            state.status = status

        case .gameEnded(let status):
            if !started && status == .closed {
                throw .notStarted(event, state, hint: " (use cancelled or postponed before the start)")
            }
            state.status = status
        }
    }
}
