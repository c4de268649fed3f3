import Foundation
import LiveActivity
import PostgresClient

/// The planned targets of `activities` (those with a state of their own: Android followers, activities
/// registered before target groups) and of `target_groups`, read and written together for the planner.
enum StoredTargets {
    /// Both kinds of these games' targets, locked for the transaction: activities then groups, each in
    /// id order (see ``Activities/targets(_:upToDateLimit:in:)`` and ``TargetGroups/targets(_:upToDateLimit:in:)``).
    static func load(_ gameIds: [String], upToDateLimit: Int? = nil, in session: PostgresSession) throws
        -> [String: [StoredTarget]]
    {
        let groups = try TargetGroups.targets(gameIds, upToDateLimit: upToDateLimit, in: session)
        return try Activities.targets(gameIds, upToDateLimit: upToDateLimit, in: session).merging(groups) { $0 + $1 }
    }

    /// Stores both kinds' planner state (see ``Activities/save(_:planner:plannedThrough:in:)``).
    static func save(
        _ targets: [StoredTarget], planner: PushPlanner, plannedThrough: [String: Int]? = nil,
        in session: PostgresSession
    ) throws {
        try Activities.save(
            targets.filter { !$0.isGroup }, planner: planner, plannedThrough: plannedThrough, in: session)
        try TargetGroups.save(
            targets.filter(\.isGroup), planner: planner, plannedThrough: plannedThrough, in: session)
    }

    /// Targets of both kinds left behind their game's position, at most `limit` of each.
    static func behind(limit: Int, in session: PostgresSession) throws -> [(
        target: StoredTarget, planned: Int, game: Int
    )] {
        try TargetGroups.behind(limit: limit, in: session) + Activities.behind(limit: limit, in: session)
    }

    /// Targets of both kinds due for a tick by `now`, at most `limit` of each.
    static func due(at now: Date, limit: Int, in session: PostgresSession) throws -> [StoredTarget] {
        try TargetGroups.due(at: now, limit: limit, in: session) + Activities.due(at: now, limit: limit, in: session)
    }
}
