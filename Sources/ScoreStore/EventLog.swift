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
    /// The W3C `traceparent` of the span that appended it (``TraceParent``); `nil` without tracing.
    public var traceParent: String?

    public init(position: Int, version: Int, message: FeedMessage, recordedAt: Date, traceParent: String? = nil) {
        self.position = position
        self.version = version
        self.message = message
        self.recordedAt = recordedAt
        self.traceParent = traceParent
    }
}

/// What an append did.
public enum AppendOutcome: Sendable, Equatable {
    /// A new event at this global position and stream version.
    case appended(position: Int, version: Int)
    /// The message id was already in the log, at this position; nothing was added.
    case duplicate(position: Int)
}

/// The append-only event log, one stream per game. All functions run inside a session, so the
/// caller chooses the transaction.
public enum EventLog {
    /// The channel every appending transaction notifies on commit (a wake-up hint for followers).
    public static let channel = "scorefeed_events"

    /// Takes the append lock for the rest of the transaction, so writers commit in position order,
    /// and queues the commit-time wake-up for followers.
    public static func lockForAppend(_ session: PostgresSession) throws {
        try session.query(appendLock)
    }

    /// ``lockForAppend(_:)`` as SQL, to send with `BEGIN` in one round trip
    /// (`transaction(beginning: EventLog.appendLock)`).
    public static let appendLock = "SELECT pg_advisory_xact_lock(\(AdvisoryLock.append)), pg_notify('\(channel)', '')"

    /// Appends `message` to its game's stream at `expectedVersion + 1`.
    ///
    /// Must run in a transaction that holds ``lockForAppend(_:)``.
    /// - Returns: `.duplicate` when the message id is already stored (nothing is appended).
    /// - Throws: ``StoreError/versionConflict(gameId:expected:actual:)`` when the stream moved on.
    public static func append(_ message: FeedMessage, expectedVersion: Int, in session: PostgresSession) throws
        -> AppendOutcome
    {
        try append([message], expectedVersions: [message.gameId: expectedVersion], in: session)[0]
    }

    /// Appends a batch of messages, of one game or many, in one statement: all or nothing.
    ///
    /// Must run in a transaction that holds ``lockForAppend(_:)``. Messages whose id is already in
    /// the log, or earlier in the batch, with the same content are duplicates and take no version.
    /// The others get the next versions of their streams, in batch order.
    /// - Parameter expectedVersions: the version each game's stream must be at before the batch;
    ///   a game without an entry is appended at its current end.
    /// - Returns: one outcome per message, in order.
    /// - Throws: ``StoreError/versionConflict(gameId:expected:actual:)`` when a stream is not at its
    ///   expected version, ``StoreError/idConflict(_:)`` when an id stands for another message
    ///   (then nothing of the batch is appended).
    public static func append(
        _ messages: [FeedMessage], expectedVersions: [String: Int] = [:], in session: PostgresSession
    ) throws -> [AppendOutcome] {
        try append(messages.map(Entry.init), expectedVersions: expectedVersions, in: session)
    }

    /// ``append(_:expectedVersions:in:)`` of entries encoded before the transaction.
    public static func append(
        _ entries: [Entry], expectedVersions: [String: Int] = [:], in session: PostgresSession
    ) throws -> [AppendOutcome] {
        guard !entries.isEmpty else { return [] }
        let heads = try heads(of: entries.map(\.message), in: session)
        for game in heads.versions.keys {
            if let expected = expectedVersions[game], heads.version(of: game) != expected {
                throw StoreError.versionConflict(gameId: game, expected: expected, actual: heads.version(of: game))
            }
        }
        return try append(entries, at: heads, in: session)
    }

    /// A message with its stored form, encoded once. Encoding needs no database, so a caller builds
    /// the entries of its next batch while the current one is on the wire, not inside the transaction.
    public struct Entry: Sendable, Equatable {
        public let message: FeedMessage
        /// The `data` stored: the message's canonical JSON.
        public let data: String

        public init(_ message: FeedMessage) {
            self.message = message
            self.data = message.canonicalJSON()
        }
    }

    /// A message already in the log, and where.
    public struct StoredMessage: Sendable, Equatable {
        public var position: Int
        public var message: FeedMessage
    }

    /// What the log holds for a batch before it is appended: the messages already stored under the
    /// batch's ids and each game's stream version. Read under ``lockForAppend(_:)`` it is the
    /// committed truth until the transaction ends.
    public struct Heads: Sendable, Equatable {
        /// Message id → the stored message, for the batch's ids already in the log.
        public var stored: [String: StoredMessage]
        /// Game → the version its stream is at (every game of the batch; 0 for an empty stream).
        public var versions: [String: Int]

        public func version(of game: String) -> Int { versions[game, default: 0] }
    }

    /// Reads the ``Heads`` of a batch in one statement. Not prepared: a generic plan made while the
    /// log is small scans it for every game's head once it has grown (seen: 800 ms per batch).
    public static func heads(of messages: [FeedMessage], in session: PostgresSession) throws -> Heads {
        let games = Array(Set(messages.map(\.gameId)))
        let result = try session.query(
            """
            SELECT 'm' AS kind, message_id AS key, position AS value, data::text AS data
            FROM events WHERE message_id = ANY($1::text[])
            UNION ALL
            SELECT 's', g, (SELECT stream_version FROM events WHERE stream_id = g ORDER BY stream_version DESC LIMIT 1),
                NULL
            FROM unnest($2::text[]) AS g
            """, [PostgresBinaryArray.text(messages.lazy.map(\.id)), PostgresBinaryArray.text(games)])
        var heads = Heads(stored: [:], versions: Dictionary(uniqueKeysWithValues: games.map { ($0, 0) }))
        for row in result.rows {
            if try row.string("kind") == "m" {
                let position = try row.int("value")
                heads.stored[try row.string("key")] = StoredMessage(
                    position: position, message: try message(try row.string("data"), at: position))
            } else if let version = try row.optionalInt("value") {
                heads.versions[try row.string("key")] = version
            }
        }
        return heads
    }

    /// Appends a batch whose ``Heads`` were read in this transaction, under ``lockForAppend(_:)``.
    /// Messages whose id is already stored, or earlier in the batch, with the same content are
    /// duplicates and take no version; the others get the next versions of their streams, in batch order.
    /// - Parameter traceParents: the trace context stored with each message (by index; empty: none).
    /// - Throws: ``StoreError/idConflict(_:)`` when an id stands for another message (nothing appended).
    public static func append(
        _ entries: [Entry], at heads: Heads, traceParents: [String?] = [], in session: PostgresSession
    ) throws -> [AppendOutcome] {
        var known = heads.stored.mapValues(\.position)
        var versions = heads.versions
        var fresh: [(index: Int, version: Int)] = []
        var seen: [String: FeedMessage] = [:]
        for (index, entry) in entries.enumerated() {
            let message = entry.message
            if let stored = heads.stored[message.id] {
                if let conflict = IdConflict.between(message, stored.message, position: stored.position) {
                    throw StoreError.idConflict(conflict)
                }
                continue
            }
            if let earlier = seen[message.id] {
                if let conflict = IdConflict.between(message, earlier, position: nil) {
                    throw StoreError.idConflict(conflict)
                }
                continue
            }
            seen[message.id] = message
            let version = versions[message.gameId, default: 0] + 1
            versions[message.gameId] = version
            fresh.append((index, version))
        }
        if !fresh.isEmpty {
            let rows = try insert(
                fresh.map { (entries[$0.index], $0.version) },
                traceParents: traceParents.isEmpty ? [] : fresh.map { traceParents[$0.index] }, in: session)
            for (message, position) in rows { known[message] = position }
        }
        var outcomes: [AppendOutcome] = []
        outcomes.reserveCapacity(entries.count)
        var freshIterator = fresh.makeIterator()
        var next = freshIterator.next()
        for (index, entry) in entries.enumerated() {
            let position = known[entry.message.id] ?? 0
            if let current = next, current.index == index {
                outcomes.append(.appended(position: position, version: current.version))
                next = freshIterator.next()
            } else {
                outcomes.append(.duplicate(position: position))
            }
        }
        return outcomes
    }

    /// Appends a batch at the stream versions the writer already knows, in one round trip: the
    /// append lock, a check of those versions and the insert go together as one implicit
    /// transaction (``PostgresSession/pipeline(_:)``). Must be called outside a transaction.
    ///
    /// Every entry is appended (none is taken for a duplicate), each at the next version of its
    /// stream after `versions`, in batch order.
    /// - Parameter versions: each game's stream version before the batch (every game of the batch).
    /// - Returns: `nil`, with nothing appended, when a stream is not at its version or an id is
    ///   already stored or twice in the batch: the caller then takes the path that reads the heads.
    ///   (A stored id or a stream ahead is found by the insert itself: the positions it took are a hole.)
    public static func append(
        _ entries: [Entry], atKnown versions: [String: Int], traceParents: [String?] = [],
        in session: PostgresSession
    ) throws -> [AppendOutcome]? {
        guard !entries.isEmpty else { return [] }
        guard let append = KnownAppend(entries, atKnown: versions, traceParents: traceParents) else { return nil }
        let results: [PostgresResult]
        do {
            results = try session.pipeline(append.statements)
        } catch {
            guard KnownAppend.refuses(error) else { throw error }
            return nil
        }
        return try append.outcomes(results)
    }

    /// A batch to append at the stream versions the writer knows, as
    /// ``append(_:atKnown:traceParents:in:)`` appends it: each entry at the next version of its stream,
    /// and the statements (the append lock, the check, the insert) to send as one transaction.
    public struct KnownAppend: Sendable {
        let rows: [(Entry, Int)]
        public let statements: [PipelinedStatement]

        /// `nil` when an id is twice in the batch (the insert would fail after taking positions).
        public init?(_ entries: [Entry], atKnown versions: [String: Int], traceParents: [String?]) {
            guard Set(entries.lazy.map(\.message.id)).count == entries.count else { return nil }
            var next = versions
            rows = entries.map { entry in
                let version = next[entry.message.gameId, default: 0] + 1
                next[entry.message.gameId] = version
                return (entry, version)
            }
            statements = knownStatements(rows, checking: versions, traceParents: traceParents)
        }

        /// The outcomes, from the statements' results.
        public func outcomes(_ results: [PostgresResult]) throws -> [AppendOutcome] {
            let positions = try Dictionary(uniqueKeysWithValues: positions(results[2]))
            return rows.map { .appended(position: positions[$0.0.message.id] ?? 0, version: $0.1) }
        }

        /// Whether `error` is the log refusing the batch (a stream not at its version, an id already
        /// stored), with nothing appended: the writer then takes the path that reads the heads.
        public static func refuses(_ error: PostgresError) -> Bool {
            error.sqlState == headsMoved || error.isUniqueViolation
        }
    }

    /// One append at known versions: the append lock, the check that each game of `heads` is at its
    /// version, and the insert of `rows`. All three prepared once per connection: none has a plan that
    /// depends on the data (the check's own query is planned once per connection, migration 0033).
    static func knownStatements(_ rows: [(Entry, Int)], checking heads: [String: Int], traceParents: [String?])
        -> [PipelinedStatement]
    {
        let games = Array(heads.keys)
        return [
            PipelinedStatement(appendLock, prepared: true),
            PipelinedStatement(
                "SELECT events_expect_heads($1::text[], $2::bigint[])",
                [PostgresBinaryArray.text(games), PostgresBinaryArray.bigint(games.map { heads[$0]! })],
                prepared: true),
            insertStatement(rows, traceParents: traceParents),
        ]
    }

    /// The SQLSTATE of `events_expect_heads` when a stream is behind the version given.
    static let headsMoved = "SF409"

    /// Inserts rows with binary array parameters in one statement, prepared once per connection (its
    /// plan cannot depend on the data: a scan of the arrays into the table); returns message id → position.
    private static func insert(_ rows: [(Entry, Int)], traceParents: [String?], in session: PostgresSession)
        throws -> [(String, Int)]
    {
        let statement = insertStatement(rows, traceParents: traceParents)
        let result: PostgresResult
        do {
            result = try session.queryPrepared(statement.sql, statement.parameters)
        } catch {
            // Only possible without the append lock: another writer got in between check and insert.
            switch error.constraint {
            case "events_stream_version_key":
                throw StoreError.versionConflict(gameId: rows[0].0.message.gameId, expected: rows[0].1 - 1, actual: nil)
            case "events_message_id_key":
                throw StoreError.concurrentDuplicate(messageId: rows[0].0.message.id)
            default:
                throw error
            }
        }
        return try positions(result)
    }

    /// The `INSERT … unnest` of rows (entry, stream version), returning each row's position and id.
    private static func insertStatement(_ rows: [(Entry, Int)], traceParents: [String?]) -> PipelinedStatement {
        // The trace context only when there is one (tracing off, the statement is as before the column).
        let traced = traceParents.contains { $0 != nil }
        let rows = rows.lazy
        var parameters: [any PostgresEncodable] = [
            PostgresBinaryArray.text(rows.map { $0.0.message.gameId }), PostgresBinaryArray.bigint(rows.map { $0.1 }),
            PostgresBinaryArray.text(rows.map { $0.0.message.id }),
            PostgresBinaryArray.text(rows.map { $0.0.message.event.type }),
            PostgresBinaryArray.jsonb(rows.map { $0.0.data }),
            PostgresBinaryArray.timestamptz(rows.map { $0.0.message.at }),
        ]
        if traced { parameters.append(PostgresBinaryArray.text(traceParents)) }
        let (traceColumn, traceArray) = traced ? (", trace_parent", ", $7::text[]") : ("", "")
        return PipelinedStatement(
            """
            INSERT INTO events (stream_id, stream_version, message_id, type, data, occurred_at\(traceColumn))
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::jsonb[], $6::timestamptz[]\(traceArray))
            RETURNING position, message_id
            """, parameters, prepared: true)
    }

    static func positions(_ result: PostgresResult) throws -> [(String, Int)] {
        try result.rows.map { (try $0.string("message_id"), try $0.int("position")) }
    }

    /// The position of the newest event (0 for an empty log).
    public static func head(in session: PostgresSession) throws -> Int {
        try session.query("SELECT coalesce(max(position), 0) AS head FROM events")[0].int("head")
    }

    /// Whether the log holds any event of the game (ScoreFeed has heard of it).
    public static func hasStream(_ gameId: String, in session: PostgresSession) throws -> Bool {
        try session.query("SELECT EXISTS (SELECT 1 FROM events WHERE stream_id = $1) AS e", [gameId])[0].bool("e")
    }

    /// The events of one game, in stream order, after `version`.
    public static func readStream(_ gameId: String, afterVersion version: Int = 0, in session: PostgresSession)
        throws -> [RecordedEvent]
    {
        let result = try session.query(
            """
            SELECT position, stream_version, data::text AS data, recorded_at, trace_parent FROM events
            WHERE stream_id = $1 AND stream_version > $2 ORDER BY stream_version
            """, [gameId, version])
        return try result.rows.map(decode)
    }

    /// Up to `limit` events of one game after global `position`, in order.
    public static func readStream(
        _ gameId: String, afterPosition position: Int, limit: Int, in session: PostgresSession
    ) throws -> [RecordedEvent] {
        let result = try session.query(
            """
            SELECT position, stream_version, data::text AS data, recorded_at, trace_parent FROM events
            WHERE stream_id = $1 AND position > $2 ORDER BY stream_version LIMIT $3
            """, [gameId, position, limit])
        return try result.rows.map(decode)
    }

    /// Up to `limit` events of every game after global `position`, in global order.
    public static func readAll(afterPosition position: Int, limit: Int = 1000, in session: PostgresSession)
        throws -> [RecordedEvent]
    {
        let result = try session.query(
            """
            SELECT position, stream_version, data::text AS data, recorded_at, trace_parent FROM events
            WHERE position > $1 ORDER BY position LIMIT $2
            """, [position, limit])
        return try result.rows.map(decode)
    }

    private static func decode(_ row: PostgresRow) throws -> RecordedEvent {
        let position = try row.int("position")
        return RecordedEvent(
            position: position, version: try row.int("stream_version"),
            message: try message(try row.string("data"), at: position), recordedAt: try row.date("recorded_at"),
            traceParent: try row.text("trace_parent"))
    }

    /// The message of a stored event's `data`.
    private static func message(_ data: String, at position: Int) throws -> FeedMessage {
        do {
            return try FeedParser.parse(stored: data)
        } catch {
            throw StoreError.corruptEvent(position: position, reason: "\(error)")
        }
    }
}
