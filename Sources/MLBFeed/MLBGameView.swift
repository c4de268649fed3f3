import Foundation
import ScoreDomain

/// What the differ knows of a game: the fold of every canonical message sent for it so far, the
/// timecode of the newest document applied, and that document's scoring plays.
public struct MLBGameView: Sendable, Equatable {
    /// The game's `gamePk`.
    public let gamePk: Int
    /// The fold of the messages sent so far (`nil`: nothing sent yet).
    public var state: ScoreState?
    /// The timecode of the newest document applied; older documents are ignored.
    public var timecode: MLBTimecode?
    /// The scoring plays of the newest document applied (`nil` after a restart: rewrites of plays
    /// seen before the restart are then only noticed through the score).
    public var scoringPlays: [MLBSnapshot.ScoringPlay]?

    /// The canonical game id, `mlb-<gamePk>`.
    public var gameId: String { MLBSnapshot.gameId(gamePk) }

    /// A game nothing has been sent for.
    public init(gamePk: Int) {
        self.gamePk = gamePk
    }

    /// The view after `messages` (the game's stream in the event log, in order): their fold, and the
    /// `at` of the last one as the timecode (every message carries its document's timecode).
    /// - Throws: ``FoldError`` when the stream does not fold (it always does for a stream the Ingestor wrote).
    public init(gamePk: Int, replaying messages: [FeedMessage]) throws(FoldError) {
        self.gamePk = gamePk
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        self.state = state
        self.timecode = messages.map(\.at).max().map { MLBTimecode(date: $0) }
    }
}

/// The canonical messages one document adds to a game.
public struct MLBDiff: Sendable, Equatable {
    /// Whether the document was applied.
    public enum Outcome: Sendable, Equatable {
        /// Compared with the view; ``MLBDiff/messages`` may still be empty (nothing changed).
        case applied
        /// Older than the newest document applied (out of order): ignored.
        case stale(last: MLBTimecode)
        /// A document of another game: ignored.
        case otherGame(gamePk: Int)
    }

    public var outcome: Outcome
    /// The messages, in the order to ingest; each is accepted by `ScoreFold` after the ones before.
    public var messages: [FeedMessage]
    /// The view after the messages.
    public var view: MLBGameView
    /// Changes of the document that no canonical message can express (outs taken back, an inning
    /// going backwards, a game reopened after its end), for the log.
    public var notes: [String]
}
