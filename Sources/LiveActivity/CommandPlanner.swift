import Foundation
import ScoreDomain

/// Decides which Live Activity push, if any, a folded message produces. Pure: no clock, no I/O.
///
/// Rules:
/// - No command when nothing a fan sees changed (scores, inning, half, outs, status, teams,
///   start time; see ``ScoreDomain/ScoreState/contentChanged(from:)``), and none once the game had
///   ended before the message: a post-final `score.corrected` is stored and projected, never pushed.
/// - `game.ended` gives an `end` command, everything else an `update`.
/// - Priority 10 with an alert for a run, a score correction that changes the score, the start, a
///   delay or suspension, and the end; priority 5 without an alert for everything else.
/// - The timestamp is the state's `updatedAt` in whole seconds, raised to `lastTimestamp + 1` when
///   needed, so it strictly increases per game even for same-second or out-of-order messages.
public enum CommandPlanner {
    /// Plans the push for one accepted message.
    /// - Parameters:
    ///   - previous: the state before the message (`nil` for the first message of the game).
    ///   - next: the state after the message.
    ///   - event: the folded event.
    ///   - lastTimestamp: timestamp of the last command emitted for this game, `nil` if none.
    ///   - config: stale and dismissal delays.
    /// - Returns: the command to send, or `nil` when there is nothing to push.
    public static func plan(
        previous: ScoreState?, next: ScoreState, event: ScoreEvent, lastTimestamp: Int?,
        config: PlannerConfig = .init()
    ) -> LiveActivityCommand? {
        if previous?.status.isEnded == true { return nil }
        guard next.contentChanged(from: previous) else { return nil }

        let kind: LiveActivityEvent
        if case .gameEnded = event { kind = .end } else { kind = .update }
        let stateSecond = Int(next.updatedAt.timeIntervalSince1970.rounded(.down))
        let timestamp = lastTimestamp.map { max(stateSecond, $0 + 1) } ?? stateSecond
        let alertTitle = self.alertTitle(previous: previous, next: next, event: event)
        let payload = APSPayload(
            state: next, event: kind, timestamp: timestamp, alertTitle: alertTitle, staleAfter: config.staleAfter,
            dismissAfter: config.dismissAfter
        ).json()
        return LiveActivityCommand(
            gameId: next.gameId, event: kind, priority: alertTitle == nil ? 5 : 10, timestamp: timestamp,
            version: next.version, payload: payload)
    }

    /// The alert title for a moment a fan wants to feel, or `nil` for a routine update.
    static func alertTitle(previous: ScoreState?, next: ScoreState, event: ScoreEvent) -> String? {
        switch event {
        case .runScored(_, let runs):
            return runs == 1 ? "Run scored" : "\(runs) runs scored"
        case .scoreCorrected:
            let scoreChanged = previous.map { $0.homeScore != next.homeScore || $0.awayScore != next.awayScore } ?? true
            return scoreChanged ? "Score corrected" : nil
        case .gameStarted:
            return "Game started"
        case .statusChanged(.delayed):
            return "Game delayed"
        case .statusChanged(.suspended):
            return "Game suspended"
        case .gameEnded(.closed):
            return "Final"
        case .gameEnded(.postponed):
            return "Postponed"
        case .gameEnded(.cancelled):
            return "Cancelled"
        case .gameScheduled, .inningChanged, .outRecorded, .basesChanged, .statusChanged, .gameEnded:
            return nil
        }
    }
}
