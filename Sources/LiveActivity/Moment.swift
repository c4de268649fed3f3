import ScoreDomain

/// What a fan should feel about a change: the alert title of a significant moment, or nothing.
/// The one place alert text is decided, for every target of the ``PushPlanner``.
enum Moment {
    /// The alert title when the change from `previous` to `next` through `event` is a moment a fan
    /// wants to feel: a run, a lead change, the game starting, a delay or suspension, the final.
    /// A clock sport's moments are ``sportTitle(previous:next:event:)``'s.
    static func alertTitle(previous: ScoreState?, next: ScoreState, event: ScoreEvent) -> String? {
        if next.sport != .baseball { return sportTitle(previous: previous, next: next, event: event) }
        if let previous, leader(previous) != nil, leader(next) != nil, leader(previous) != leader(next) {
            return "Lead change"
        }
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
        case .periodStarted, .periodEnded, .clockSet, .clockStarted, .clockStopped, .pointsScored, .shootoutAttempt,
            .cardShown, .situationChanged, .retracted:
            return nil
        }
    }

    /// The side ahead, or `nil` when tied.
    static func leader(_ state: ScoreState) -> Side? {
        state.homeScore == state.awayScore ? nil : (state.homeScore > state.awayScore ? .home : .away)
    }

    /// Higher for close and late games: 10 before the start, 20 while delayed or suspended, and
    /// 30 + up to 45 for the inning + up to 25 for a close score while in progress (at most 100).
    /// A clock sport's is ``sportRelevance(_:)``.
    static func relevance(_ state: ScoreState) -> Int {
        if state.sport != .baseball { return sportRelevance(state) }
        switch state.status {
        case .scheduled: return 10
        case .delayed, .suspended: return 20
        case .closed, .cancelled, .postponed: return 0
        case .inprogress:
            let late = min(state.inningNumber, 9) * 5
            let close: Int
            switch abs(state.homeScore - state.awayScore) {
            case 0: close = 25
            case 1: close = 20
            case 2: close = 10
            case 3: close = 5
            default: close = 0
            }
            return min(100, 30 + late + close)
        }
    }
}
