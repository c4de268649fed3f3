import Foundation
import LiveActivity
import PostgresClient

/// The `target_groups` table: the Live Activities of a game whose throttle state is the same, planned
/// as one target (one decision, one outbox row per planned message, walked over the members by the
/// delivery side: ``Walks``). See docs/delivery.md, "Planning once per group".
///
/// A Live Activity registered while a group of its game, route and frequent-updates setting has planned
/// nothing yet, and whose first member registered at most ``span`` before it, joins that group;
/// otherwise it starts one. Groups whose states become the same later (a fan who registered mid-game,
/// once both got the same push) are merged by ``merge(planner:in:)``. A member whose route or
/// frequent-updates setting changes leaves for a group of its own (``leave(activityId:route:frequentUpdates:in:)``).
public enum TargetGroups {
    /// Members register at most this long after a group's first member, whose registration the
    /// group's 8 hours count from: a member is ended at most this much earlier than on its own, so at
    /// least 4 h 45 min after its own registration (a game long over by then, nearly always), and a
    /// fan who registers during a game of three hours can join those who registered before it.
    public static let span: TimeInterval = 3 * 3600

    /// A group of fewer active members than this gets its messages as rows per member (kind `push`,
    /// each visible per activity as before); from this many on, one row per message, walked.
    public static let walkMinimum = 100

    /// The group a new Live Activity joins (created when no group of its kind is still fresh), locked
    /// against a planning of it until the transaction ends.
    static func join(
        gameId: String, route: PushRoute, frequentUpdates: Bool, registeredAt: Date, position: Int,
        in session: PostgresSession
    ) throws -> Int {
        // Key-share lock: a planning (FOR UPDATE) waits for this registration, and one that committed
        // first made the group not fresh (the row is then read again and skipped).
        let found = try session.query(
            """
            SELECT id FROM target_groups
            WHERE game_id = $1 AND route = $2 AND frequent_updates = $3 AND fresh AND merged_into IS NULL
              AND ended_at IS NULL AND planned_position = $5
              AND registered_at <= $4 AND registered_at >= $4::timestamptz - make_interval(secs => $6)
            ORDER BY id DESC LIMIT 1 FOR KEY SHARE
            """, [gameId, route.rawValue, frequentUpdates, registeredAt, position, span])
        if let row = found.rows.first { return try row.int("id") }
        let throttle = ActivityThrottle(registeredAt: registeredAt, frequentUpdates: frequentUpdates)
        return try create(
            gameId: gameId, route: route, throttle: throttle, position: position, in: session)
    }

    private static func create(
        gameId: String, route: PushRoute, throttle: ActivityThrottle, position: Int, in session: PostgresSession
    ) throws -> Int {
        try session.query(
            """
            INSERT INTO target_groups (game_id, route, frequent_updates, registered_at, throttle_state, fresh,
                                       planned_position)
            VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
            """,
            [
                gameId, route.rawValue, throttle.frequentUpdates, throttle.registeredAt, throttle.storageText,
                throttle.isFresh, position,
            ])[0].int("id")
    }

    /// Moves one member out of its group into a group of its own, with the group's state but the
    /// member's new route and frequent-updates setting. The group's messages it has not been passed by
    /// yet become rows of its own (kind `push`, by its new route), so it loses none and gets them in order.
    static func leave(activityId: Int, route: PushRoute, frequentUpdates: Bool, in session: PostgresSession) throws {
        let found = try session.query(
            """
            SELECT g.id, g.game_id, g.throttle_state, g.planned_position FROM target_groups g
            JOIN activities a ON a.group_id = g.id WHERE a.id = $1 FOR UPDATE OF g
            """, [activityId])
        guard let row = found.rows.first else { return }
        let old = try row.int("id")
        let throttle = try ActivityThrottle(storageText: try row.string("throttle_state"))
        let new = try create(
            gameId: try row.string("game_id"), route: route, throttle: throttle.with(frequentUpdates: frequentUpdates),
            position: try row.int("planned_position"), in: session)
        try session.query(
            """
            \(Walks.ownRow(member: "a"))
            FROM outbox m JOIN activities a ON a.id = $2
            WHERE m.kind = 'group' AND m.group_id = $1 AND m.state = 'pending' AND m.walked_through < a.id
            ON CONFLICT DO NOTHING
            """, [old, activityId])
        try session.query("UPDATE activities SET group_id = $2, grouped_at = now() WHERE id = $1", [activityId, new])
    }

    /// The groups of these games still planned (not merged, not ended, with an active member), locked
    /// for the transaction, in id order. With `upToDateLimit`, only those planned through their game's
    /// projected position (the others are behind, for ``behind(limit:in:)``), at most that many per game.
    static func targets(
        _ gameIds: [String], upToDateLimit: Int? = nil, in session: PostgresSession
    ) throws -> [String: [StoredTarget]] {
        let result = try session.query(
            """
            SELECT g.id, g.game_id, g.throttle_state FROM target_groups g
            LEFT JOIN score_states s ON s.game_id = g.game_id
            WHERE g.game_id = ANY($1::text[]) AND g.merged_into IS NULL AND g.ended_at IS NULL
              AND ($2::bool IS NULL OR g.planned_position = coalesce(s.position, 0))
              AND (SELECT 1 FROM activities a WHERE a.group_id = g.id AND a.active LIMIT 1) IS NOT NULL
            ORDER BY g.id FOR UPDATE OF g
            """, [gameIds, upToDateLimit.map { _ in true }])
        var byGame: [String: [StoredTarget]] = [:]
        var states = Activities.StateCache()
        for row in result.rows {
            let target = try decode(row, states: &states)
            if let limit = upToDateLimit, byGame[target.gameId, default: []].count >= limit { continue }
            byGame[target.gameId, default: []].append(target)
        }
        return byGame
    }

    /// Up to `limit` groups not yet planned through their game's projected position, locked (others
    /// skip them), with the position each was planned through and its game's.
    static func behind(limit: Int, in session: PostgresSession) throws -> [(
        target: StoredTarget, planned: Int, game: Int
    )] {
        let result = try session.query(
            """
            SELECT g.id, g.game_id, g.throttle_state, g.planned_position, s.position AS game_position
            FROM target_groups g JOIN score_states s ON s.game_id = g.game_id
            WHERE g.merged_into IS NULL AND g.ended_at IS NULL AND g.planned_position < s.position
            ORDER BY g.id LIMIT $1 FOR UPDATE OF g SKIP LOCKED
            """, [limit])
        var states = Activities.StateCache()
        return try result.rows.map {
            (try decode($0, states: &states), try $0.int("planned_position"), try $0.int("game_position"))
        }
    }

    /// Groups whose state must be ticked by `now`, locked (others skip them).
    static func due(at now: Date, limit: Int, in session: PostgresSession) throws -> [StoredTarget] {
        let result = try session.query(
            """
            SELECT id, game_id, throttle_state FROM target_groups
            WHERE next_deadline <= $1 AND merged_into IS NULL ORDER BY next_deadline LIMIT $2
            FOR UPDATE SKIP LOCKED
            """, [now, limit])
        var states = Activities.StateCache()
        return try result.rows.map { try decode($0, states: &states) }
    }

    /// Stores groups' planner state in one statement, with when each must be ticked next; with
    /// `plannedThrough`, each group's game maps to the position it is now planned through.
    static func save(
        _ groups: [StoredTarget], planner: PushPlanner, plannedThrough: [String: Int]? = nil,
        in session: PostgresSession
    ) throws {
        guard !groups.isEmpty else { return }
        var json: [String: String] = [:]
        var texts: [String] = []
        var fresh: [Bool] = []
        for group in groups {
            guard case .liveActivity(let throttle) = group.target else { continue }
            texts.append(throttle.storageText(writingStates: { Activities.memoizedJSON($0, in: &json) }))
            fresh.append(throttle.isFresh)
        }
        try session.query(
            """
            UPDATE target_groups g SET throttle_state = u.t, next_deadline = u.d, fresh = g.fresh AND u.f,
                ended_at = CASE WHEN u.e THEN coalesce(g.ended_at, now()) ELSE g.ended_at END,
                planned_position = coalesce(u.p, g.planned_position)
            FROM unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::bool[], $5::bigint[], $6::bool[])
                AS u(id, t, d, e, p, f)
            WHERE g.id = u.id
            """,
            [
                groups.map(\.id), texts, groups.map { planner.nextDeadline($0.target) },
                groups.map { planner.isEnded($0.target) }, groups.map { plannedThrough?[$0.gameId] }, fresh,
            ])
    }

    /// Merges the groups of a game whose states became the same (``LiveActivity/ActivityThrottle/joined(with:span:)``)
    /// and that have no message still being walked: the smaller's members move to the larger, which
    /// keeps the joined state. Groups another session holds are skipped. Returns how many members moved.
    @discardableResult
    public static func merge(planner: PushPlanner, in tx: PostgresSession) throws -> Int {
        let games = try tx.query(
            """
            SELECT game_id FROM target_groups WHERE merged_into IS NULL AND ended_at IS NULL AND NOT fresh
            GROUP BY game_id, route HAVING count(*) > 1
            """)
        var moved = 0
        for game in try Set(games.rows.map { try $0.string("game_id") }).sorted() {
            let rows = try tx.query(
                """
                SELECT g.id, g.game_id, g.route, g.throttle_state,
                       (SELECT count(*) FROM (SELECT 1 FROM activities a WHERE a.group_id = g.id AND a.active
                                              LIMIT 1000) m) AS members
                FROM target_groups g
                WHERE g.game_id = $1 AND g.merged_into IS NULL AND g.ended_at IS NULL AND NOT g.fresh
                  AND NOT EXISTS (SELECT 1 FROM outbox m WHERE m.kind = 'group' AND m.group_id = g.id
                                  AND m.state = 'pending')
                ORDER BY g.id FOR UPDATE OF g SKIP LOCKED
                """, [game])
            var states = Activities.StateCache()
            var groups: [(target: StoredTarget, route: String, members: Int)] = try rows.rows.map {
                (try decode($0, states: &states), try $0.string("route"), try $0.int("members"))
            }
            // Largest first (sizes counted up to 1,000): each later group joins the first it decides the same as.
            groups.sort { ($0.members, -$0.target.id) > ($1.members, -$1.target.id) }
            var kept: [Int] = []
            for index in groups.indices {
                guard case .liveActivity(let throttle) = groups[index].target.target else { continue }
                var into: Int?
                for k in kept where groups[k].route == groups[index].route {
                    guard case .liveActivity(let base) = groups[k].target.target,
                        let joined = base.joined(with: throttle, span: span)
                    else { continue }
                    groups[k].target.target = .liveActivity(joined)
                    groups[k].members += groups[index].members
                    into = k
                    break
                }
                guard let into else {
                    kept.append(index)
                    continue
                }
                let (from, to) = (groups[index].target.id, groups[into].target.id)
                moved +=
                    try tx.query(
                        "UPDATE activities SET group_id = $2, grouped_at = now() WHERE group_id = $1", [from, to]
                    ).affectedRows
                try tx.query(
                    "UPDATE target_groups SET merged_into = $2, next_deadline = NULL WHERE id = $1", [from, to])
                try tx.query(
                    "UPDATE target_groups SET registered_at = least(registered_at, $2) WHERE id = $1",
                    [to, throttle.registeredAt])
                try save([groups[into].target], planner: planner, in: tx)
            }
        }
        return moved
    }

    static func decode(_ row: PostgresRow, states: inout Activities.StateCache) throws -> StoredTarget {
        let throttle = try Activities.readThrottle(try row.string("throttle_state"), states: &states)
        return StoredTarget(
            id: try row.int("id"), gameId: try row.string("game_id"), target: .liveActivity(throttle), isGroup: true)
    }
}
