import Foundation

/// One domain event of a game, as carried by a ``FeedMessage``.
///
/// The parser only produces values inside the documented ranges (runs 1…4, outs 1…3, inning 1…99,
/// scores 0…999, the status subsets below); ``ScoreFold`` rejects anything else with `invalid-event`.
public enum ScoreEvent: Sendable, Equatable {
    /// The game exists: teams and scheduled first pitch. Also used to re-schedule before the start.
    case gameScheduled(home: Team, away: Team, startsAt: Date)
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
        }
    }

    /// Every wire name, in the order of the cases.
    public static let allTypes: [String] = [
        "game.scheduled", "game.started", "inning.changed", "run.scored",
        "out.recorded", "bases.changed", "score.corrected", "status.changed", "game.ended",
    ]
}
