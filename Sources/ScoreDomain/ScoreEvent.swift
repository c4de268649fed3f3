import Foundation

/// One domain event of a game, as carried by a ``FeedMessage``.
///
/// The parser only produces values inside the documented ranges (runs 1…4, outs 1…3, inning 1…99,
/// scores 0…999, the status subsets below); ``ScoreFold`` rejects anything else with `invalid-event`.
public enum ScoreEvent: Sendable, Equatable {
    /// The game exists: teams, scheduled start, sport and rules. Also used to re-schedule before the start.
    case gameScheduled(home: Team, away: Team, startsAt: Date, setup: GameSetup = .baseball)
    /// First pitch: the game goes to `inprogress`, Top 1st.
    case gameStarted
    /// A new half-inning begins (or the current one is confirmed).
    case inningChanged(inning: Int, half: Half)
    /// `runs` (1…4) runs scored for `team`.
    case runScored(team: Side, runs: Int)
    /// `outs` (1…3) outs recorded in the current half-inning.
    case outRecorded(outs: Int)
    /// The runners on base after a play (all empty when a new half-inning begins).
    case basesChanged(Bases)
    /// The provider corrects the score to these absolute values (0…999).
    case scoreCorrected(homeScore: Int, awayScore: Int)
    /// Interim status change; only `.inprogress`, `.delayed` or `.suspended`.
    case statusChanged(GameStatus)
    /// Final status; only `.closed`, `.cancelled` or `.postponed`.
    case gameEnded(GameStatus)
    /// Clock sports: period `period` begins (its kind, when the provider says it).
    case periodStarted(period: Int, kind: PeriodKind?)
    /// Clock sports: period `period` ends.
    case periodEnded(period: Int)
    /// The clock shows `ms` at the message's instant.
    case clockSet(ms: Int)
    /// The clock runs from the message's instant (from `ms` when given).
    case clockStarted(ms: Int?)
    /// The clock stops at the message's instant (at `ms` when given).
    case clockStopped(ms: Int?)
    /// Clock sports: a scoring play.
    case pointsScored(PointsScored)
    /// A shoot-out attempt, scored or not.
    case shootoutAttempt(team: Side, scored: Bool, player: String?)
    /// Soccer: a card.
    case cardShown(team: Side, card: Card, player: String?, clockMs: Int?)
    /// Football: possession, down and distance.
    case situationChanged(Situation, turnover: Bool, clockMs: Int?)
    /// Takes back the earlier event with message id `id` (a scoring play, a shoot-out attempt, a card).
    case retracted(id: String, reason: String?)

    /// The wire name of the event, e.g. `"run.scored"`.
    public var type: String {
        switch self {
        case .gameScheduled: "game.scheduled"
        case .gameStarted: "game.started"
        case .inningChanged: "inning.changed"
        case .runScored: "run.scored"
        case .outRecorded: "out.recorded"
        case .basesChanged: "bases.changed"
        case .scoreCorrected: "score.corrected"
        case .statusChanged: "status.changed"
        case .gameEnded: "game.ended"
        case .periodStarted: "period.started"
        case .periodEnded: "period.ended"
        case .clockSet: "clock.set"
        case .clockStarted: "clock.started"
        case .clockStopped: "clock.stopped"
        case .pointsScored: "points.scored"
        case .shootoutAttempt: "shootout.attempt"
        case .cardShown: "card.shown"
        case .situationChanged: "situation.changed"
        case .retracted: "event.retracted"
        }
    }

    /// Every wire name, in the order of the cases.
    public static let allTypes: [String] = [
        "game.scheduled", "game.started", "inning.changed", "run.scored",
        "out.recorded", "bases.changed", "score.corrected", "status.changed", "game.ended",
        "period.started", "period.ended", "clock.set", "clock.started", "clock.stopped", "points.scored",
        "shootout.attempt", "card.shown", "situation.changed", "event.retracted",
    ]
}

/// A game's sport and the rules it is played by (`game.scheduled`'s `sport`, `competition`, `rules`).
public struct GameSetup: Sendable, Equatable {
    public var sport: Sport
    public var rules: GameRules

    public init(sport: Sport, rules: GameRules) {
        self.sport = sport
        self.rules = rules
    }

    /// Baseball by MLB's rules: every game scheduled without a sport.
    public static let baseball = GameSetup(sport: .baseball, rules: GameRules.defaultRules(for: .baseball))
}

/// A scoring play of a clock sport, as `points.scored` carries it.
public struct PointsScored: Sendable, Equatable {
    public var team: Side
    public var points: Int
    public var kind: ScoringKind
    public var player: String?
    /// The provider's clock at the play, when it gave one.
    public var clockMs: Int?

    public init(team: Side, points: Int, kind: ScoringKind, player: String? = nil, clockMs: Int? = nil) {
        self.team = team
        self.points = points
        self.kind = kind
        self.player = player
        self.clockMs = clockMs
    }
}
