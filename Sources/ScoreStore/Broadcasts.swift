import Foundation
import LiveActivity
import PostgresClient

/// A broadcast waiting in (or gone through) the outbox (kind `broadcast`).
public struct BroadcastPush: Sendable, Equatable {
    public var id: Int
    public var gameId: String
    /// The channel (its APNs id) and its environment.
    public var channelId: String
    public var environment: PushEnvironment
    /// Stable across retries: sent as `apns-request-id`.
    public var requestId: String
    public var event: LiveActivityEvent
    public var priority: Int
    public var timestamp: Int
    public var expiration: Int
    public var reason: String
    public var payload: String
    public var state: String
    public var attempts: Int
    public var lastStatus: Int?
    public var lastReason: String?
    public var createdAt: Date
    /// The W3C `traceparent` of the planning span that wrote it (``TraceParent``); `nil` without tracing.
    public var traceParent: String? = nil

    public init(
        id: Int, gameId: String, channelId: String, environment: PushEnvironment, requestId: String,
        event: LiveActivityEvent, priority: Int, timestamp: Int, expiration: Int, reason: String, payload: String,
        state: String, attempts: Int, lastStatus: Int?, lastReason: String?, createdAt: Date, traceParent: String? = nil
    ) {
        (self.id, self.gameId, self.channelId, self.environment) = (id, gameId, channelId, environment)
        (self.requestId, self.event, self.priority, self.timestamp) = (requestId, event, priority, timestamp)
        (self.expiration, self.reason, self.payload, self.state) = (expiration, reason, payload, state)
        (self.attempts, self.lastStatus, self.lastReason) = (attempts, lastStatus, lastReason)
        (self.createdAt, self.traceParent) = (createdAt, traceParent)
    }
}

/// The outbox's broadcasts: one channel's broadcasts in order, at least once.
public enum Broadcasts {
    /// Inserts planned broadcasts (``PlannedPush/targetId`` is the channel's row id) and wakes delivery.
    /// - Parameter traceParent: the trace context of the planning, stored with every broadcast.
    static func insert(_ pushes: [PlannedPush], traceParent: String? = nil, in session: PostgresSession) throws {
        guard !pushes.isEmpty else { return }
        try session.query("SELECT pg_notify('\(TargetPushes.channel)', '')")
        try session.query(
            """
            INSERT INTO outbox (kind, channel_row, game_id, position, apns_id, event, priority, aps_timestamp,
                                          expiration, reason, payload, send_at, next_attempt_at, trace_parent)
            SELECT 'broadcast', u.c, u.g, u.p, md5(ch.channel_id || ':' || u.ts)::uuid, u.e, u.pr, u.ts, u.x, u.r, u.pl, u.s, u.s,
                   $11::text
            FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::bigint[], $7::bigint[],
                        $8::text[], $9::text[], $10::timestamptz[]) AS u(c, g, p, e, pr, ts, x, r, pl, s)
            JOIN channels ch ON ch.id = u.c
            ORDER BY u.s, u.c
            """,
            [
                pushes.map(\.targetId), pushes.map(\.gameId), pushes.map(\.position),
                pushes.map(\.push.event.rawValue), pushes.map(\.push.priority), pushes.map(\.push.timestamp),
                pushes.map(\.push.expiration), pushes.map(\.push.reason.rawValue), pushes.map(\.push.payload),
                pushes.map(\.push.sendAt), traceParent,
            ])
    }

    /// Claims up to `limit` due broadcasts, at most one per channel and none of a channel with one on the wire.
    public static func claim(limit: Int, lease: Int, in tx: PostgresSession) throws -> [BroadcastPush] {
        try decode(
            tx.query(
                """
                WITH due AS (
                    SELECT DISTINCT ON (d.channel_row) d.id FROM outbox d
                    WHERE d.kind = 'broadcast' AND d.state = 'pending' AND d.next_attempt_at <= now()
                      AND (d.claimed_until IS NULL OR d.claimed_until < now())
                      AND d.channel_row NOT IN (
                          SELECT q.channel_row FROM outbox q
                          WHERE q.kind = 'broadcast' AND q.state = 'pending' AND q.claimed_until >= now())
                    ORDER BY d.channel_row, d.aps_timestamp
                    LIMIT $1
                ), locked AS (
                    SELECT b.id FROM outbox b JOIN due ON due.id = b.id FOR UPDATE OF b SKIP LOCKED
                )
                UPDATE outbox p SET claimed_until = now() + make_interval(secs => $2), attempts = p.attempts + 1
                FROM locked, channels c WHERE p.id = locked.id AND c.id = p.channel_row
                RETURNING \(columns)
                """, [limit, lease])
        ).sorted { $0.id < $1.id }
    }

    /// Records outcomes (``Outbox/store(_:target:newer:in:)``): a sent broadcast supersedes the older
    /// ones of its channel still waiting, and a sent end every other one left; each attempt that did not
    /// succeed joins `delivery_attempts`.
    public static func record(
        _ results: [(push: BroadcastPush, status: Int?, reason: String?, outcome: Outbox.Outcome)],
        in tx: PostgresSession
    ) throws {
        try Outbox.store(
            results.map { Outbox.Answer(id: $0.push.id, status: $0.status, reason: $0.reason, outcome: $0.outcome) },
            target: "channel_row", newer: "broadcast", in: tx)
    }

    /// Every broadcast of a game, in planning order.
    public static func forGame(_ gameId: String, in session: PostgresSession) throws -> [BroadcastPush] {
        try decode(
            session.query(
                """
                SELECT \(columns) FROM outbox p JOIN channels c ON c.id = p.channel_row
                WHERE p.game_id = $1 ORDER BY p.id
                """, [gameId]))
    }

    /// Whether any broadcast waits (pending, due or not).
    public static func pending(in session: PostgresSession) throws -> Int {
        try session.query("SELECT count(*) AS n FROM outbox WHERE kind = 'broadcast' AND state = 'pending'")[0].int("n")
    }

    static let columns = """
        p.id, p.game_id, c.channel_id, c.environment, p.apns_id::text AS request_id, p.event, p.priority,
        p.aps_timestamp, p.expiration, p.reason, p.payload, p.state, p.attempts, p.last_status, p.last_reason,
        p.created_at, p.trace_parent
        """

    static func decode(_ result: PostgresResult) throws -> [BroadcastPush] {
        try result.rows.map { row in
            BroadcastPush(
                id: try row.int("id"), gameId: try row.string("game_id"), channelId: try row.string("channel_id"),
                environment: try row.value("environment"), requestId: try row.string("request_id"),
                event: try row.value("event"), priority: try row.int("priority"),
                timestamp: try row.int("aps_timestamp"), expiration: try row.int("expiration"),
                reason: try row.string("reason"), payload: try row.string("payload"), state: try row.string("state"),
                attempts: try row.int("attempts"), lastStatus: try row.optionalInt("last_status"),
                lastReason: try row.text("last_reason"), createdAt: try row.date("created_at"),
                traceParent: try row.text("trace_parent"))
        }
    }
}
