import ScoreDomain

/// The situation of a Retrosheet game between two plays: half-inning, outs, score and runners.
public struct RetrosheetState: Sendable, Equatable {
    /// The inning, 1…; 0 before the first play.
    public var inning: Int
    /// The team at bat: the `half` field of the `play` record (`0` visitors, `1` home).
    public var batting: Side
    /// The position of this half in the inning: `.top` for the team that bats first (the visitors,
    /// or the home team when `info,htbf,true`). This is the canonical feed's `half`.
    public var half: Half
    /// Outs in this half-inning, 0…3.
    public var outs: Int
    /// Runs of the visiting team.
    public var awayScore: Int
    /// Runs of the home team.
    public var homeScore: Int
    /// Retrosheet player id of the runner on 1st, or `nil` when the base is empty.
    public var first: String?
    /// Runner on 2nd.
    public var second: String?
    /// Runner on 3rd.
    public var third: String?

    /// Creates a state; the defaults are the state before the first play.
    public init(
        inning: Int = 0, batting: Side = .away, half: Half = .top, outs: Int = 0, awayScore: Int = 0,
        homeScore: Int = 0, first: String? = nil, second: String? = nil, third: String? = nil
    ) {
        self.inning = inning
        self.batting = batting
        self.half = half
        self.outs = outs
        self.awayScore = awayScore
        self.homeScore = homeScore
        self.first = first
        self.second = second
        self.third = third
    }

    /// The runner on `base` (1…3).
    public subscript(base base: Int) -> String? {
        get {
            switch base {
            case 1: first
            case 2: second
            default: third
            }
        }
        set {
            switch base {
            case 1: first = newValue
            case 2: second = newValue
            default: third = newValue
            }
        }
    }

    /// Which bases are occupied, as the canonical feed's `Bases`.
    public var bases: Bases {
        Bases(first: first != nil, second: second != nil, third: third != nil)
    }

    /// The score of `side`.
    public func score(_ side: Side) -> Int {
        side == .home ? homeScore : awayScore
    }
}

/// Runs per inning of both teams, as in a box score. `nil` marks an inning a team did not bat
/// (the `x` of the home team when it leads after the top of the last inning).
public struct RetrosheetLineScore: Sendable, Equatable {
    /// Visitors' runs per inning; index 0 is the 1st inning.
    public var away: [Int?]
    /// Home team's runs per inning.
    public var home: [Int?]

    /// Creates a line score.
    public init(away: [Int?] = [], home: [Int?] = []) {
        self.away = away
        self.home = home
    }

    /// The Retrosheet game-log form: one character per inning, `(10)` for two digits, `x` for an
    /// inning not batted, e.g. `00130(10)20x`.
    public static func format(_ innings: [Int?]) -> String {
        var text = ""
        for runs in innings {
            switch runs {
            case nil: text += "x"
            case let runs? where runs >= 10: text += "(\(runs))"
            case let runs?: text += String(runs)
            }
        }
        return text
    }

    /// Adds `runs` for `side` in `inning` (1…), marking the inning as batted.
    mutating func add(_ runs: Int, for side: Side, inning: Int) {
        while away.count < inning { away.append(nil) }
        while home.count < inning { home.append(nil) }
        if side == .home {
            home[inning - 1] = (home[inning - 1] ?? 0) + runs
        } else {
            away[inning - 1] = (away[inning - 1] ?? 0) + runs
        }
    }
}
