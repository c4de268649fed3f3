/// The sport of a game. Baseball is the default; the four others are the clock sports, folded by
/// ``ClockFold`` with the rules of ``SportRules``.
public enum Sport: String, Sendable, Codable, CaseIterable {
    case baseball
    case soccer
    case basketball
    case hockey
    case football

    /// Whether the game clock counts down (the time left in the period) rather than up (soccer's match time).
    public var clockCountsDown: Bool { self != .soccer }

    /// Whether the sport is played against a game clock (every sport but baseball).
    public var hasClock: Bool { self != .baseball }
}

/// How a scoring play scored: the kinds of every sport, with their points.
public enum ScoringKind: String, Sendable, Codable, CaseIterable {
    /// Baseball: `run.scored` (1–4 runs).
    case run
    // Soccer and hockey.
    case goal
    case penalty
    case ownGoal
    // Basketball.
    case freeThrow
    case two
    case three
    // Football.
    case touchdown
    case extraPoint
    case twoPointConversion
    case fieldGoal
    case safety
    case defensiveConversion
    /// `score.corrected`: its change, in every sport.
    case correction

    /// The points the kind is worth (`run`: 1 per run; `correction`: its change).
    public var points: Int {
        switch self {
        case .run, .goal, .penalty, .ownGoal, .freeThrow, .extraPoint: 1
        case .two, .safety, .twoPointConversion, .defensiveConversion: 2
        case .three, .fieldGoal: 3
        case .touchdown: 6
        case .correction: 0
        }
    }

    /// The kinds a `points.scored` message may carry in `sport`.
    public static func scored(in sport: Sport) -> [ScoringKind] {
        switch sport {
        case .baseball: []
        case .soccer: [.goal, .penalty, .ownGoal]
        case .basketball: [.freeThrow, .two, .three]
        case .hockey: [.goal]
        case .football: [.touchdown, .extraPoint, .twoPointConversion, .fieldGoal, .safety, .defensiveConversion]
        }
    }
}

/// What kind of period is played.
public enum PeriodKind: String, Sendable, Codable, CaseIterable {
    case regulation
    case overtime
    case extraTime
    case shootout
}

/// A soccer card: `secondYellow` and `red` send a player off.
public enum Card: String, Sendable, Codable, CaseIterable {
    case yellow
    case secondYellow
    case red

    /// Whether the card sends the player off (a red card on the scoreboard).
    public var sendsOff: Bool { self != .yellow }
}
