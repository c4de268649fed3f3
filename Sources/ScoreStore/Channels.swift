import Foundation
import LiveActivity
import PostgresClient

/// A game's broadcast channel as stored.
public struct StoredChannel: Sendable, Equatable {
    public var gameId: String
    public var environment: PushEnvironment
    /// The id Apple gave it (base64), as the app passes it to ActivityKit.
    public var channelId: String
    public var storagePolicy: Int
    public var createdAt: Date
    public var deletedAt: Date?
    public var deletedReason: String?
    /// The app whose key asked for it (``AppName``): Apple keeps channels per bundle id, so each app
    /// has its own channel of a game.
    public var app: String = AppName.default
}

/// The `channels` table: at most one open channel per game, environment and app.
public enum Channels {
    /// Apple's limit of channels per environment.
    public static let maximumOpen = 10_000

    /// Serializes channel creation for one game (two requests never create two channels).
    public static func lock(gameId: String, in tx: PostgresSession) throws {
        try tx.query("SELECT pg_advisory_xact_lock(hashtext('scorefeed-channel:' || $1))", [gameId])
    }

    /// The game's open channel of `app` in this environment, if any.
    public static func open(
        gameId: String, environment: PushEnvironment, app: String = AppName.default, in session: PostgresSession
    ) throws -> StoredChannel? {
        try decode(
            session.query(
                "\(select) WHERE game_id = $1 AND environment = $2 AND app = $3 AND deleted_at IS NULL",
                [gameId, environment.rawValue, app])
        ).first
    }

    /// How many channels are open in the environment.
    public static func openCount(environment: PushEnvironment, in session: PostgresSession) throws -> Int {
        try session.query(
            "SELECT count(*) AS n FROM channels WHERE environment = $1 AND deleted_at IS NULL",
            [environment.rawValue])[0].int("n")
    }

    /// Records a channel Apple created. Its broadcasts carry the changes after `registeredAt` (on the
    /// planner's clock: the wall clock live, the game's own clock in a replay).
    public static func insert(
        gameId: String, environment: PushEnvironment, channelId: String, storagePolicy: Int,
        app: String = AppName.default, registeredAt: Date = Date(), in session: PostgresSession
    ) throws -> StoredChannel {
        let throttle = ActivityThrottle(registeredAt: registeredAt, frequentUpdates: false)
        return try decode(
            session.query(
                """
                INSERT INTO channels (game_id, environment, channel_id, storage_policy, registered_at, throttle_state,
                                      app)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                RETURNING \(columns)
                """,
                [gameId, environment.rawValue, channelId, storagePolicy, registeredAt, throttle.storageText, app]))[0]
    }

    /// The open channels of these games as push targets, locked for the transaction.
    static func targets(_ gameIds: [String], in session: PostgresSession) throws -> [String: [StoredTarget]] {
        try decodeTargets(
            session.query(
                """
                SELECT id, game_id, throttle_state FROM channels
                WHERE game_id = ANY($1::text[]) AND deleted_at IS NULL AND throttle_state IS NOT NULL
                ORDER BY id FOR UPDATE
                """, [gameIds])
        ).reduce(into: [:]) { $0[$1.gameId, default: []].append($1) }
    }

    /// Open channels whose throttle must be ticked by `now`, locked (others skip them).
    static func due(at now: Date, limit: Int, in session: PostgresSession) throws -> [StoredTarget] {
        try decodeTargets(
            session.query(
                """
                SELECT id, game_id, throttle_state FROM channels
                WHERE deleted_at IS NULL AND next_deadline <= $1 ORDER BY next_deadline LIMIT $2
                FOR UPDATE SKIP LOCKED
                """, [now, limit]))
    }

    /// Stores channels' planner state, with when each must be ticked next.
    static func save(_ targets: [StoredTarget], planner: PushPlanner, in session: PostgresSession) throws {
        guard !targets.isEmpty else { return }
        let texts = targets.map { target -> String in
            switch target.target {
            case .liveActivity(let throttle): throttle.storageText
            case .liveUpdate(let throttle): throttle.storageText
            }
        }
        try session.query(
            """
            UPDATE channels c SET throttle_state = u.t, next_deadline = u.d
            FROM unnest($1::bigint[], $2::text[], $3::timestamptz[]) AS u(id, t, d) WHERE c.id = u.id
            """, [targets.map(\.id), texts, targets.map { planner.nextDeadline($0.target) }])
    }

    private static func decodeTargets(_ result: PostgresResult) throws -> [StoredTarget] {
        try result.rows.map { row in
            StoredTarget(
                id: try row.int("id"), gameId: try row.string("game_id"),
                target: .liveActivity(try ActivityThrottle(storageText: try row.string("throttle_state"))))
        }
    }

    /// Marks a channel deleted (or no longer known to APNs), with why.
    @discardableResult
    public static func markDeleted(channelId: String, reason: String, in session: PostgresSession) throws -> Bool {
        try session.query(
            "UPDATE channels SET deleted_at = now(), deleted_reason = $2 WHERE channel_id = $1 AND deleted_at IS NULL",
            [channelId, reason]
        ).affectedRows == 1
    }

    /// Open channels whose end was broadcast before `before`, and, should the end never go out,
    /// those whose game has been over (closed, cancelled, postponed) for a day longer.
    public static func finished(before: Date, in session: PostgresSession) throws -> [StoredChannel] {
        try decode(
            session.query(
                """
                SELECT c.game_id, c.environment, c.channel_id, c.storage_policy, c.created_at, c.deleted_at,
                       c.deleted_reason, c.app
                FROM channels c JOIN score_states s ON s.game_id = c.game_id
                WHERE c.deleted_at IS NULL AND s.status IN ('closed', 'cancelled', 'postponed')
                  AND (EXISTS (SELECT 1 FROM outbox b
                               WHERE b.channel_row = c.id AND b.event = 'end' AND b.state = 'sent' AND b.sent_at < $1)
                       OR (s.state->>'updatedAt')::timestamptz < $1 - interval '1 day')
                ORDER BY c.id
                """, [before]))
    }

    /// Every channel (of `app`; `nil`: of every app), open first, newest first.
    public static func list(app: String? = nil, in session: PostgresSession) throws -> [StoredChannel] {
        try decode(
            session.query(
                "\(select) WHERE $1::text IS NULL OR app = $1 ORDER BY deleted_at IS NOT NULL, created_at DESC, id DESC",
                [app]))
    }

    private static let columns =
        "game_id, environment, channel_id, storage_policy, created_at, deleted_at, deleted_reason, app"
    private static let select = "SELECT \(columns) FROM channels"

    private static func decode(_ result: PostgresResult) throws -> [StoredChannel] {
        try result.rows.map { row in
            StoredChannel(
                gameId: try row.string("game_id"), environment: try row.value("environment"),
                channelId: try row.string("channel_id"), storagePolicy: try row.int("storage_policy"),
                createdAt: try row.date("created_at"),
                deletedAt: try row.text("deleted_at").flatMap(PostgresTimestamp.parse),
                deletedReason: try row.text("deleted_reason"), app: try row.string("app"))
        }
    }
}
