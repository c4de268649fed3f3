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

/// The write path: messages → fold check against each game's committed state → event log.
///
/// The fold runs BEFORE the append, so the log only holds events the fold accepts. Every decision is
/// taken inside the appending transaction, under the append lock, against the stream as committed:
/// the transaction reads each game's stream version (with the ids already stored, in one statement)
/// and uses a cached fold only when it is at exactly that version; otherwise it folds the stream
/// again. The cache is a hint that saves reading streams, never a source of truth: concurrent calls
/// (the actor re-enters while a transaction is awaited) only ever replace a game's cached state by a
/// newer one. Projections are built from the log afterwards by the ``Projector``.
public actor Ingestor {
    public let connection: PostgresConnection
    /// The last known fold of each game seen: `nil` means the game has no events yet.
    private var states: [String: ScoreState?] = [:]

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
        let games = Set(messages.map(\.gameId))
        let cached = states.filter { games.contains($0.key) }
        let (outcomes, folded, rejection) = try await connection.transaction { tx in
            try EventLog.lockForAppend(tx)
            let heads = try EventLog.heads(of: messages, in: tx)
            var states: [String: ScoreState?] = [:]
            for game in games {
                if let state = cached[game], state?.version ?? 0 == heads.version(of: game) {
                    states[game] = state
                } else {
                    states[game] = try Self.fold(EventLog.readStream(game, in: tx))
                }
            }
            let committed = states
            var accepted: [FeedMessage] = []
            var seen = Set<String>()
            var rejection: IngestRejection?
            scan: for (index, message) in messages.enumerated() {
                // Duplicates are never folded.
                if heads.stored[message.id] != nil || seen.contains(message.id) {
                    accepted.append(message)
                    continue
                }
                switch Result(catching: { () throws(FoldError) in
                    try ScoreFold.apply(message, to: states[message.gameId] ?? nil)
                }) {
                case .success(let next):
                    states[message.gameId] = next
                    seen.insert(message.id)
                    accepted.append(message)
                case .failure(let error):
                    rejection = IngestRejection(outcomes: [], index: index, messageId: message.id, error: error)
                    break scan
                }
            }
            if rejection != nil, !partial {
                return ([AppendOutcome](), committed, rejection)
            }
            let outcomes = try EventLog.append(accepted, at: heads, in: tx)
            return (outcomes, states, rejection)
        }
        for (game, state) in folded where state?.version ?? 0 >= states[game]??.version ?? 0 {
            states[game] = state
        }
        if var rejection {
            rejection.outcomes = outcomes
            throw rejection
        }
        return outcomes
    }

    /// Ingests one message.
    public func ingest(_ message: FeedMessage) async throws -> AppendOutcome {
        try await ingest([message])[0]
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
