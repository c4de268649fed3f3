import Foundation
import PostgresClient

/// One push target of a game as an operator sees it: a Live Activity (straight to APNs or through
/// FCM), an Android follower, a broadcast channel, or a push-to-start device that follows the game
/// (its id, a team of it) or was started for it; with what was sent to it and its last answer.
public struct GameTarget: Sendable, Equatable {
    /// How a target is reached.
    public enum Route: String, Sendable, CaseIterable {
        case apns
        case channel
        case pushToStart = "push-to-start"
        case fcm
        case android
        /// The FCM topic an app's Android followers of the game are reached through
        /// (``Followers/topic(gameId:app:)``).
        case topic
    }

    /// The last answer to a push (or broadcast, or start) of the target.
    public struct Answer: Sendable, Equatable {
        /// APNs' or FCM's HTTP status; `nil` when the network failed.
        public var status: Int?
        public var reason: String?
        /// `sent`, `failed`, `retry`… (`delivery_attempts.outcome`), or the push's state when no attempt
        /// is recorded apart (broadcasts, starts).
        public var outcome: String
        /// When; `nil` when not recorded (a broadcast or start that was not accepted).
        public var at: Date?

        public init(status: Int?, reason: String?, outcome: String, at: Date?) {
            (self.status, self.reason, self.outcome, self.at) = (status, reason, outcome, at)
        }
    }

    public var route: Route
    /// The row id (of `activities`, `channels` or `devices`).
    public var id: Int
    /// The push token, the channel id or the start token, in full (empty for an Android follower).
    public var token: String
    /// The FCM registration token or installation id it goes through, if any.
    public var fcmTarget: String?
    /// The APNs environment; `nil` for an Android follower and a topic (no APNs).
    public var environment: PushEnvironment?
    public var frequentUpdates: Bool
    public var registeredAt: Date
    /// Removed: by the app, by an answer (410, `UNREGISTERED`), unfollowed, a channel deleted.
    public var active: Bool
    /// When its end was planned (Live Activities and followers); when it was removed otherwise.
    public var endedAt: Date?
    /// Why it was removed (`nil` when the store does not record it: a retired push-to-start token).
    public var removedReason: String?
    /// Counted in the hour before `now`: priority-10 pushes or broadcasts sent, data messages sent to
    /// a follower, starts planned for a device (of any game).
    public var budgetUsed: Int
    /// Its pushes (broadcasts, starts of this game) by state: `pending`, `sent`, `failed`, `superseded`.
    public var pushes: [String: Int]
    public var lastAnswer: Answer?

    public init(
        route: Route, id: Int, token: String, fcmTarget: String? = nil, environment: PushEnvironment? = .production,
        frequentUpdates: Bool = false, registeredAt: Date, active: Bool = true, endedAt: Date? = nil,
        removedReason: String? = nil, budgetUsed: Int = 0, pushes: [String: Int] = [:], lastAnswer: Answer? = nil
    ) {
        (self.route, self.id, self.token, self.fcmTarget, self.environment) = (
            route, id, token, fcmTarget, environment
        )
        (self.frequentUpdates, self.registeredAt, self.active, self.endedAt) = (
            frequentUpdates, registeredAt, active, endedAt
        )
        (self.removedReason, self.budgetUsed, self.pushes, self.lastAnswer) = (
            removedReason, budgetUsed, pushes, lastAnswer
        )
    }
}

/// Every push target of one game of one app, in one query.
public enum GameTargets {
    /// The targets of `gameId` registered by `app`, active or not, by route then id; budgets counted
    /// in the hour before `now`.
    public static func list(gameId: String, app: String, now: Date, in session: PostgresSession) throws
        -> [GameTarget]
    {
        let result = try session.query(query, [gameId, app, now.addingTimeInterval(-3600)])
        return try result.rows.map { row in
            let answer = try row.text("last_outcome").map { outcome in
                GameTarget.Answer(
                    status: try row.optionalInt("last_status"), reason: try row.text("last_reason"),
                    outcome: outcome, at: try row.text("last_at").flatMap(PostgresTimestamp.parse))
            }
            let states = ["pending", "sent", "failed", "superseded"]
            var pushes: [String: Int] = [:]
            for state in states { pushes[state] = try row.int(state) }
            return GameTarget(
                route: try row.value("route"), id: try row.int("id"), token: try row.string("token"),
                fcmTarget: try row.text("fcm_token"), environment: try row.optionalValue("environment"),
                frequentUpdates: try row.bool("frequent_updates"), registeredAt: try row.date("registered_at"),
                active: try row.bool("active"), endedAt: try row.text("ended_at").flatMap(PostgresTimestamp.parse),
                removedReason: try row.text("removed_reason"), budgetUsed: try row.int("budget_used"),
                pushes: pushes, lastAnswer: answer)
        }
    }

    /// `$1` the game, `$2` the app, `$3` an hour before now. A device is the game's target when it
    /// follows the game's id or one of its teams' codes, or was started for it.
    private static var query: String {
        """
        WITH game AS (
            SELECT ARRAY[$1::text, s.state->'home'->>'code', s.state->'away'->>'code'] AS names
            FROM (SELECT 1) one LEFT JOIN score_states s ON s.game_id = $1
        )
        SELECT CASE WHEN a.fcm_kind = 'topic' THEN 'topic' ELSE a.route END AS route, a.id,
               coalesce(a.push_token, '') AS token, a.fcm_token, a.environment, a.frequent_updates,
               a.registered_at, a.active, a.ended_at, a.deactivated_reason AS removed_reason,
               p.pending, p.sent, p.failed, p.superseded, p.budget_used,
               t.status AS last_status, t.reason AS last_reason, t.outcome AS last_outcome, t.attempted_at AS last_at
        FROM activities a
        LEFT JOIN LATERAL (
            SELECT count(*) FILTER (WHERE state = 'pending') AS pending, count(*) FILTER (WHERE state = 'sent') AS sent,
                   count(*) FILTER (WHERE state = 'failed') AS failed,
                   count(*) FILTER (WHERE state = 'superseded') AS superseded,
                   count(*) FILTER (WHERE state = 'sent' AND sent_at > $3 AND (priority = 10 OR a.route = 'android'))
                       AS budget_used
            FROM (\(ActivityDelivery.messages(of: "a.id"))) x) p ON true
        LEFT JOIN LATERAL (
            SELECT status, reason, outcome, at AS attempted_at FROM (
                (SELECT x.status, x.reason, x.outcome, x.attempted_at AS at, x.id AS tie FROM delivery_attempts x
                 JOIN outbox q ON q.id = x.message_id WHERE q.activity_id = a.id ORDER BY x.id DESC LIMIT 1)
                UNION ALL
                (SELECT q.last_status, NULL, 'sent', q.sent_at, 0 FROM outbox q
                 WHERE q.activity_id = a.id AND q.state = 'sent' ORDER BY q.sent_at DESC LIMIT 1)
                UNION ALL
                (\(ActivityDelivery.lastWalkedPast("a.id")))
            ) answers ORDER BY at DESC, tie DESC LIMIT 1
        ) t ON true
        WHERE a.game_id = $1 AND a.app = $2
        UNION ALL
        SELECT 'channel', c.id, c.channel_id, NULL, c.environment, false, c.registered_at, c.deleted_at IS NULL,
               c.deleted_at, c.deleted_reason, b.pending, b.sent, b.failed, b.superseded, b.budget_used,
               l.last_status, l.last_reason, l.state, l.sent_at
        FROM channels c
        LEFT JOIN LATERAL (
            SELECT count(*) FILTER (WHERE state = 'pending') AS pending, count(*) FILTER (WHERE state = 'sent') AS sent,
                   count(*) FILTER (WHERE state = 'failed') AS failed,
                   count(*) FILTER (WHERE state = 'superseded') AS superseded,
                   count(*) FILTER (WHERE state = 'sent' AND sent_at > $3 AND priority = 10) AS budget_used
            FROM outbox WHERE channel_row = c.id) b ON true
        LEFT JOIN LATERAL (
            SELECT last_status, last_reason, state, sent_at FROM outbox
            WHERE channel_row = c.id AND (attempts > 0 OR state = 'sent') ORDER BY id DESC LIMIT 1
        ) l ON true
        WHERE c.game_id = $1 AND c.app = $2
        UNION ALL
        SELECT 'push-to-start', d.id, d.start_token, d.fcm_token, d.environment, false, d.registered_at, d.active,
               NULL, NULL, s.pending, s.sent, s.failed, 0, r.budget_used,
               s.last_status, s.last_reason, s.last_outcome, s.sent_at
        FROM devices d CROSS JOIN game
        LEFT JOIN LATERAL (
            SELECT count(*) FILTER (WHERE state = 'pending') AS pending, count(*) FILTER (WHERE state = 'sent') AS sent,
                   count(*) FILTER (WHERE state = 'failed') AS failed, max(last_status) AS last_status,
                   max(last_reason) AS last_reason, max(sent_at) AS sent_at,
                   max(CASE WHEN attempts > 0 OR state = 'sent' THEN state END) AS last_outcome
            FROM outbox WHERE device_id = d.id AND game_id = $1) s ON true
        LEFT JOIN LATERAL (
            SELECT count(*) AS budget_used FROM outbox WHERE device_id = d.id AND send_at > $3
        ) r ON true
        WHERE d.app = $2
          AND (d.follows && game.names OR EXISTS (SELECT 1 FROM outbox WHERE device_id = d.id AND game_id = $1))
        ORDER BY 1, 2
        """
    }
}
