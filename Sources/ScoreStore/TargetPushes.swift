import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain

/// A message planned for one target (a row of `activities`, or a broadcast channel), with the event that
/// caused it.
public struct PlannedPush: Sendable, Equatable {
    /// The row id of its target: the activity's (a Live Activity token, an FCM-routed activity, an
    /// Android follower), or the channel's for a broadcast (``Broadcasts``).
    public var targetId: Int
    public var gameId: String
    /// Global position of the causing event; `nil` when time alone made it due.
    public var position: Int?
    public var push: PlannedMessage
    /// Planned for a target group (``TargetGroups``): `targetId` is the group's.
    public var isGroup = false

    public init(targetId: Int, gameId: String, position: Int?, push: PlannedMessage, isGroup: Bool = false) {
        (self.targetId, self.gameId, self.position, self.push, self.isGroup) = (
            targetId, gameId, position, push, isGroup
        )
    }

    /// A message planned for a stored target (an activity, a channel or a group).
    public init(_ target: StoredTarget, position: Int?, push: PlannedMessage) {
        self.init(
            targetId: target.id, gameId: target.gameId, position: position, push: push, isGroup: target.isGroup)
    }
}

/// A push to one target (a row of the outbox of kind `push`), as the delivery side and the read API see it.
public struct TargetPush: Sendable, Equatable {
    public var id: Int
    /// The row id of its target (`activities`: a Live Activity, an Android follower, an FCM topic).
    public var targetId: Int
    public var gameId: String
    public var pushToken: String
    /// The target's APNs environment and app bundle id (a Live Activity's); `nil` for an Android
    /// follower and an FCM topic.
    public var environment: PushEnvironment?
    public var bundleId: String?
    public var apnsId: String
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
    /// When the activity (its token) was registered: a 410 deactivates only a token registered before
    /// the time APNs gives.
    public var registeredAt: Date
    /// When the push was planned (written to the outbox).
    public var createdAt: Date
    /// How the push is delivered: to APNs, or through FCM (an iOS activity or an Android follower).
    public var route: PushRoute = .apns
    /// The FCM registration the push goes to (routes `fcm` and `android`).
    public var fcm: FCMAddress?
    /// The W3C `traceparent` of the planning span that wrote it (``TraceParent``); `nil` without tracing.
    public var traceParent: String?
    /// Set when this is one member's send of a group message being walked (``Walks``): `id` is then the
    /// message's, `targetId` the member's.
    public var walk: Walk?

    /// Where a walk's batch stands: the last member of the batch, whether the batch reached the
    /// group's last member, and the group walked.
    public struct Walk: Sendable, Equatable {
        public var through: Int
        public var last: Bool
        public var group: Int
    }

    public init(
        id: Int, targetId: Int, gameId: String, pushToken: String, environment: PushEnvironment?, bundleId: String?,
        apnsId: String, event: LiveActivityEvent, priority: Int, timestamp: Int, expiration: Int, reason: String,
        payload: String, state: String, attempts: Int, lastStatus: Int?, lastReason: String?,
        registeredAt: Date = .distantPast, createdAt: Date = .distantPast
    ) {
        (self.registeredAt, self.createdAt) = (registeredAt, createdAt)
        (self.id, self.targetId, self.gameId, self.pushToken) = (id, targetId, gameId, pushToken)
        (self.environment, self.bundleId, self.apnsId, self.event) = (environment, bundleId, apnsId, event)
        (self.priority, self.timestamp, self.expiration, self.reason) = (priority, timestamp, expiration, reason)
        (self.payload, self.state, self.attempts) = (payload, state, attempts)
        (self.lastStatus, self.lastReason) = (lastStatus, lastReason)
    }
}

/// The outbox's pushes (kind `push`: one message to one target of `activities`), as planned and read.
public enum TargetPushes {
    /// The channel notified when a transaction writes pushes to the outbox.
    public static let channel = "scorefeed_pushes"

    /// Inserts planned pushes; each gets a stable `apns-id` derived from its activity's token and
    /// timestamp, so a repeat of the same push is recognisable. A message planned for a group of at
    /// least ``TargetGroups/walkMinimum`` active members is one row, walked (``Walks``); a smaller
    /// group's is a row per member, as an activity's own push.
    /// - Parameter traceParent: the trace context of the planning, stored with every push.
    static func insert(_ pushes: [PlannedPush], traceParent: String? = nil, in session: PostgresSession) throws {
        guard !pushes.isEmpty else { return }
        // Delivered at commit: wakes the delivery workers of `serve` at once.
        try session.query("SELECT pg_notify('\(channel)', '')")
        let forGroups = pushes.filter(\.isGroup)
        var walked: Set<Int> = []
        if !forGroups.isEmpty {
            let sizes = try session.query(
                """
                SELECT g, (SELECT count(*) FROM (SELECT 1 FROM activities a WHERE a.group_id = g AND a.active
                                                 LIMIT $2) x) AS n
                FROM unnest($1::bigint[]) AS g
                """, [Array(Set(forGroups.map(\.targetId))), TargetGroups.walkMinimum])
            for row in sizes.rows where try row.int("n") >= TargetGroups.walkMinimum { walked.insert(try row.int("g")) }
        }
        try Walks.insert(forGroups.filter { walked.contains($0.targetId) }, traceParent: traceParent, in: session)
        try insert(pushes.filter { !$0.isGroup }, join: "act.id = u.a", traceParent: traceParent, in: session)
        try insert(
            forGroups.filter { !walked.contains($0.targetId) }, join: "act.group_id = u.a AND act.active",
            traceParent: traceParent, in: session)
    }

    /// Inserts pushes, one per row of `activities act` that `join` matches (over `u.a`, the target id).
    private static func insert(
        _ pushes: [PlannedPush], join: String, traceParent: String?, in session: PostgresSession
    ) throws {
        guard !pushes.isEmpty else { return }
        try session.query(
            """
            INSERT INTO outbox (kind, activity_id, game_id, position, apns_id, event, priority, aps_timestamp,
                                         expiration, reason, payload, send_at, next_attempt_at, route,
                                         fcm_token, fcm_kind, trace_parent)
            SELECT 'push', act.id, u.g, u.p, \(Walks.apnsId("act", timestamp: "u.ts")),
                   u.e, u.pr, u.ts, u.x, u.r, u.pl, u.s, u.s, act.route, act.fcm_token, act.fcm_kind, $11::text
            FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::bigint[], $7::bigint[],
                        $8::text[], $9::text[], $10::timestamptz[]) AS u(a, g, p, e, pr, ts, x, r, pl, s)
            JOIN activities act ON \(join)
            ORDER BY u.s, act.id
            """,
            [
                pushes.map(\.targetId), pushes.map(\.gameId), pushes.map(\.position),
                pushes.map(\.push.event.rawValue),
                pushes.map(\.push.priority), pushes.map(\.push.timestamp), pushes.map(\.push.expiration),
                pushes.map(\.push.reason.rawValue), pushes.map(\.push.payload), pushes.map(\.push.sendAt),
                traceParent,
            ])
    }

    /// The pushes of one game (to the targets of `app`; `nil`: of every app), in the order they were
    /// planned (after the push `after`, at most `limit`).
    public static func forGame(
        _ gameId: String, app: String? = nil, after: Int = 0, limit: Int = Int(Int32.max), in session: PostgresSession
    ) throws -> [TargetPush] {
        try decode(
            session.query(
                """
                \(select) WHERE p.game_id = $1 AND p.id > $2 AND ($4::text IS NULL OR a.app = $4)
                ORDER BY p.id LIMIT $3
                """, [gameId, after, limit, app]))
    }

    /// The newest push planned for one game's activities (of `app`; `nil`: of every app), if any.
    public static func latest(_ gameId: String, app: String? = nil, in session: PostgresSession) throws
        -> TargetPush?
    {
        try decode(
            session.query(
                "\(select) WHERE p.game_id = $1 AND ($2::text IS NULL OR a.app = $2) ORDER BY p.id DESC LIMIT 1",
                [gameId, app])
        ).first
    }

    /// How many pushes of one game (to the targets of `app`; `nil`: of every app) are in each state
    /// (`pending`, `sent`, `failed`, `superseded`).
    public static func counts(_ gameId: String, app: String? = nil, in session: PostgresSession) throws
        -> [String: Int]
    {
        let result = try session.query(
            """
            SELECT p.state, count(*) AS n FROM outbox p JOIN activities a ON a.id = p.activity_id
            WHERE p.game_id = $1 AND ($2::text IS NULL OR a.app = $2) GROUP BY p.state
            """, [gameId, app])
        var counts: [String: Int] = [:]
        for row in result.rows { counts[try row.string("state")] = try row.int("n") }
        return counts
    }

    /// The newest push of each of these games' activities, by game.
    public static func latest(games: [String], in session: PostgresSession) throws -> [String: TargetPush] {
        let pushes = try decode(
            session.query(
                """
                SELECT DISTINCT ON (p.game_id) \(columns) FROM outbox p JOIN activities a ON a.id = p.activity_id
                WHERE p.game_id = ANY($1::text[]) ORDER BY p.game_id, p.id DESC
                """, [games]))
        return Dictionary(pushes.map { ($0.gameId, $0) }, uniquingKeysWith: { $1 })
    }

    /// Per activity of the game (of `app`; `nil`: of every app): how many priority-10 pushes it got in
    /// the hour up to its newest push, and whether it has frequent updates (which sets its hourly budget).
    public static func highPriorityLastHour(_ gameId: String, app: String? = nil, in session: PostgresSession) throws
        -> [(activityId: Int, pushToken: String, frequentUpdates: Bool, count: Int)]
    {
        let result = try session.query(
            """
            SELECT a.id, a.push_token, a.frequent_updates,
                   count(*) FILTER (WHERE p.priority = 10 AND p.aps_timestamp > last.ts - 3600) AS n
            FROM activities a
            JOIN outbox p ON p.activity_id = a.id
            JOIN LATERAL (SELECT max(aps_timestamp) AS ts FROM outbox WHERE activity_id = a.id) last ON true
            WHERE a.game_id = $1 AND a.route <> 'android' AND ($2::text IS NULL OR a.app = $2)
            GROUP BY a.id, a.push_token, a.frequent_updates ORDER BY a.id
            """, [gameId, app])
        return try result.rows.map {
            (try $0.int("id"), try $0.string("push_token"), try $0.bool("frequent_updates"), try $0.int("n"))
        }
    }

    /// The columns ``decode(_:)`` reads, of `outbox p` (a push) and `activities a`. The route and the
    /// FCM registration are the push's own (the ones it went by once sent; a re-registration by another
    /// route or FCM token changes only what still waits).
    public static let columns = """
        p.id, p.activity_id, p.game_id, a.push_token, a.environment, a.bundle_id, p.apns_id::text AS apns_id,
        p.event, p.priority, p.aps_timestamp, p.expiration, p.reason, p.payload, p.state, p.attempts,
        p.last_status, p.last_reason, a.registered_at, p.created_at, p.route, p.fcm_token, p.fcm_kind, p.trace_parent
        """

    public static let select = "SELECT \(columns) FROM outbox p JOIN activities a ON a.id = p.activity_id"

    public static func decode(_ result: PostgresResult) throws -> [TargetPush] {
        try result.rows.map { row in
            var push = TargetPush(
                id: try row.int("id"), targetId: try row.int("activity_id"), gameId: try row.string("game_id"),
                pushToken: try row.text("push_token") ?? "",
                environment: try row.optionalValue("environment"),
                bundleId: try row.text("bundle_id"), apnsId: try row.string("apns_id"),
                event: try row.value("event"),
                priority: try row.int("priority"),
                timestamp: try row.int("aps_timestamp"), expiration: try row.int("expiration"),
                reason: try row.string("reason"), payload: try row.string("payload"), state: try row.string("state"),
                attempts: try row.int("attempts"), lastStatus: try row.optionalInt("last_status"),
                lastReason: try row.text("last_reason"), registeredAt: try row.date("registered_at"),
                createdAt: try row.date("created_at"))
            push.route = try row.value("route")
            push.traceParent = try row.text("trace_parent")
            // A push that went straight to APNs had no FCM registration, whatever its activity has now.
            if push.route != .apns {
                push.fcm = FCMAddress(kind: try row.text("fcm_kind"), value: try row.text("fcm_token"))
            }
            return push
        }
    }
}
