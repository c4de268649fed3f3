import Foundation
import PostgresClient
import ScoreDomain

/// The outbox's messages to target groups (kind `group`, ``TargetGroups``): one row per planned
/// message, delivered by walking the group's active members in id order from a durable cursor
/// (`walked_through`), a batch at a time. A member passed by the cursor got the message (its answer was
/// a success); only what differs becomes a row of its own (kind `push`): a retry (delivered as any push
/// is), a failure or a deactivation, with its attempt in `delivery_attempts`. A group's messages are
/// walked one after the other, so each member gets them in order; a crash re-sends at most the batch
/// whose lease ran out (the same `apns-id` per message and token: ``apnsId(_:timestamp:)``).
public enum Walks {
    /// A member's `apns-id` for the message of timestamp `timestamp` (SQL over the `activities` row
    /// `alias`): the one its own push of that timestamp has.
    static func apnsId(_ alias: String, timestamp: String) -> String {
        "md5(coalesce(\(alias).push_token, \(alias).fcm_token || ':' || \(alias).game_id) || ':' || \(timestamp))::uuid"
    }

    /// Members in the first batch of a message's walk.
    public static let firstBatch = 100

    /// The head of an `INSERT … SELECT` that gives the group message `m` to the member `a` (SQL aliases
    /// the caller's `FROM` binds) as a row of its own (kind `push`, by the member's route), with the
    /// given SQL expressions for when it is due, its state, attempts and last answer.
    static func ownRow(
        member a: String, message m: String = "m", due: String = "now()", state: String = "'pending'",
        attempts: String = "0", status: String = "NULL", reason: String = "NULL"
    ) -> String {
        """
        INSERT INTO outbox (kind, activity_id, game_id, position, apns_id, event, priority, aps_timestamp,
                            expiration, reason, payload, send_at, next_attempt_at, route, fcm_token, fcm_kind,
                            trace_parent, state, attempts, last_status, last_reason)
        SELECT 'push', \(a).id, \(m).game_id, \(m).position, \(apnsId(a, timestamp: "\(m).aps_timestamp")),
               \(m).event, \(m).priority, \(m).aps_timestamp, \(m).expiration, \(m).reason, \(m).payload,
               \(m).send_at, \(due), \(a).route, \(a).fcm_token, \(a).fcm_kind, \(m).trace_parent, \(state),
               \(attempts), \(status), \(reason)
        """
    }

    /// Inserts one row per message planned for a group (the group's id in `targetId`).
    static func insert(_ pushes: [PlannedPush], traceParent: String?, in session: PostgresSession) throws {
        guard !pushes.isEmpty else { return }
        try session.query(
            """
            INSERT INTO outbox (kind, group_id, walked_through, game_id, position, apns_id, event, priority,
                                aps_timestamp, expiration, reason, payload, send_at, next_attempt_at, trace_parent)
            SELECT 'group', u.a, 0, u.g, u.p, md5('group:' || u.a || ':' || u.ts)::uuid, u.e, u.pr, u.ts, u.x, u.r,
                   u.pl, u.s, u.s, $11::text
            FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::bigint[], $7::bigint[],
                        $8::text[], $9::text[], $10::timestamptz[]) AS u(a, g, p, e, pr, ts, x, r, pl, s)
            ORDER BY u.s, u.a
            """,
            [
                pushes.map(\.targetId), pushes.map(\.gameId), pushes.map(\.position),
                pushes.map(\.push.event.rawValue), pushes.map(\.push.priority), pushes.map(\.push.timestamp),
                pushes.map(\.push.expiration), pushes.map(\.push.reason.rawValue), pushes.map(\.push.payload),
                pushes.map(\.push.sendAt), traceParent,
            ])
    }

    /// Claims the next batch of up to `limit` members of due group messages (of groups reached by
    /// `routes`), each message held for `lease` seconds: a group's oldest waiting message only, so its
    /// members get its messages in order. A member whose own push is on the wire gets the message as a
    /// row of its own instead (sent after that one). An update not yet walked through while a newer
    /// message of its group, planned ``Outbox/liveUpdateBacklogAge`` or more after it, waits is a
    /// backlog (a walk of a huge group slower than the game): it is superseded first, and the rest of
    /// its members get the newer one. A replay plans a whole game in moments: none of its messages is a
    /// backlog, each is walked in turn.
    /// Returns one ``TargetPush`` per member to send, each with its ``TargetPush/Walk``.
    public static func claim(limit: Int, lease: Int, routes: [PushRoute], in tx: PostgresSession) throws
        -> [TargetPush]
    {
        guard limit > 0 else { return [] }
        try tx.query(
            """
            UPDATE outbox o SET state = 'superseded', claimed_until = NULL, last_reason = 'a newer group message was planned'
            WHERE o.kind = 'group' AND o.state = 'pending' AND o.event = 'update'
              AND (o.claimed_until IS NULL OR o.claimed_until < now())
              AND EXISTS (SELECT 1 FROM outbox n WHERE n.kind = 'group' AND n.group_id = o.group_id
                          AND n.state = 'pending' AND n.id > o.id
                          AND n.created_at >= o.created_at + make_interval(secs => $1))
            """, [Outbox.liveUpdateBacklogAge])
        var pushes: [TargetPush] = []
        var remaining = limit
        // A few messages per round (of different groups), each with its share of the round.
        for _ in 0..<4 where remaining > 0 {
            guard let batch = try claimOne(limit: remaining, lease: lease, routes: routes, in: tx) else { break }
            pushes += batch
            remaining -= max(batch.count, 1)
        }
        return pushes
    }

    private static func claimOne(limit: Int, lease: Int, routes: [PushRoute], in tx: PostgresSession) throws
        -> [TargetPush]?
    {
        let claimed = try tx.query(
            """
            WITH due AS (
                SELECT d.id FROM outbox d JOIN target_groups g ON g.id = d.group_id
                WHERE d.kind = 'group' AND d.state = 'pending' AND d.next_attempt_at <= now()
                  AND (d.claimed_until IS NULL OR d.claimed_until < now()) AND g.route = ANY($2::text[])
                  AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.kind = 'group' AND o.group_id = d.group_id
                                  AND o.state = 'pending' AND o.id < d.id)
                ORDER BY d.next_attempt_at, d.id LIMIT 1
                FOR UPDATE OF d SKIP LOCKED
            )
            UPDATE outbox p SET claimed_until = now() + make_interval(secs => $1), attempts = p.attempts + 1
            FROM due WHERE p.id = due.id
            RETURNING p.id, p.group_id, p.walked_through, p.game_id, p.event, p.priority, p.aps_timestamp,
                      p.expiration, p.reason, p.payload, p.created_at, p.trace_parent
            """, [lease, routes.map(\.rawValue)])
        guard let message = claimed.rows.first else { return nil }
        let id = try message.int("id")
        let timestamp = try message.int("aps_timestamp")
        // A message's first batch is small: its first pushes leave at once, the next batches fill rounds.
        let limit = try message.int("walked_through") == 0 ? min(limit, firstBatch) : limit
        let members = try members(
            group: try message.int("group_id"), after: try message.int("walked_through"), timestamp: timestamp,
            limit: limit, in: tx)
        let last = members.count < limit
        let through = try members.rows.last?.int("id") ?? message.int("walked_through")
        // The message's fields are read once; each member's push is this one with its own fields.
        var template = TargetPush(
            id: id, targetId: 0, gameId: try message.string("game_id"), pushToken: "", environment: nil,
            bundleId: nil, apnsId: "", event: try message.value("event"), priority: try message.int("priority"),
            timestamp: timestamp, expiration: try message.int("expiration"), reason: try message.string("reason"),
            payload: try message.string("payload"), state: "pending", attempts: 1, lastStatus: nil, lastReason: nil,
            registeredAt: Date(timeIntervalSince1970: 0), createdAt: try message.date("created_at"))
        template.traceParent = try message.text("trace_parent")
        template.walk = TargetPush.Walk(through: through, last: last, group: try message.int("group_id"))
        var busy: [Int] = []
        var pushes: [TargetPush] = []
        pushes.reserveCapacity(members.count)
        for row in members.rows {
            if try row.bool("busy") {
                busy.append(try row.int("id"))
                continue
            }
            pushes.append(try push(template, to: row))
        }
        if !busy.isEmpty { try copy(message: id, to: busy, in: tx) }
        if pushes.isEmpty {
            // Nothing of this batch to send (no member left, or each one busy): the cursor moves on now.
            try advance(message: id, through: through, done: last, released: false, in: tx)
            return last ? [] : try claimOne(limit: limit, lease: lease, routes: routes, in: tx)
        }
        return pushes
    }

    /// Up to `limit` active members of `group` after member `after`, in id order, each with the
    /// `apns-id` of the message of `timestamp` and whether an own push of it is on the wire (`busy`).
    static func members(group: Int, after: Int, timestamp: Int, limit: Int, in tx: PostgresSession) throws
        -> PostgresResult
    {
        try tx.query(
            """
            SELECT a.id, a.push_token, a.environment, a.bundle_id, a.registered_at, a.route, a.fcm_token, a.fcm_kind,
                   \(apnsId("a", timestamp: "$3::bigint"))::text AS apns_id,
                   EXISTS (SELECT 1 FROM outbox q WHERE q.kind = 'push' AND q.activity_id = a.id
                           AND q.state = 'pending' AND q.claimed_until >= now()) AS busy
            FROM activities a WHERE a.group_id = $1 AND a.active AND a.id > $2 ORDER BY a.id LIMIT $4
            """, [group, after, timestamp, limit])
    }

    /// `template`'s message to the member of `row` (a row of ``members(group:after:timestamp:limit:in:)``).
    static func push(_ template: TargetPush, to row: PostgresRow) throws -> TargetPush {
        var push = template
        push.targetId = try row.int("id")
        push.pushToken = try row.text("push_token") ?? ""
        push.environment = try row.optionalValue("environment")
        push.bundleId = try row.text("bundle_id")
        push.apnsId = try row.string("apns_id")
        push.registeredAt = try row.date("registered_at")
        push.route = try row.value("route")
        push.fcm =
            push.route == .apns ? nil : FCMAddress(kind: try row.text("fcm_kind"), value: try row.text("fcm_token"))
        return push
    }

    /// Gives `members` the message as a row of their own each (kind `push`, waiting), in order behind
    /// their own pushes.
    private static func copy(message: Int, to members: [Int], in tx: PostgresSession) throws {
        try tx.query(
            """
            \(ownRow(member: "a"))
            FROM outbox m JOIN activities a ON a.id = ANY($2::bigint[])
            WHERE m.id = $1
            ON CONFLICT DO NOTHING
            """, [message, members])
    }

    /// Moves a message's cursor through member `through`; `done`: the walk passed its last member (the
    /// message is sent). `released`: the claim's attempt is not counted.
    private static func advance(
        message: Int, through: Int, done: Bool, released: Bool, renewLease: Int? = nil, in tx: PostgresSession
    ) throws {
        try tx.query(
            """
            UPDATE outbox SET walked_through = greatest(walked_through, $2), walked_at = now(),
                claimed_until = CASE WHEN $5::int IS NOT NULL AND NOT $3 THEN now() + make_interval(secs => $5::int) END,
                state = CASE WHEN $3 THEN 'sent' ELSE state END,
                sent_at = CASE WHEN $3 THEN now() ELSE sent_at END,
                last_status = CASE WHEN $3 THEN 200 ELSE last_status END,
                attempts = CASE WHEN $4 THEN greatest(attempts - 1, 0) ELSE attempts END
            WHERE id = $1 AND state = 'pending'
            """, [message, through, done, released, renewLease])
    }

    /// Records the answers of walked members, per message: the cursor passes every member up to the
    /// first one released (all of them when none was); of those, each that did not succeed becomes a row
    /// of its own (a retry waits for its time; a failure is final; a deactivation also deactivates its
    /// token or FCM registration) with its attempt in the history, and each that succeeded has its older
    /// pushes still waiting superseded (all of them by an end), as an accepted push does.
    ///
    /// - Parameters:
    ///   - holding: messages whose next batch the worker holds, claimed while this one was on the wire
    ///     and sent once this record commits (``claimAhead(of:limit:lease:in:)``): their lease is renewed
    ///     for `lease` seconds from now, for that batch's send.
    public static func record(
        _ attempts: [Outbox.Attempt], holding: Set<Int> = [], lease: Int = 0, in tx: PostgresSession
    ) throws {
        for (message, answers) in Dictionary(grouping: attempts, by: \.push.id).sorted(by: { $0.key < $1.key }) {
            guard let walk = answers[0].push.walk else { continue }
            let sorted = answers.sorted { $0.push.targetId < $1.push.targetId }
            let released = sorted.first {
                if case .release = $0.outcome { return true }
                return false
            }
            let passed = released.map { first in sorted.filter { $0.push.targetId < first.push.targetId } } ?? sorted
            let through = released.map { $0.push.targetId - 1 } ?? walk.through
            let exceptions = passed.filter { $0.outcome != .sent }
            if !exceptions.isEmpty {
                let rows = try tx.query(
                    """
                    \(ownRow(
                        member: "a", due: "now() + make_interval(secs => coalesce(u.after, 0))",
                        state: "CASE WHEN u.after IS NULL THEN 'failed' ELSE 'pending' END", attempts: "1",
                        status: "u.st", reason: "u.why"))
                    FROM unnest($2::bigint[], $3::float8[], $4::int[], $5::text[]) AS u(act, after, st, why)
                    JOIN activities a ON a.id = u.act JOIN outbox m ON m.id = $1
                    ON CONFLICT (activity_id, aps_timestamp) DO NOTHING
                    RETURNING id, activity_id
                    """,
                    [
                        message, exceptions.map(\.push.targetId),
                        exceptions.map { attempt -> Double? in
                            if case .retry(let after) = attempt.outcome { return after }
                            return nil
                        },
                        exceptions.map(\.status), exceptions.map { $0.outcome.reason ?? $0.reason },
                    ])
                var rowOf: [Int: Int] = [:]
                for row in rows.rows { rowOf[try row.int("activity_id")] = try row.int("id") }
                let history = exceptions.filter { rowOf[$0.push.targetId] != nil }
                try DeliveryAttempts.insert(
                    ids: history.map { rowOf[$0.push.targetId]! }, statuses: history.map(\.status),
                    reasons: history.map { $0.outcome.reason ?? $0.reason }, outcomes: history.map(\.outcome.label),
                    in: tx)
                for attempt in exceptions {
                    guard case .deactivate(let why) = attempt.outcome else { continue }
                    try Activities.deactivate(reachedBy: attempt.push, reason: why, in: tx)
                }
            }
            let accepted = passed.filter { $0.outcome == .sent }.map(\.push.targetId)
            if !accepted.isEmpty {
                try tx.query(
                    """
                    UPDATE outbox o
                    SET state = 'superseded', claimed_until = NULL,
                        last_reason = CASE WHEN $3 = 'end' THEN 'after the end' ELSE 'a newer push was accepted' END
                    WHERE o.kind = 'push' AND o.activity_id = ANY($1::bigint[]) AND o.state = 'pending'
                      AND (o.claimed_until IS NULL OR o.claimed_until < now()) AND (o.aps_timestamp < $2 OR $3 = 'end')
                    """, [accepted, answers[0].push.timestamp, answers[0].push.event.rawValue])
            }
            try advance(
                message: message, through: through, done: released == nil && walk.last, released: released != nil,
                renewLease: released == nil && holding.contains(message) ? lease : nil, in: tx)
        }
        // Every walk batch held (also a message's first, claimed a round ago) is sent with a fresh lease.
        if !holding.isEmpty {
            try tx.query(
                """
                UPDATE outbox SET claimed_until = now() + make_interval(secs => $2)
                WHERE id = ANY($1::bigint[]) AND kind = 'group' AND state = 'pending' AND claimed_until IS NOT NULL
                """, [Array(holding), lease])
        }
    }

    /// How many group messages wait (of groups reached by `routes`), and when the next one is due
    /// (seconds from now, ≤ 0 = now).
    public static func pending(routes: [PushRoute], in session: PostgresSession) throws -> (
        count: Int, nextIn: Double?
    ) {
        let result = try session.query(
            """
            SELECT count(*) AS n, extract(epoch FROM min(greatest(m.next_attempt_at, coalesce(m.claimed_until, m.next_attempt_at))) - now())::float8 AS next_in
            FROM outbox m JOIN target_groups g ON g.id = m.group_id
            WHERE m.kind = 'group' AND m.state = 'pending' AND g.route = ANY($1::text[])
            """, [routes.map(\.rawValue)])
        return (try result[0].int("n"), try result[0].text("next_in").flatMap(Double.init))
    }
}
