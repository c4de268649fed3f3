import LiveActivity
import Logging
import PostgresClient
import ScoreDomain

/// What ingesting one message did.
public struct IngestResult: Sendable, Equatable {
    /// Appended at a new position, or a duplicate of a stored message.
    public var outcome: AppendOutcome
    /// The game's state after the message (`nil` for a duplicate).
    public var state: ScoreState?
    /// The Live Activity command planned for the change, if the fan sees a change.
    public var command: LiveActivityCommand?

    public init(outcome: AppendOutcome, state: ScoreState?, command: LiveActivityCommand?) {
        self.outcome = outcome
        self.state = state
        self.command = command
    }
}

/// The write path: message → fold check → event log → projection → command, in one transaction.
///
/// The fold runs BEFORE the append, against the projection row locked for the transaction, so the
/// log only ever holds events the fold accepts; the projection row, its checkpoint and the planned
/// command commit together with the event or not at all.
public struct Ingestor: Sendable {
    public let connection: PostgresConnection
    public let planner: PlannerConfig

    public init(connection: PostgresConnection, planner: PlannerConfig = PlannerConfig()) {
        self.connection = connection
        self.planner = planner
    }

    /// Ingests one message.
    ///
    /// - Throws: ``StoreError/rejected(messageId:_:)`` when the fold refuses it (nothing is stored),
    ///   ``StoreError/versionConflict(gameId:expected:actual:)``, or a ``PostgresError``.
    public func ingest(_ message: FeedMessage) async throws -> IngestResult {
        let planner = self.planner
        return try await connection.transaction { tx in
            try Self.ingest(message, planner: planner, in: tx)
        }
    }

    /// Ingests one message inside the caller's transaction.
    public static func ingest(_ message: FeedMessage, planner: PlannerConfig, in tx: PostgresSession) throws
        -> IngestResult
    {
        try EventLog.lockForAppend(tx)
        if let position = try EventLog.position(ofMessage: message.id, in: tx) {
            return IngestResult(outcome: .duplicate(position: position), state: nil, command: nil)
        }
        let previous = try ScoreProjection.load(message.gameId, forUpdate: true, in: tx)
        let next: ScoreState
        do {
            next = try ScoreFold.apply(message, to: previous)
        } catch {
            throw StoreError.rejected(messageId: message.id, error)
        }
        let outcome = try EventLog.append(message, expectedVersion: previous?.version ?? 0, in: tx)
        guard case .appended(let position, _) = outcome else {
            return IngestResult(outcome: outcome, state: nil, command: nil)
        }
        try ScoreProjection.save(next, position: position, in: tx)
        let command = CommandPlanner.plan(
            previous: previous, next: next, event: message.event,
            lastTimestamp: try PushCommands.lastTimestamp(message.gameId, in: tx), config: planner)
        if let command {
            try PushCommands.insert(command, position: position, in: tx)
        }
        return IngestResult(outcome: outcome, state: next, command: command)
    }
}
