import ScoreDomain

/// The moments of the clock sports (docs/throttling.md, "Moments per sport"): what alerts at
/// priority 10; everything else goes at 5, coalesced.
extension Moment {
    /// The alert title of a clock sport's change, or `nil`:
    ///
    /// - every sport: the game starting, a delay or suspension, a score correction that changes the
    ///   score, the final, a postponement or cancellation;
    /// - soccer: a goal (`Goal`, `Penalty goal`, `Own goal`), a red card (also a second yellow), a
    ///   disallowed goal, the end of a half (`Half-time`, `End of 2nd Half`, `End of ET1`), the
    ///   shoot-out's result;
    /// - basketball: the end of a period, overtime, a lead change or a tie in the last two minutes of
    ///   the last regulation period or in overtime (never an ordinary basket);
    /// - hockey: a goal, a disallowed goal, the end of a period, overtime, the shoot-out's result;
    /// - football: a touchdown, a field goal, a safety, a turnover, the end of a quarter.
    ///
    /// The end of a period after which the game is over is no moment of its own: the final follows.
    static func sportTitle(previous: ScoreState?, next: ScoreState, event: ScoreEvent) -> String? {
        switch event {
        case .gameStarted: return "Game started"
        case .statusChanged(.delayed): return "Game delayed"
        case .statusChanged(.suspended): return "Game suspended"
        case .gameEnded(.closed): return "Final"
        case .gameEnded(.postponed): return "Postponed"
        case .gameEnded(.cancelled): return "Cancelled"
        case .scoreCorrected:
            let scoreChanged = previous.map { $0.homeScore != next.homeScore || $0.awayScore != next.awayScore } ?? true
            return scoreChanged ? "Score corrected" : nil
        case .pointsScored(let play):
            return scoredTitle(play.kind, previous: previous, next: next)
        case .retracted(let id, _):
            guard next.sport == .soccer || next.sport == .hockey,
                let play = previous?.scoring.last(where: { $0.id == id }),
                [.goal, .penalty, .ownGoal].contains(play.kind)
            else { return nil }
            return "Goal disallowed"
        case .cardShown(_, let card, _, _):
            return card.sendsOff ? "Red card" : nil
        case .situationChanged(_, let turnover, _):
            return turnover && next.sport == .football ? "Turnover" : nil
        case .periodStarted:
            guard next.sport == .basketball || next.sport == .hockey, previous?.periodNumber != next.periodNumber,
                next.rules.kind(ofPeriod: next.periodNumber, sport: next.sport) == .overtime
            else { return nil }
            let label = next.label(ofPeriod: next.periodNumber)
            return label == "OT" ? "Overtime" : "Overtime (\(label))"
        case .periodEnded:
            return periodEndTitle(next)
        case .gameScheduled, .inningChanged, .runScored, .outRecorded, .basesChanged, .statusChanged, .gameEnded,
            .clockSet, .clockStarted, .clockStopped, .shootoutAttempt:
            return nil
        }
    }

    private static func scoredTitle(_ kind: ScoringKind, previous: ScoreState?, next: ScoreState) -> String? {
        switch (next.sport, kind) {
        case (.soccer, .goal), (.hockey, .goal): return "Goal"
        case (.soccer, .penalty): return "Penalty goal"
        case (.soccer, .ownGoal): return "Own goal"
        case (.football, .touchdown): return "Touchdown"
        case (.football, .fieldGoal): return "Field goal"
        case (.football, .safety): return "Safety"
        case (.basketball, _):
            guard let previous, isClutch(next), leader(previous) != leader(next) else { return nil }
            return leader(next) == nil ? "Tied" : "Lead change"
        default: return nil
        }
    }

    /// Basketball's last two minutes: of the last regulation period (the 4th quarter, the 2nd half),
    /// or any time in overtime, by the clock at the change.
    static func isClutch(_ state: ScoreState) -> Bool {
        let rules = state.rules
        switch rules.kind(ofPeriod: state.periodNumber, sport: state.sport) {
        case .overtime?: return true
        case .regulation? where state.periodNumber == rules.periods:
            guard let clock = state.clock, clock.countsDown else { return false }
            return clock.value(at: state.updatedAt) <= 120_000
        default: return false
        }
    }

    /// The end of a period, when the game goes on after it: `Half-time`, `End of Q1`, `End of 1st
    /// period`, `End of ET1`, `End of OT`; the shoot-out's result when it ends.
    private static func periodEndTitle(_ state: ScoreState) -> String? {
        let rules = state.rules
        let period = state.periodNumber
        let kind = rules.kind(ofPeriod: period, sport: state.sport)
        if kind == .shootout {
            guard let tally = state.shootout, tally.home != tally.away else { return "End of shoot-out" }
            let winner = tally.home > tally.away ? state.home : state.away
            return "\(winner.code) win the shoot-out"
        }
        guard !gameOver(after: state) else { return nil }
        if kind == .regulation && ((rules.periods == 2 && period == 1) || (rules.periods == 4 && period == 2)) {
            return "Half-time"
        }
        let label = state.label(ofPeriod: period)
        if state.sport == .hockey && kind == .regulation { return "End of \(label) period" }
        return "End of \(label)"
    }

    /// Whether no period follows the current one: the last of regulation or an overtime with a
    /// winner, or a tie that stands (soccer's first half of extra time is followed by the second anyway).
    static func gameOver(after state: ScoreState) -> Bool {
        let rules = state.rules
        let period = state.periodNumber
        guard period >= rules.periods else { return false }
        let kind = rules.kind(ofPeriod: period, sport: state.sport)
        if kind == .extraTime && (period - rules.periods) % 2 == 1 { return false }
        guard rules.kind(ofPeriod: period + 1, sport: state.sport) != nil else { return true }
        return state.homeScore != state.awayScore
    }

    /// Relevance of a clock sport's game in progress: 30 + up to 45 for how late it is (the share of
    /// regulation played, by periods and the clock; 45 in overtime, extra time or a shoot-out) + up
    /// to 25 for a close score by the sport's margins (soccer and hockey: a goal; basketball: a few
    /// baskets; football: a score or two), at most 100. As baseball's before and after the game.
    static func sportRelevance(_ state: ScoreState) -> Int {
        switch state.status {
        case .scheduled: return 10
        case .delayed, .suspended: return 20
        case .closed, .cancelled, .postponed: return 0
        case .inprogress: break
        }
        let margin = abs(state.homeScore - state.awayScore)
        let close: Int
        switch state.sport {
        case .basketball:
            close = margin <= 3 ? 25 : margin <= 6 ? 20 : margin <= 10 ? 10 : margin <= 15 ? 5 : 0
        case .football:
            close = margin == 0 ? 25 : margin <= 3 ? 22 : margin <= 8 ? 20 : margin <= 16 ? 10 : 0
        default:
            close = margin == 0 ? 25 : margin == 1 ? 20 : margin == 2 ? 5 : 0
        }
        return min(100, 30 + Int((45 * playedShare(state)).rounded(.down)) + close)
    }

    /// The share of regulation played, 0…1 (1 beyond it).
    static func playedShare(_ state: ScoreState) -> Double {
        let rules = state.rules
        let period = state.periodNumber
        guard period >= 1, rules.periods >= 1 else { return 0 }
        guard rules.kind(ofPeriod: period, sport: state.sport) == .regulation else { return 1 }
        var inPeriod = state.periodEnded ? 1.0 : 0.0
        if !state.periodEnded, let clock = state.clock, rules.periodMinutes > 0 {
            let length = Double(rules.periodMinutes * 60_000)
            let value = Double(clock.value(at: state.updatedAt))
            let start = Double(rules.clockStart(ofPeriod: period, sport: state.sport) ?? 0)
            inPeriod = clock.countsDown ? 1 - value / length : (value - start) / length
        }
        return min(1, (Double(period - 1) + min(1, max(0, inPeriod))) / Double(rules.periods))
    }
}
