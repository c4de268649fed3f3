import Foundation
import PostgresClient
import ScoreDomain

/// One event as stored in the log.
public struct RecordedEvent: Sendable, Equatable {
    /// Global position: the order every subscriber sees.
    public var position: Int
    /// Version of the event within its game's stream (1, 2, 3, … without gaps).
    public var version: Int
    public var message: FeedMessage
    public var recordedAt: Date
}

/// What an append did.
public enum AppendOutcome: Sendable, Equatable {
    /// A new event at this global position and stream version.
    case appended(position: Int, version: Int)
    /// The message id was already in the log, at this position; nothing was added.
    case duplicate(position: Int)
}

/// The append-only event log, one stream per game. All functions run inside a session, so the
/// caller chooses the transaction (the ingest pipeline appends and projects in one).
public enum EventLog {
    /// Takes the append lock for the rest of the transaction: writers commit in position order.
    public static func lockForAppend(_ session: PostgresSession) throws {
        try session.query("SELECT pg_advisory_xact_lock(\(AdvisoryLock.append))")
    }

    /// Appends `message` to its game's stream at `expectedVersion + 1`.
    ///
    /// Must run in a transaction that holds ``lockForAppend(_:)``.
    /// - Returns: `.duplicate` when the message id is already stored (nothing is appended).
    /// - Throws: ``StoreError/versionConflict(gameId:expected:actual:)`` when the stream moved on.
    public static func append(_ message: FeedMessage, expectedVersion: Int, in session: PostgresSession) throws
        -> AppendOutcome
    {
        let current = try session.query(
            """
            SELECT (SELECT position FROM events WHERE message_id = $1) AS duplicate,
                   (SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = $2) AS version
            """, [message.id, message.gameId])
        if let position = try current[0].optionalInt("duplicate") {
            return .duplicate(position: position)
        }
        let actual = try current[0].int("version")
        guard actual == expectedVersion else {
            throw StoreError.versionConflict(gameId: message.gameId, expected: expectedVersion, actual: actual)
        }
        let result: PostgresResult
        do {
            result = try session.query(
                """
                INSERT INTO events (stream_id, stream_version, message_id, type, data, occurred_at)
                VALUES ($1, $2, $3, $4, $5::jsonb, $6)
                RETURNING position
                """,
                [
                    message.gameId, expectedVersion + 1, message.id, message.event.type, message.canonicalJSON(),
                    message.at,
                ])
        } catch {
            // Without the append lock another writer can still get in between the check and the insert.
            switch error.constraint {
            case "events_stream_version_key":
                throw StoreError.versionConflict(gameId: message.gameId, expected: expectedVersion, actual: nil)
            case "events_message_id_key":
                throw StoreError.concurrentDuplicate(messageId: message.id)
            default:
                throw error
            }
        }
        return .appended(position: try result[0].int("position"), version: expectedVersion + 1)
    }

    /// The global position of the event stored for a message id, if any.
    public static func position(ofMessage id: String, in session: PostgresSession) throws -> Int? {
        let result = try session.query("SELECT position FROM events WHERE message_id = $1", [id])
        return result.count == 0 ? nil : try result[0].int("position")
    }

    /// The current version of a game's stream (0 when it has no events).
    public static func streamVersion(_ gameId: String, in session: PostgresSession) throws -> Int {
        let result = try session.query(
            "SELECT coalesce(max(stream_version), 0) AS version FROM events WHERE stream_id = $1", [gameId])
        return try result[0].int("version")
    }

    /// The events of one game, in stream order, after `version`.
    public static func readStream(_ gameId: String, afterVersion version: Int = 0, in session: PostgresSession)
        throws -> [RecordedEvent]
    {
        let result = try session.query(
            """
            SELECT position, stream_version, data::text AS data, recorded_at FROM events
            WHERE stream_id = $1 AND stream_version > $2 ORDER BY stream_version
            """, [gameId, version])
        return try result.rows.map(decode)
    }

    /// Up to `limit` events of every game after global `position`, in global order.
    public static func readAll(afterPosition position: Int, limit: Int = 1000, in session: PostgresSession)
        throws -> [RecordedEvent]
    {
        let result = try session.query(
            """
            SELECT position, stream_version, data::text AS data, recorded_at FROM events
            WHERE position > $1 ORDER BY position LIMIT $2
            """, [position, limit])
        return try result.rows.map(decode)
    }

    private static func decode(_ row: PostgresRow) throws -> RecordedEvent {
        let position = try row.int("position")
        let message: FeedMessage
        do {
            message = try FeedParser.parse(try row.string("data"))
        } catch {
            throw StoreError.corruptEvent(position: position, reason: "\(error)")
        }
        return RecordedEvent(
            position: position, version: try row.int("stream_version"), message: message,
            recordedAt: try row.date("recorded_at"))
    }
}
