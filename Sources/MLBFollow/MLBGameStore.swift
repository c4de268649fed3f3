import LiveActivity
import MLBFeed
import ScoreDomain
import ScoreStore

/// Where a followed or replayed game's messages go: the event log, through the ``Replayer`` (ingest →
/// projection → Live Activity commands).
public struct MLBGameStore: Sendable {
    /// The write path.
    public let replayer: Replayer

    /// Creates a store on a replayer.
    public init(replayer: Replayer) {
        self.replayer = replayer
    }

    /// The differ's view of a game rebuilt from its stream in the event log, so a restarted follower
    /// (or a second replay) continues where the log is: same versions, same message ids.
    /// - Throws: a database error, or ``StoreError`` when the stream does not fold.
    public func view(gamePk: Int) async throws -> MLBGameView {
        let gameId = MLBSnapshot.gameId(gamePk)
        let events = try await replayer.ingestor.connection.withSession { session in
            try EventLog.readStream(gameId, in: session)
        }
        do {
            return try MLBGameView(gamePk: gamePk, replaying: events.map(\.message))
        } catch {
            throw StoreError.corruptEvent(position: events.last?.position ?? 0, reason: "\(error)")
        }
    }

    /// Appends messages (duplicates by id are skipped), projects them and emits their commands.
    /// - Parameter source: names where the messages came from in errors (e.g. the snapshot file).
    public func store(
        _ messages: [FeedMessage], source: String, emit: (LiveActivityCommand) throws -> Void
    ) async throws -> ReplaySummary {
        try await replayer.replay(
            messages: messages.map { SourcedMessage(message: $0, file: source, line: 1) }, emit: emit)
    }
}
