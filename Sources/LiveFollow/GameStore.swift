import LiveActivity
import ScoreDomain
import ScoreStore
import Synchronization

/// Where a followed or replayed game's messages go: the event log, through the ``Replayer`` (ingest →
/// projection → pushes), the same path as the server's. Shared by every follower (MLB, NHL, NBA,
/// Sportradar) and by `replay --format mlb-feed`.
public final class GameStore: Sendable {
    /// The write path.
    public let replayer: Replayer
    /// The activity registered before the game whose pushes are emitted, kept across documents
    /// (a follower stores one document at a time).
    private let audience = Mutex<Audience?>(Audience())

    /// Creates a store on a replayer.
    public init(replayer: Replayer) {
        self.replayer = replayer
    }

    /// The game's stream in the event log, in order (empty for a game never seen).
    /// - Throws: a database error.
    public func stream(_ gameId: String) async throws -> [RecordedEvent] {
        try await replayer.ingestor.connection.withSession { session in
            try EventLog.readStream(gameId, in: session)
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
