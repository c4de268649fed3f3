import Foundation
import ScoreDomain

/// The clock sports in an Android Live Update's data map (docs/android-contract.md, "Clock sports").
extension LiveUpdate {
    /// The keys a clock sport adds, each only when it has a value, every value a string:
    /// `sport`, `period` (the label), the clock anchor (`clockAt`: epoch milliseconds of the instant
    /// the clock showed `clockMs`; `clockRunning`, `clockCountsDown`: `true`/`false`; `clockBase`:
    /// epoch milliseconds for `Notification.Builder.setWhen` with a chronometer: when a countdown
    /// reaches 0, or when a counting-up clock was at 0), `shootoutHome`/`shootoutAway`,
    /// `redCardsHome`/`redCardsAway` (soccer, when any) and `possession`, `down`, `distance`,
    /// `yardLine` (football, when known).
    static func sportMembers(_ state: ScoreState) -> [(String, String)] {
        var members: [(String, String)] = [("sport", state.sport.rawValue), ("period", state.periodLabel)]
        if let clock = state.clock {
            let at = epochMs(clock.at)
            members += [
                ("clockAt", String(at)), ("clockMs", String(clock.ms)), ("clockRunning", String(clock.running)),
                ("clockCountsDown", String(clock.countsDown)),
                ("clockBase", String(clock.countsDown ? at + clock.ms : at - clock.ms)),
            ]
        }
        if let shootout = state.shootout {
            members += [("shootoutAway", String(shootout.away)), ("shootoutHome", String(shootout.home))]
        }
        if state.redCards.home != 0 || state.redCards.away != 0 {
            members += [("redCardsAway", String(state.redCards.away)), ("redCardsHome", String(state.redCards.home))]
        }
        if let situation = state.situation {
            members.append(("possession", situation.possession.rawValue))
            if let down = situation.down, let distance = situation.distance, let yardLine = situation.yardLine {
                members += [("distance", String(distance)), ("down", String(down)), ("yardLine", String(yardLine))]
            }
        }
        return members
    }

    private static func epochMs(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The chip of a clock sport: the score and a short period (`98-97 Q4`, `1-0 2H`, `2-1 P3`,
    /// `2-2 ET1`, `3-3 SO`, `HT` at half-time, `E` before the period at its end: `EQ1`, but
    /// a finished shoot-out stays `SO`/`PEN`), or `F`,
    /// `F/OT`, `F/ET`, `F/SO`, `F/PEN` at the end.
    static func sportChip(_ state: ScoreState) -> String {
        let score = "\(state.awayScore)-\(state.homeScore)"
        switch state.status {
        case .scheduled: return state.periodNumber == 0 ? "PRE" : "\(score) DLY"
        case .delayed: return "\(score) DLY"
        case .suspended: return "\(score) SUS"
        case .postponed: return "PPD"
        case .cancelled: return "CAN"
        case .closed:
            switch state.rules.kind(ofPeriod: state.periodNumber, sport: state.sport) {
            case .overtime?: return "\(score) F/OT"
            case .extraTime?: return "\(score) F/ET"
            case .shootout?: return "\(score) F/\(state.sport == .soccer ? "PEN" : "SO")"
            default: return "\(score) F"
            }
        case .inprogress:
            guard state.periodNumber > 0 else { return score }
            let code = shortPeriod(state)
            let shootout = state.rules.kind(ofPeriod: state.periodNumber, sport: state.sport) == .shootout
            guard state.periodEnded, !shootout else { return "\(score) \(code)" }
            return "\(score) \(isHalfTime(state) ? "HT" : "E" + code)"
        }
    }

    /// `Q4`, `2H`, `P3`, `OT`, `2OT`, `ET1`, `SO`, `PEN`.
    static func shortPeriod(_ state: ScoreState) -> String {
        let period = state.periodNumber
        let rules = state.rules
        switch rules.kind(ofPeriod: period, sport: state.sport) {
        case .shootout?: return state.sport == .soccer ? "PEN" : "SO"
        case .overtime?, .extraTime?: return state.label(ofPeriod: period)
        case .regulation?, nil:
            if rules.periods == 2 { return "\(period)H" }
            return state.sport == .hockey ? "P\(period)" : "Q\(period)"
        }
    }

    private static func isHalfTime(_ state: ScoreState) -> Bool {
        let rules = state.rules
        guard rules.kind(ofPeriod: state.periodNumber, sport: state.sport) == .regulation else { return false }
        return (rules.periods == 2 && state.periodNumber == 1) || (rules.periods == 4 && state.periodNumber == 2)
    }

    /// The text of a clock sport: the period label, the shoot-out's tally away first, football's
    /// possession and down: `Q4`, `2nd Half`, `Pens (3–4)`, `Q3, KC ball, 3rd & 7`; `Delayed, Q2`.
    static func sportText(_ state: ScoreState) -> String {
        var text = state.periodLabel
        if let shootout = state.shootout { text += " (\(shootout.away)\u{2013}\(shootout.home))" }
        if let situation = state.situation, !state.status.isEnded {
            text += ", \((situation.possession == .home ? state.home : state.away).code) ball"
            if let down = situation.down, let distance = situation.distance {
                text += ", \(ScoreState.ordinal(down)) & \(distance)"
            }
        }
        switch state.status {
        case .scheduled: return state.periodNumber == 0 ? "Pre-game" : "Delayed, \(text)"
        case .delayed: return "Delayed, \(text)"
        case .suspended: return "Suspended, \(text)"
        case .postponed: return "Postponed"
        case .cancelled: return "Cancelled"
        case .inprogress, .closed: return text
        }
    }

    /// Periods completed of the regulation ones (more with overtime; a shoot-out counts as one); a
    /// finished game is complete.
    static func sportProgress(_ state: ScoreState) -> (value: Int, max: Int) {
        let max = Swift.max(state.rules.periods, state.periodNumber)
        if state.status == .closed { return (max, max) }
        let done = state.periodNumber == 0 ? 0 : state.periodNumber - (state.periodEnded ? 0 : 1)
        return (done, max)
    }
}
