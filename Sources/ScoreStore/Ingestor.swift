import Logging
import PostgresClient
import ScoreDomain

/// Messages the fold refused part-way through a batch: the messages before `index` were handled
/// (their outcomes are in `outcomes`), nothing of the refused one or after it was stored.
public struct IngestRejection: Error, Sendable, CustomStringConvertible {
    /// Outcomes of the messages before the refused one.
    public var outcomes: [AppendOutcome]
    /// Index of the refused message in the batch.
    public var index: Int
    public var messageId: String
    public var error: FoldError

    public var code: String { error.code }
    public var description: String { "message \"\(messageId)\" rejected: \(error)" }
}

/// The write path: messages → fold check against each game's current state → event log.
///
/// The fold runs BEFORE the append, so the log only holds events the fold accepts. The state a
/// message is checked against is the fold of the game's stream, cached per game and re-read when
/// another writer moved the stream on (an optimistic version check on every append). Projections
/// are built from the log afterwards by the ``Projector``.
public actor Ingestor {
    public let connection: PostgresConnection
    /// The write-side state of each game seen: `nil` inside means the game has no events yet.
    private var states: [String: Known] = [:]

    private struct Known: Sendable {
        var state: ScoreState?
        var version: Int { state?.version ?? 0 }
    }

    public init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Appends a batch in one transaction.
    ///
    /// - Parameter partial: when the fold refuses a message, store the messages before it and throw
    ///   ``IngestRejection``; when `false`, a refusal stores nothing of the batch.
    /// - Returns: one outcome per message (appended or duplicate).
    /// - Throws: ``IngestRejection``, ``StoreError``, ``PostgresError``.
    public func ingest(_ messages: [FeedMessage], partial: Bool = true) async throws -> [AppendOutcome] {
        do {
            return try await attempt(messages, partial: partial)
        } catch StoreError.versionConflict(let gameId, _, _) {
            // Another writer appended to the game: forget what we knew and check again, once.
            states[gameId] = nil
            return try await attempt(messages, partial: partial)
        }
    }

    /// Ingests one message.
    public func ingest(_ message: FeedMessage) async throws -> AppendOutcome {
        try await ingest([message])[0]
    }

    private func attempt(_ messages: [FeedMessage], partial: Bool) async throws -> [AppendOutcome] {
        let cached = states
        let (outcomes, folded, rejection) = try await connection.transaction { tx in
            try EventLog.lockForAppend(tx)
            var states = cached
            for gameId in Set(messages.map(\.gameId)) where states[gameId] == nil {
                states[gameId] = Known(state: try Self.fold(EventLog.readStream(gameId, in: tx)))
            }
            let before = states
            // Duplicates are never folded: look their ids up first.
            let known = try EventLog.storedIDs(messages.map(\.id), in: tx)
            var accepted: [FeedMessage] = []
            var seen = Set<String>()
            var rejection: IngestRejection?
            scan: for (index, message) in messages.enumerated() {
                if known.contains(message.id) || seen.contains(message.id) {
                    accepted.append(message)
                    continue
                }
                switch Result(catching: { () throws(FoldError) in
                    try ScoreFold.apply(message, to: states[message.gameId]?.state)
                }) {
                case .success(let next):
                    states[message.gameId] = Known(state: next)
                    seen.insert(message.id)
                    accepted.append(message)
                case .failure(let error):
                    rejection = IngestRejection(outcomes: [], index: index, messageId: message.id, error: error)
                    break scan
                }
            }
            if rejection != nil, !partial {
                return ([AppendOutcome](), before, rejection)
            }
            let versions = before.mapValues(\.version)
            let outcomes = try EventLog.append(accepted, expectedVersions: versions, in: tx)
            return (outcomes, states, rejection)
        }
        for (gameId, state) in folded { states[gameId] = state }
        if var rejection {
            rejection.outcomes = outcomes
            throw rejection
        }
        return outcomes
    }

    private static func fold(_ events: [RecordedEvent]) throws -> ScoreState? {
        var state: ScoreState?
        for event in events {
            do {
                state = try ScoreFold.apply(event.message, to: state)
            } catch {
                throw StoreError.corruptEvent(position: event.position, reason: "the fold refuses it: \(error)")
            }
        }
        return state
    }
}
