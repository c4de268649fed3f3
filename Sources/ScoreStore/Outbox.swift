import Foundation
import PostgresClient

/// The delivery side of the outbox's pushes (kind `push`: a message to one target of `activities`):
/// claim, record, release (the planning side, `TargetPushes`, is beside it; broadcasts and starts,
/// the outbox's other kinds, are ``Broadcasts`` and ``Devices``: all of the outbox's SQL lives in this
/// module). Every function is one short transaction; nothing is held while a push is on the wire.
public enum Outbox {
    /// Claims up to `limit` due pushes for `lease` seconds, counting the attempt. (Pushes of a
    /// deactivated activity are not pending: ``Activities/deactivate(token:reason:in:)`` fails them.)
    /// Claims expire: a worker that dies holding them loses nothing, another one takes them when
    /// the lease ends.
    /// Only pushes of the given routes are claimed (the APNs worker claims `apns`, the FCM worker `fcm`
    /// and `android`).
    public static func claim(
        limit: Int, lease: Int, routes: [PushRoute] = [.apns], in tx: PostgresSession
    ) throws -> [TargetPush] {
        if routes.contains(.android) { try supersedeLiveUpdateBacklog(in: tx) }
        // Not a push whose activity has another one on the wire (another round or worker holds it; a
        // hashed subplan, read once per claim, whatever the planner's statistics):
        // per-activity order, and an older push waiting for its retry is not sent beside a newer one
        // (once that one is accepted, the older is superseded).
        let claimed = try tx.query(
            """
            WITH due AS (
                SELECT id FROM outbox d
                WHERE d.kind = 'push' AND state = 'pending' AND next_attempt_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
                  AND d.route = ANY($3::text[])
                  AND d.activity_id NOT IN (
                      SELECT q.activity_id FROM outbox q
                      WHERE q.kind = 'push' AND q.state = 'pending' AND q.claimed_until >= now())
                  AND NOT EXISTS (
                      SELECT 1 FROM activities m JOIN outbox w ON w.group_id = m.group_id
                      WHERE m.id = d.activity_id AND w.kind = 'group' AND w.state = 'pending'
                        AND w.claimed_until >= now())
                ORDER BY next_attempt_at, id
                LIMIT $1
                FOR UPDATE SKIP LOCKED
            )
            UPDATE outbox p SET claimed_until = now() + make_interval(secs => $2), attempts = p.attempts + 1
            FROM due, activities a WHERE p.id = due.id AND a.id = p.activity_id
            RETURNING \(TargetPushes.columns)
            """, [limit, lease, routes.map(\.rawValue)])
        return try TargetPushes.decode(claimed).sorted { $0.id < $1.id }
    }

    /// How much later a newer message of the same Android follow must have been written to the
    /// outbox for an older one still waiting to be a backlog (seconds, on the database's clock).
    public static let liveUpdateBacklogAge = 30

    /// Supersedes the Android messages due and still waiting while a newer one of the same follow, written to
    /// the outbox ``liveUpdateBacklogAge`` or more after it, waits too (after an outage, a pause, or a
    /// time without FCM settings): each carries the whole state, so the newest is enough, and sending
    /// the backlog would burst over FCM's 240 messages a minute per device. A replay plans a whole
    /// game in moments (`created_at`, not the planner's `send_at`), so its messages are not a backlog
    /// however late they are delivered. Rows another session holds are skipped, so a claim never waits.
    static func supersedeLiveUpdateBacklog(in tx: PostgresSession) throws {
        try tx.query(
            """
            WITH stale AS (
                SELECT o.id FROM outbox o
                WHERE o.state = 'pending' AND o.next_attempt_at <= now() AND o.route = 'android' AND o.event <> 'end'
                  AND (o.claimed_until IS NULL OR o.claimed_until < now())
                  AND EXISTS (SELECT 1 FROM outbox n
                              WHERE n.activity_id = o.activity_id AND n.state = 'pending' AND n.id > o.id
                                AND n.created_at >= o.created_at + make_interval(secs => $1))
                FOR UPDATE OF o SKIP LOCKED
            )
            UPDATE outbox p
            SET state = 'superseded', claimed_until = NULL, last_reason = 'a newer live update was waiting'
            FROM stale WHERE p.id = stale.id
            """, [liveUpdateBacklogAge])
    }

    /// Hands claimed messages of any kind that were never sent back at once, for another round now
    /// (the claim's attempt not counted).
    public static func release(_ ids: [Int], in tx: PostgresSession) throws {
        guard !ids.isEmpty else { return }
        try tx.query(
            """
            UPDATE outbox SET claimed_until = NULL, attempts = greatest(attempts - 1, 0)
            WHERE id = ANY($1::bigint[]) AND state = 'pending'
            """, [ids])
    }

    /// What became of one attempt of a message of any kind (a push, a broadcast, a start), as stored.
    public enum Outcome: Sendable, Equatable {
        case sent
        case retry(after: Double)
        /// Failed for good because its target is gone: a push's token (or FCM registration) is
        /// deactivated, a start's device retires its start token.
        case deactivate(reason: String)
        case failed(reason: String)
        /// The message goes back untouched, as `label` says why: delivery is `paused` (bad provider
        /// credentials) or the worker is shutting down with it still in flight (`released`).
        case release(label: String)
    }

    /// One attempt to record: the push, APNs' status and reason, the outcome.
    public struct Attempt: Sendable, Equatable {
        public var push: TargetPush
        public var status: Int?
        public var reason: String?
        public var outcome: Outcome

        public init(_ push: TargetPush, status: Int?, reason: String?, outcome: Outcome) {
            self.push = push
            self.status = status
            self.reason = reason
            self.outcome = outcome
        }
    }

    /// Records attempts and their outcomes in one transaction (the common outcome, sent, in one
    /// statement for the whole round); `delivery_attempts` gets a row for each attempt that did not succeed.
    public static func record(_ results: [Attempt], in tx: PostgresSession) throws {
        try store(
            results.map { Answer(id: $0.push.id, status: $0.status, reason: $0.reason, outcome: $0.outcome) },
            target: "activity_id", newer: "push", in: tx)
        for attempt in results {
            // Fails the activity's other pending pushes too; through FCM, the registration is gone:
            // every target reached by it.
            guard case .deactivate(let why) = attempt.outcome else { continue }
            try Activities.deactivate(reachedBy: attempt.push, reason: why, in: tx)
        }
        // A push done (sent or failed) keeps the route and FCM registration it went by, also when its
        // token was registered again by another route or FCM token while it was on the wire (which
        // re-addresses what still waits).
        let done = results.filter {
            switch $0.outcome {
            case .sent, .failed, .deactivate: true
            case .retry, .release: false
            }
        }
        if !done.isEmpty {
            try tx.query(
                """
                UPDATE outbox p SET route = u.r, fcm_token = u.t, fcm_kind = u.k
                FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(id, r, t, k)
                WHERE p.id = u.id AND (p.route, p.fcm_token, p.fcm_kind) IS DISTINCT FROM (u.r, u.t, u.k)
                """,
                [
                    done.map(\.push.id), done.map(\.push.route.rawValue), done.map(\.push.fcm?.value),
                    done.map(\.push.fcm?.kind),
                ])
        }
    }

    /// The service's answer to one message of any kind, and what becomes of the message.
    struct Answer {
        var id: Int
        /// The service's HTTP status (`nil`: no answer) and reason.
        var status: Int?
        var reason: String?
        var outcome: Outcome
    }

    /// Stores what became of messages of one kind, the same way for every kind: a retry waits for its
    /// time, a failure (or deactivation) is final, a release gives the message back with its attempt
    /// not counted, an accepted message is marked sent (``markSent(_:target:newer:in:)``: older ones of
    /// its `target` still waiting are superseded, and all of them after an end); each attempt that did
    /// not succeed joins `delivery_attempts` (a success is the message's own state: `sent`, `sent_at`,
    /// status 200, one row write less per message). What an outcome does to the target (a deactivated
    /// token, a retired start token, a forgotten channel) is the kind's own, done by its caller.
    static func store(_ answers: [Answer], target: String, newer: String, in tx: PostgresSession) throws {
        var sent: [Int] = []
        for answer in answers {
            switch answer.outcome {
            case .sent:
                sent.append(answer.id)
            case .retry(let after):
                try tx.query(
                    """
                    UPDATE outbox SET claimed_until = NULL, last_status = $2, last_reason = $3,
                                      next_attempt_at = now() + make_interval(secs => $4)
                    WHERE id = $1
                    """, [answer.id, answer.status, answer.reason, after])
            case .deactivate(let why), .failed(let why):
                try tx.query(
                    """
                    UPDATE outbox SET state = 'failed', claimed_until = NULL, last_status = $2, last_reason = $3
                    WHERE id = $1
                    """, [answer.id, answer.status, why])
            case .release:
                try tx.query(
                    """
                    UPDATE outbox SET claimed_until = NULL, attempts = greatest(attempts - 1, 0),
                                      last_status = $2, last_reason = $3
                    WHERE id = $1
                    """, [answer.id, answer.status, answer.reason])
            }
        }
        try markSent(sent, target: target, newer: newer, in: tx)
        let unsuccessful = answers.filter { $0.outcome != .sent }
        try DeliveryAttempts.insert(
            ids: unsuccessful.map(\.id), statuses: unsuccessful.map(\.status),
            reasons: unsuccessful.map { $0.outcome.reason ?? $0.reason }, outcomes: unsuccessful.map(\.outcome.label),
            in: tx)
    }

    /// Marks accepted messages sent, superseding by their `target` column (`activity_id`, `channel_row`,
    /// `device_id`). A retry never overtakes, and nothing follows an end: the target's older messages
    /// still waiting (not on the wire), and every other one of a target whose end was accepted, are
    /// superseded. (A start has no timestamp and no end: nothing of its device is superseded.)
    static func markSent(_ ids: [Int], target: String, newer: String, in tx: PostgresSession) throws {
        guard !ids.isEmpty else { return }
        try tx.query(
            """
            UPDATE outbox SET state = 'sent', sent_at = now(), claimed_until = NULL, last_status = 200,
                                 last_reason = NULL
            WHERE id = ANY($1::bigint[])
            """, [ids])
        try tx.query(
            """
            UPDATE outbox o
            SET state = 'superseded', claimed_until = NULL,
                last_reason = CASE WHEN s.event = 'end' THEN 'after the end' ELSE 'a newer \(newer) was accepted' END
            FROM outbox s
            WHERE s.id = ANY($1::bigint[]) AND o.\(target) = s.\(target) AND o.id <> s.id
              AND o.state = 'pending' AND (o.claimed_until IS NULL OR o.claimed_until < now())
              AND (o.aps_timestamp < s.aps_timestamp OR s.event = 'end')
            """, [ids])
    }

    /// How many pushes are still to deliver, and when the next one is due (seconds from now, ≤ 0 = now).
    public static func pending(
        routes: [PushRoute] = [.apns], in session: PostgresSession
    ) throws -> (count: Int, nextIn: Double?) {
        let result = try session.query(
            """
            SELECT count(*) AS n, extract(epoch FROM min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at))) - now())::float8 AS next_in
            FROM outbox WHERE kind = 'push' AND state = 'pending' AND route = ANY($1::text[])
            """, [routes.map(\.rawValue)])
        return (try result[0].int("n"), try result[0].text("next_in").flatMap(Double.init))
    }
}

extension Outbox.Outcome {
    /// The outcome as stored in `delivery_attempts.outcome` and counted in the metrics.
    public var label: String {
        switch self {
        case .sent: "sent"
        case .retry: "retry"
        case .deactivate: "deactivated"
        case .failed: "failed"
        case .release(let why): why
        }
    }

    /// Why the message failed (or its target was deactivated), when it did.
    public var reason: String? {
        switch self {
        case .deactivate(let why), .failed(let why): why
        case .sent, .retry, .release: nil
        }
    }
}
