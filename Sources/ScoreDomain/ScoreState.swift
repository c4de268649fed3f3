import Foundation

/// The projection of one game's event stream: what a fan sees, plus the stream version.
///
/// Built by ``ScoreFold/apply(_:to:)``; `inning` is derived from `inningNumber` and `half`.
public struct ScoreState: Sendable, Equatable {
    /// The fields that change only when a game is (re-)scheduled, kept in one immutable box so that
    /// copying a state (once per folded event) costs one reference count instead of one per string.
    private final class Identity: Sendable {
        let gameId: String
        let home: Team
        let away: Team
        let startsAt: Date
        let setup: GameSetup

        init(gameId: String, home: Team, away: Team, startsAt: Date, setup: GameSetup) {
            self.gameId = gameId
            self.home = home
            self.away = away
            self.startsAt = startsAt
            self.setup = setup
        }
    }

    private var identity: Identity

    public var gameId: String {
        get { identity.gameId }
        set { identity = Identity(gameId: newValue, home: home, away: away, startsAt: startsAt, setup: setup) }
    }
    public var home: Team {
        get { identity.home }
        set { identity = Identity(gameId: gameId, home: newValue, away: away, startsAt: startsAt, setup: setup) }
    }
    public var away: Team {
        get { identity.away }
        set { identity = Identity(gameId: gameId, home: home, away: newValue, startsAt: startsAt, setup: setup) }
    }
    /// Scheduled first pitch.
    public var startsAt: Date {
        get { identity.startsAt }
        set { identity = Identity(gameId: gameId, home: home, away: away, startsAt: newValue, setup: setup) }
    }
    /// The sport and the rules the game is played by (baseball by MLB's unless scheduled otherwise).
    public var setup: GameSetup {
        get { identity.setup }
        set { identity = Identity(gameId: gameId, home: home, away: away, startsAt: startsAt, setup: newValue) }
    }
    public var sport: Sport {
        get { setup.sport }
        set { setup = GameSetup(sport: newValue, rules: GameRules.defaultRules(for: newValue)) }
    }
    public var rules: GameRules {
        get { setup.rules }
        set { setup = GameSetup(sport: sport, rules: newValue) }
    }
    public var homeScore: Int
    public var awayScore: Int
    /// 0 before the game starts, then the current inning (1…99).
    public var inningNumber: Int
    public var half: Half
    /// Outs in the current half-inning, 0…3 (three outs stay until the next `inning.changed`).
    public var outs: Int
    /// Runners on base in the current half-inning (empty when it begins).
    public var bases: Bases
    public var status: GameStatus
    /// Number of events folded, i.e. the stream version of the last folded event.
    public var version: Int
    /// The `at` of the last folded event.
    public var updatedAt: Date

    // Clock sports (docs/sports.md): kept in one copy-on-write box that a baseball state never has,
    // so that copying a state (once per folded event) costs no more than a reference for them.
    private var extras: ExtrasBox?

    /// 0 before the start, then the current period, numbered through the game.
    public var periodNumber: Int {
        get { extras?.value.periodNumber ?? 0 }
        set { mutateExtras { $0.periodNumber = newValue } }
    }
    /// Whether the current period has ended (an intermission, or the end).
    public var periodEnded: Bool {
        get { extras?.value.periodEnded ?? false }
        set { mutateExtras { $0.periodEnded = newValue } }
    }
    /// The game clock's anchor, once a timed period began.
    public var clock: GameClock? {
        get { extras?.value.clock }
        set { mutateExtras { $0.clock = newValue } }
    }
    /// The shoot-out tally, once a shoot-out began.
    public var shootout: SideTally? {
        get { extras?.value.shootout }
        set { mutateExtras { $0.shootout = newValue } }
    }
    /// Soccer: players sent off per side.
    public var redCards: SideTally {
        get { extras?.value.redCards ?? SideTally() }
        set { mutateExtras { $0.redCards = newValue } }
    }
    /// Football: possession, down and distance, once known.
    public var situation: Situation? {
        get { extras?.value.situation }
        set { mutateExtras { $0.situation = newValue } }
    }
    /// Soccer cards in game order (retracted ones removed).
    public var cards: Chain<CardShown> {
        get { extras?.value.cards ?? Chain() }
        set { mutateExtras { $0.cards = newValue } }
    }
    /// Shoot-out attempts in order (retracted ones removed).
    public var shootoutAttempts: Chain<ShootoutAttempt> {
        get { extras?.value.shootoutAttempts ?? Chain() }
        set { mutateExtras { $0.shootoutAttempts = newValue } }
    }
    /// Message ids taken back by `event.retracted`.
    public var retracted: Chain<String> {
        get { extras?.value.retracted ?? Chain() }
        set { mutateExtras { $0.retracted = newValue } }
    }

    // Every sport: what happened, for the scoring list and the line score.
    /// Scoring plays and corrections in game order (retracted plays removed).
    public var scoring = Chain<ScoringPlay>()

    /// Changes the boxed values, copying the box first when another state shares it.
    private mutating func mutateExtras(_ change: (inout Extras) -> Void) {
        if isKnownUniquelyReferenced(&extras), let box = extras {
            change(&box.value)
        } else {
            var value = extras?.value ?? Extras()
            change(&value)
            extras = ExtrasBox(value)
        }
    }

    /// Creates a state. Normally states come from ``ScoreFold``; this is for tests and snapshots.
    public init(
        gameId: String, home: Team, away: Team, startsAt: Date, homeScore: Int = 0, awayScore: Int = 0,
        inningNumber: Int = 0, half: Half = .top, outs: Int = 0, bases: Bases = .empty,
        status: GameStatus = .scheduled,
        version: Int = 1, updatedAt: Date, setup: GameSetup = .baseball
    ) {
        self.identity = Identity(gameId: gameId, home: home, away: away, startsAt: startsAt, setup: setup)
        self.homeScore = homeScore
        self.awayScore = awayScore
        self.inningNumber = inningNumber
        self.half = half
        self.outs = outs
        self.bases = bases
        self.status = status
        self.version = version
        self.updatedAt = updatedAt
    }

    /// Replaces teams, start time and setup at once (one allocation), keeping the game id.
    mutating func reschedule(home: Team, away: Team, startsAt: Date, setup: GameSetup) {
        identity = Identity(gameId: gameId, home: home, away: away, startsAt: startsAt, setup: setup)
    }

    /// Display inning: `"Pre-game"` before the start, else e.g. `"Top 4th"`, `"Bottom 11th"`, `"Top 21st"`.
    public var inning: String {
        inningNumber == 0 ? "Pre-game" : half.displayName + " " + ScoreState.ordinal(inningNumber)
    }

    /// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `12th`, `13th`, … `21st`, `22nd`, `23rd`, … `111th`.
    public static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 100, number % 10) {
        case (11...13, _): suffix = "th"
        case (_, 1): suffix = "st"
        case (_, 2): suffix = "nd"
        case (_, 3): suffix = "rd"
        default: suffix = "th"
        }
        return String(number) + suffix
    }

    /// Position of the current half-inning in play order (Top n < Bottom n < Top n+1).
    var halfInningIndex: Int { inningNumber * 2 + (half == .bottom ? 1 : 0) }
}

/// The values of a state that only the clock sports (and retractions) set.
struct Extras: Sendable, Equatable {
    var periodNumber = 0
    var periodEnded = false
    var clock: GameClock?
    var shootout: SideTally?
    var redCards = SideTally()
    var situation: Situation?
    var cards = Chain<CardShown>()
    var shootoutAttempts = Chain<ShootoutAttempt>()
    var retracted = Chain<String>()
}

/// The box of ``Extras``: changed in place only while one state holds it (copy on write), so sharing
/// it between states is safe.
final class ExtrasBox: @unchecked Sendable {
    var value: Extras
    init(_ value: Extras) { self.value = value }
}
