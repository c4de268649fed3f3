import Foundation
import LiveActivity
import PostgresClient

/// What became of one activity's pushes: the answer to "APNs says 200 but my activity stopped
/// updating" (`GET /v1/activities/{token}`, `scorefeed activity show`).
public struct ActivityDelivery: Sendable, Equatable {
    /// APNs' (or the network's) last answer to a push of the activity.
    public struct Answer: Sendable, Equatable {
        public var status: Int?
        public var reason: String?
        public var outcome: String
        public var at: Date
    }

    public var activity: Activity
    /// Pushes planned for it, by state: `pending`, `sent`, `superseded`, `failed`.
    public var pushes: [String: Int]
    /// Priority-10 pushes sent in the hour before `now`, against ``hourlyBudget``.
    public var highPriorityLastHour: Int
    /// The hourly budget of priority-10 pushes its throttle works with (frequent updates or not).
    public var hourlyBudget: Int
    public var lastAnswer: Answer?
    /// The broadcast channel it listens to (none: it is reached by its own push token).
    public var channel: String?
    /// When its last push was accepted.
    public var lastSentAt: Date?

    /// Planned in all.
    public var planned: Int { pushes.values.reduce(0, +) }

    /// The last answer to a push of the activity `$1` (`status`, `reason`, `outcome`, `at`): the newer
    /// of its last attempt that did not succeed (`delivery_attempts`) and its last push accepted (a success
    /// is kept on the push: `sent_at`, status 200).
    static let lastAnswer = """
        SELECT status, reason, outcome, at FROM (
            (SELECT a.status, a.reason, a.outcome, a.attempted_at AS at, a.id AS tie FROM delivery_attempts a
             JOIN outbox p ON p.id = a.message_id WHERE p.activity_id = $1 ORDER BY a.id DESC LIMIT 1)
            UNION ALL
            (SELECT p.last_status, NULL, 'sent', p.sent_at, 0 FROM outbox p
             WHERE p.activity_id = $1 AND p.state = 'sent' ORDER BY p.sent_at DESC LIMIT 1)
            UNION ALL
            (\(lastWalkedPast("$1")))
        ) answers ORDER BY at DESC, tie DESC LIMIT 1
        """

    /// The messages `m` of the group of the activity `$1` (`me`, ``TargetGroups``) planned while it was
    /// a member (since it joined, before it was removed), but for those it has a row of its own for (a
    /// retry, a failure): a message whose walk passed it was a success.
    static func groupMessages(of member: String) -> String {
        """
        FROM outbox m JOIN activities me ON me.id = \(member) AND m.group_id = me.group_id
        WHERE m.kind = 'group' AND m.created_at >= me.grouped_at AND (me.active OR m.created_at <= me.ended_at)
          AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.activity_id = me.id AND o.aps_timestamp = m.aps_timestamp)
        """
    }

    /// The state, priority and time sent of every message of the activity `member` (an SQL expression
    /// of its id): its own rows, and its group's messages (``groupMessages(of:)``), sent once the walk
    /// passed it and otherwise as the message stands.
    static func messages(of member: String) -> String {
        """
        SELECT state, priority, sent_at FROM outbox WHERE activity_id = \(member)
        UNION ALL
        SELECT CASE WHEN m.walked_through >= me.id THEN 'sent' ELSE m.state END, m.priority,
               CASE WHEN m.walked_through >= me.id THEN m.walked_at END
        \(groupMessages(of: member))
        """
    }

    /// Its last success as a member of a group: the newest of its group's messages whose walk passed it.
    static func lastWalkedPast(_ member: String) -> String {
        """
        SELECT 200 AS status, NULL AS reason, 'sent' AS outcome, m.walked_at AS at, 0 AS tie
        \(groupMessages(of: member)) AND m.walked_through >= me.id ORDER BY m.walked_at DESC LIMIT 1
        """
    }
}

extension Activities {
    /// The delivery picture of the activity with this token (active or not), of `app` (`nil`: of any
    /// app); `nil` when unknown (or another app's).
    public static func delivery(
        token: String, app: String? = nil, now: Date, policy: ThrottlePolicy, in session: PostgresSession
    ) throws -> ActivityDelivery? {
        let found = try session.query(
            "SELECT \(columns) FROM activities WHERE push_token = $1 AND ($2::text IS NULL OR app = $2)",
            [token.lowercased(), app])
        guard found.count == 1 else { return nil }
        let activity = try decode(found[0])
        // Its own rows, and its group's messages since it joined (derived: sent once the walk passed it,
        // else as the message stands), but for those it has a row of its own for.
        let counts = try session.query(
            """
            WITH every AS (\(ActivityDelivery.messages(of: "$1")))
            SELECT state, count(*) AS n,
                   count(*) FILTER (WHERE state = 'sent' AND priority = 10 AND sent_at > $2) AS high,
                   max(sent_at) AS last_sent
            FROM every GROUP BY state
            """, [activity.id, now.addingTimeInterval(-3600)])
        var pushes: [String: Int] = [:]
        var high = 0
        var lastSent: Date?
        for row in counts.rows {
            pushes[try row.string("state")] = try row.int("n")
            high += try row.int("high")
            if let sent = try row.text("last_sent").flatMap(PostgresTimestamp.parse) { lastSent = sent }
        }
        let answer = try session.query(
            """
            \(ActivityDelivery.lastAnswer)
            """, [activity.id])
        let last = try answer.rows.first.map { row in
            ActivityDelivery.Answer(
                status: try row.optionalInt("status"), reason: try row.text("reason"),
                outcome: try row.string("outcome"), at: try row.date("at"))
        }
        // An activity a push-to-start made with `input-push-channel` listens to that channel.
        let channel = try session.query(
            """
            SELECT substring(payload from '"input-push-channel":"([^"]+)"') AS channel FROM outbox
            WHERE started_activity_id = $1 ORDER BY id DESC LIMIT 1
            """, [activity.id]
        ).rows.first.flatMap { try? $0.text("channel") }
        return ActivityDelivery(
            activity: activity, pushes: pushes, highPriorityLastHour: high,
            hourlyBudget: activity.frequentUpdates ? policy.frequentHourlyBudget : policy.hourlyBudget,
            lastAnswer: last, channel: channel, lastSentAt: lastSent)
    }

    /// Records that the app's activity now has (or no longer has) frequent updates, in its row and in
    /// its throttle, so the next decision uses the new hourly budget. Returns the activity, `nil` when
    /// no active activity (of `app`; `nil`: of any app) has this token.
    public static func setFrequentUpdates(
        token: String, app: String? = nil, _ frequent: Bool, planner: PushPlanner, in session: PostgresSession
    ) throws -> Activity? {
        let locked = try session.query(
            """
            SELECT id, game_id, group_id, frequent_updates, \(throttleColumns) FROM activities
            WHERE push_token = $1 AND ($2::text IS NULL OR app = $2) AND active FOR UPDATE
            """, [token.lowercased(), app])
        guard let row = locked.rows.first else { return nil }
        if try row.optionalInt("group_id") != nil {
            // Its group's state no longer decides for it: it leaves for a group of its own.
            if try row.bool("frequent_updates") != frequent {
                try TargetGroups.leave(
                    activityId: try row.int("id"), route: try row.value("route"), frequentUpdates: frequent,
                    in: session)
            }
        } else {
            var states = StateCache()
            var stored = try decodeTarget(row, states: &states)
            switch stored.target {
            case .liveActivity(var throttle):
                throttle.frequentUpdates = frequent
                stored.target = .liveActivity(throttle)
            case .liveUpdate:
                return nil
            }
            try save([stored], planner: planner, in: session)
        }
        let updated = try session.query(
            "UPDATE activities SET frequent_updates = $2 WHERE id = $1 RETURNING \(columns)",
            [try row.int("id"), frequent])
        return try decode(updated[0])
    }
}
