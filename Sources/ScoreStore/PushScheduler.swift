import Foundation
import LiveActivity
import PostgresClient

/// Pushes made due by time alone: a coalesced update whose interval closed, or the deliberate end
/// of an activity near Apple's 8-hour limit. Each call is one transaction's work.
public enum PushScheduler {
    /// Ticks up to `limit` activities whose deadline passed by `now`, writing the pushes that became
    /// due and the throttles' new state. Other schedulers skip the rows this one holds. Returns how
    /// many pushes it wrote.
    public static func tick(at now: Date, policy: ThrottlePolicy, limit: Int = 500, in tx: PostgresSession) throws
        -> Int
    {
        let due = try Activities.due(at: now, limit: limit, in: tx).map { (id: $0.0, gameId: $0.1, throttle: $0.2) }
        return try apply(due.map { ($0, now) }, policy: policy, in: tx)
    }

    /// Sends every coalesced update still waiting in these games' activities, as of the moment its
    /// interval closes: the end of a replay on the events' own clock, where no later event comes.
    public static func flushPending(games: [String], policy: ThrottlePolicy, in tx: PostgresSession) throws -> Int {
        let waiting = try Activities.throttles(games, in: tx).flatMap { gameId, throttles in
            throttles.compactMap { id, throttle in
                throttle.pendingDue.map { ((id: id, gameId: gameId, throttle: throttle), $0) }
            }
        }
        return try apply(waiting, policy: policy, in: tx)
    }

    /// Ticks each throttle at its time, then stores the throttles and the pushes they made (one
    /// statement each). Returns how many pushes it wrote.
    private static func apply(
        _ ticks: [((id: Int, gameId: String, throttle: ActivityThrottle), Date)], policy: ThrottlePolicy,
        in tx: PostgresSession
    ) throws -> Int {
        var planned: [PlannedPush] = []
        var saved: [(Int, ActivityThrottle)] = []
        for (activity, time) in ticks {
            var throttle = activity.throttle
            planned += throttle.tick(at: time, policy: policy).map {
                PlannedPush(activityId: activity.id, gameId: activity.gameId, position: nil, push: $0)
            }
            saved.append((activity.id, throttle))
        }
        try Activities.saveAll(saved, policy: policy, in: tx)
        try ActivityPushes.insert(planned, in: tx)
        return planned.count
    }
}
