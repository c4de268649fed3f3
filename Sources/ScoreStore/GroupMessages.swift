import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain

/// One message planned for a group of targets (an outbox row of kind `group`), as the read API
/// lists it beside the pushes to single targets.
public struct GroupMessage: Sendable, Equatable {
    public var id: Int
    public var groupId: Int
    public var event: LiveActivityEvent
    public var priority: Int
    public var timestamp: Int
    public var reason: String
    public var payload: String
    /// `pending` (planned, being walked), `sent` (walked past every member), `failed`, `superseded`.
    public var state: String
    /// The walk's cursor: the id of the last member passed (0: not started).
    public var walkedThrough: Int
    public var walkedAt: Date?
    public var createdAt: Date
}

/// A group of one game's targets, with its active members now.
public struct GroupSummary: Sendable, Equatable {
    public var id: Int
    public var route: String
    public var frequentUpdates: Bool
    public var members: Int
}

/// What the read API shows of a game's groups (``TargetGroups``): their messages and their members.
public enum GroupMessages {
    /// The game's group messages in the order they were planned (after the outbox id `after`, at most
    /// `limit`); with an app, only those of groups with members of that app.
    public static func forGame(
        _ gameId: String, app: String? = nil, after: Int = 0, limit: Int = Int(Int32.max), in session: PostgresSession
    ) throws -> [GroupMessage] {
        let result = try session.query(
            """
            SELECT p.id, p.group_id, p.event, p.priority, p.aps_timestamp, p.reason, p.payload, p.state,
                   p.walked_through, p.walked_at, p.created_at
            FROM outbox p
            WHERE p.kind = 'group' AND p.game_id = $1 AND p.id > $2
              AND ($4::text IS NULL OR p.group_id IN (SELECT a.group_id FROM activities a
                                                      WHERE a.game_id = $1 AND a.app = $4 AND a.group_id IS NOT NULL))
            ORDER BY p.id LIMIT $3
            """, [gameId, after, limit, app])
        return try result.rows.map { row in
            GroupMessage(
                id: try row.int("id"), groupId: try row.int("group_id"), event: try row.value("event"),
                priority: try row.int("priority"), timestamp: try row.int("aps_timestamp"),
                reason: try row.string("reason"), payload: try row.string("payload"), state: try row.string("state"),
                walkedThrough: try row.int("walked_through"),
                walkedAt: try row.text("walked_at").flatMap(PostgresTimestamp.parse),
                createdAt: try row.date("created_at"))
        }
    }

    /// The game's groups that have active members (of `app`; `nil`: of every app), with how many.
    public static func groups(_ gameId: String, app: String? = nil, in session: PostgresSession) throws
        -> [GroupSummary]
    {
        let result = try session.query(
            """
            SELECT g.id, g.route, g.frequent_updates, count(a.id) AS members
            FROM target_groups g JOIN activities a ON a.group_id = g.id AND a.active
            WHERE g.game_id = $1 AND ($2::text IS NULL OR a.app = $2)
            GROUP BY g.id ORDER BY g.id
            """, [gameId, app])
        return try result.rows.map {
            GroupSummary(
                id: try $0.int("id"), route: try $0.string("route"), frequentUpdates: try $0.bool("frequent_updates"),
                members: try $0.int("members"))
        }
    }
}
