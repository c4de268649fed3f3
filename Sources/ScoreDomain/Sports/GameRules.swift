/// The rules that decide a game's periods and result: values, with the usual competitions as presets
/// (``preset(_:)``), overridable per game in `game.scheduled`'s `rules`.
public struct GameRules: Sendable, Equatable {
    /// The preset the rules start from, e.g. `"nba"`.
    public var competition: String
    /// Regulation periods (baseball: innings).
    public var periods: Int
    /// Length of a regulation period in minutes (baseball: 0).
    public var periodMinutes: Int
    /// Overtime (soccer: extra-time) periods at most; `nil` = unlimited; 0 = none.
    public var overtimes: Int?
    /// Length of an overtime period in minutes; 0 = untimed.
    public var overtimeMinutes: Int
    /// Whether a shoot-out decides a game still tied after overtime.
    public var shootout: Bool
    /// Whether a game may end tied.
    public var tieStands: Bool
    /// How far a provider's clock may be from the running clock's prediction before it is re-anchored.
    public var clockToleranceMs: Int
    /// A second leg: the goals this game's home and away sides scored in the first leg. The tie is
    /// decided on aggregate: overtime and a shoot-out need the aggregate level, not the match score,
    /// and the match score stays this game's own.
    public var firstLeg: SideTally?

    public init(
        competition: String, periods: Int, periodMinutes: Int, overtimes: Int?, overtimeMinutes: Int,
        shootout: Bool, tieStands: Bool, clockToleranceMs: Int = 2000, firstLeg: SideTally? = nil
    ) {
        self.competition = competition
        self.periods = periods
        self.periodMinutes = periodMinutes
        self.overtimes = overtimes
        self.overtimeMinutes = overtimeMinutes
        self.shootout = shootout
        self.tieStands = tieStands
        self.clockToleranceMs = clockToleranceMs
        self.firstLeg = firstLeg
    }

    /// What decides the tie after `home`-`away`: the aggregate with the first leg, or the score itself.
    public func deciding(home: Int, away: Int) -> SideTally {
        SideTally(home: home + (firstLeg?.home ?? 0), away: away + (firstLeg?.away ?? 0))
    }

    /// Every preset, by name, with its sport, in the order of `docs/sports.md`.
    public static let presets: [(sport: Sport, rules: GameRules)] = [
        (
            .baseball,
            GameRules(
                competition: "mlb", periods: 9, periodMinutes: 0, overtimes: nil, overtimeMinutes: 0,
                shootout: false, tieStands: false)
        ),
        (
            .soccer,
            GameRules(
                competition: "league-soccer", periods: 2, periodMinutes: 45, overtimes: 0,
                overtimeMinutes: 0, shootout: false, tieStands: true)
        ),
        (
            .soccer,
            GameRules(
                competition: "knockout-soccer", periods: 2, periodMinutes: 45, overtimes: 2,
                overtimeMinutes: 15, shootout: true, tieStands: false)
        ),
        (
            .basketball,
            GameRules(
                competition: "nba", periods: 4, periodMinutes: 12, overtimes: nil,
                overtimeMinutes: 5, shootout: false, tieStands: false)
        ),
        (
            .basketball,
            GameRules(
                competition: "wnba", periods: 4, periodMinutes: 10, overtimes: nil,
                overtimeMinutes: 5, shootout: false, tieStands: false)
        ),
        (
            .basketball,
            GameRules(
                competition: "fiba", periods: 4, periodMinutes: 10, overtimes: nil,
                overtimeMinutes: 5, shootout: false, tieStands: false)
        ),
        (
            .basketball,
            GameRules(
                competition: "ncaa-men", periods: 2, periodMinutes: 20, overtimes: nil,
                overtimeMinutes: 5, shootout: false, tieStands: false)
        ),
        (
            .basketball,
            GameRules(
                competition: "ncaa-women", periods: 4, periodMinutes: 10, overtimes: nil,
                overtimeMinutes: 5, shootout: false, tieStands: false)
        ),
        (
            .hockey,
            GameRules(
                competition: "nhl", periods: 3, periodMinutes: 20, overtimes: 1, overtimeMinutes: 5,
                shootout: true, tieStands: false)
        ),
        (
            .hockey,
            GameRules(
                competition: "nhl-playoffs", periods: 3, periodMinutes: 20, overtimes: nil,
                overtimeMinutes: 20, shootout: false, tieStands: false)
        ),
        (
            .football,
            GameRules(
                competition: "nfl", periods: 4, periodMinutes: 15, overtimes: 1, overtimeMinutes: 10,
                shootout: false, tieStands: true)
        ),
        (
            .football,
            GameRules(
                competition: "nfl-playoffs", periods: 4, periodMinutes: 15, overtimes: nil,
                overtimeMinutes: 15, shootout: false, tieStands: false)
        ),
        (
            .football,
            GameRules(
                competition: "ncaa-football", periods: 4, periodMinutes: 15, overtimes: nil,
                overtimeMinutes: 0, shootout: false, tieStands: false)
        ),
    ]

    /// The preset named `competition`, with its sport.
    public static func preset(_ competition: String) -> (sport: Sport, rules: GameRules)? {
        presets.first { $0.rules.competition == competition }
    }

    /// The sport's default preset (its first).
    public static func defaultRules(for sport: Sport) -> GameRules {
        presets.first { $0.sport == sport }!.rules
    }

    /// The kind of period number `period` (1-based through the game), or `nil` when the rules have none.
    public func kind(ofPeriod period: Int, sport: Sport) -> PeriodKind? {
        if period >= 1 && period <= periods { return .regulation }
        let overtime = period - periods
        if overtime >= 1 && (overtimes.map { overtime <= $0 } ?? true) {
            return sport == .soccer ? .extraTime : .overtime
        }
        if shootout, let overtimes, period == periods + overtimes + 1 { return .shootout }
        return nil
    }

    /// The clock at the start of period `period` in milliseconds (counting down: its length; soccer:
    /// the match time it starts at), or `nil` for an untimed period (a shoot-out, NCAA football's overtime).
    public func clockStart(ofPeriod period: Int, sport: Sport) -> Int? {
        guard sport.hasClock, let kind = kind(ofPeriod: period, sport: sport), kind != .shootout else { return nil }
        let minutes = kind == .regulation ? periodMinutes : overtimeMinutes
        guard minutes > 0 else { return nil }
        if sport.clockCountsDown { return minutes * 60_000 }
        return Self.periodOffsetMinutes(period, rules: self) * 60_000
    }

    /// Soccer: the match minute period `period` starts at (0, 45, 90, 105 with the usual rules).
    static func periodOffsetMinutes(_ period: Int, rules: GameRules) -> Int {
        let regulation = min(period - 1, rules.periods)
        return regulation * rules.periodMinutes + max(0, period - 1 - rules.periods) * rules.overtimeMinutes
    }

    /// Soccer: the match minute period `period` ends at, when its stoppage time begins.
    func periodEndMinutes(_ period: Int) -> Int {
        Self.periodOffsetMinutes(period + 1, rules: self)
    }
}
