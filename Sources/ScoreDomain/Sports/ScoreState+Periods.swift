/// What a game shows of its periods in every sport: the label of the moment, the line score.
extension ScoreState {
    /// The period label: baseball's ``inning``; else `"Pre-game"`, `"2nd Half"`, `"Q4"`, `"OT"`, `"2OT"`,
    /// `"3rd"`, `"SO"`, `"Half-time"`, `"End of Q1"`, `"Final"`, `"Final/OT"`.
    public var periodLabel: String {
        guard sport != .baseball else { return inning }
        guard periodNumber > 0 else { return "Pre-game" }
        if status == .closed {
            switch rules.kind(ofPeriod: periodNumber, sport: sport) {
            case .shootout?: return sport == .soccer ? "Final/Pens" : "Final/SO"
            case .overtime?, .extraTime?:
                return sport == .soccer ? "Final/AET" : "Final/" + label(ofPeriod: periodNumber)
            default: return "Final"
            }
        }
        let label = label(ofPeriod: periodNumber)
        guard periodEnded else { return label }
        if sport == .soccer && periodNumber == 1 && rules.periods == 2 { return "Half-time" }
        return "End of " + label
    }

    /// The label of period `period` in this game's sport and rules (`"1st Half"`, `"Q3"`, `"2OT"`, `"SO"`).
    public func label(ofPeriod period: Int) -> String {
        if sport == .baseball { return ScoreState.ordinal(period) }
        switch rules.kind(ofPeriod: period, sport: sport) {
        case .shootout?:
            return sport == .soccer ? "Pens" : "SO"
        case .extraTime?:
            return "ET\(period - rules.periods)"
        case .overtime?:
            let number = period - rules.periods
            return number == 1 ? "OT" : "\(number)OT"
        case .regulation?, nil:
            switch (sport, rules.periods) {
            case (_, 2): return ScoreState.ordinal(period) + " Half"
            case (.basketball, 4), (.football, 4): return "Q\(period)"
            default: return ScoreState.ordinal(period)
            }
        }
    }

    /// Points per period per side, in order, regulation then overtime or extra time, the shoot-out
    /// apart; baseball: runs per inning. Corrections count in the period they were made in.
    public var periods: [(label: String, home: Int, away: Int)] {
        let played: Int
        if sport == .baseball {
            played = inningNumber
        } else if rules.kind(ofPeriod: periodNumber, sport: sport) == .shootout {
            played = periodNumber - 1
        } else {
            played = periodNumber
        }
        guard played > 0 else { return [] }
        var home = [Int](repeating: 0, count: played)
        var away = [Int](repeating: 0, count: played)
        for play in scoring.elements where play.period >= 1 && play.period <= played {
            let change = play.change
            home[play.period - 1] += change.home
            away[play.period - 1] += change.away
        }
        return (1...played).map { (label(ofPeriod: $0), home[$0 - 1], away[$0 - 1]) }
    }

    /// ``periods`` as JSON: `[{"label","home","away"}, …]`.
    var periodsJSON: JSONValue {
        .array(periods.map { .object(["label": .string($0.label), "home": .int($0.home), "away": .int($0.away)]) })
    }

    /// The in-play score: the score without an NHL shoot-out winner's extra goal.
    public var inPlayScore: SideTally {
        var tally = SideTally(home: homeScore, away: awayScore)
        if let winner = SharedFold.shootoutBonus(self) { tally[winner] -= 1 }
        return tally
    }
}

extension ScoreState {
    /// The state without its history lists (``scoring``, ``cards``, ``shootoutAttempts``,
    /// ``retracted``): what a push shows needs none of them, and a long game's lists make a stored
    /// state ~25 KB. (Its ``periods`` line score is then empty of points.)
    public var withoutHistory: ScoreState {
        guard !scoring.isEmpty || !cards.isEmpty || !shootoutAttempts.isEmpty || !retracted.isEmpty else {
            return self
        }
        var state = self
        state.scoring = Chain()
        state.cards = Chain()
        state.shootoutAttempts = Chain()
        state.retracted = Chain()
        return state
    }
}
