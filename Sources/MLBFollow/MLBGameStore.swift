import LiveActivity
import MLBFeed
import ScoreDomain
import ScoreStore
import Synchronization

/// Where a followed or replayed game's messages go: the event log, through the ``Replayer`` (ingest →
/// projection → pushes), the same path as the server's.
public final class MLBGameStore: Sendable {
    /// The write path.
    public let replayer: Replayer
    /// The activity registered before the game whose pushes are emitted, kept across documents
    /// (a follower stores one document at a time).
    private let audience = Mutex<Audience?>(Audience())

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

    /// Appends messages (duplicates by id are skipped), projects them and emits the pushes an
    /// activity registered before the game receives.
    /// - Parameter source: names where the messages came from in errors (e.g. the snapshot file).
    public func store(_ messages: [FeedMessage], source: String, emit: PushSink) async throws -> ReplaySummary {
        var audience = self.audience.withLock { $0 }
        defer { self.audience.withLock { [audience] in $0 = audience } }
        return try await replayer.replay(
            messages: messages.map { SourcedMessage(message: $0, file: source, line: 1) }, audience: &audience,
            emit: emit)
    }
}
