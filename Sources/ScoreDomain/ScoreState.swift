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

        init(gameId: String, home: Team, away: Team, startsAt: Date) {
            self.gameId = gameId
            self.home = home
            self.away = away
            self.startsAt = startsAt
        }
    }

    private var identity: Identity

    public var gameId: String {
        get { identity.gameId }
        set { identity = Identity(gameId: newValue, home: home, away: away, startsAt: startsAt) }
    }
    public var home: Team {
        get { identity.home }
        set { identity = Identity(gameId: gameId, home: newValue, away: away, startsAt: startsAt) }
    }
    public var away: Team {
        get { identity.away }
        set { identity = Identity(gameId: gameId, home: home, away: newValue, startsAt: startsAt) }
    }
    /// Scheduled first pitch.
    public var startsAt: Date {
        get { identity.startsAt }
        set { identity = Identity(gameId: gameId, home: home, away: away, startsAt: newValue) }
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

    /// Creates a state. Normally states come from ``ScoreFold``; this is for tests and snapshots.
    public init(
        gameId: String, home: Team, away: Team, startsAt: Date, homeScore: Int = 0, awayScore: Int = 0,
        inningNumber: Int = 0, half: Half = .top, outs: Int = 0, bases: Bases = .empty,
        status: GameStatus = .scheduled,
        version: Int = 1, updatedAt: Date
    ) {
        self.identity = Identity(gameId: gameId, home: home, away: away, startsAt: startsAt)
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

    /// Replaces teams and start time at once (one allocation), keeping the game id.
    mutating func reschedule(home: Team, away: Team, startsAt: Date) {
        identity = Identity(gameId: gameId, home: home, away: away, startsAt: startsAt)
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
