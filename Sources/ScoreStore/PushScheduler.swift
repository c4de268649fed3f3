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
        var planned: [PlannedPush] = []
        for (id, gameId, throttle) in try Activities.due(at: now, limit: limit, in: tx) {
            var throttle = throttle
            planned += throttle.tick(at: now, policy: policy).map {
                PlannedPush(activityId: id, gameId: gameId, position: nil, push: $0)
            }
            try Activities.save(throttle, id: id, policy: policy, in: tx)
        }
        try ActivityPushes.insert(planned, in: tx)
        return planned.count
    }

    /// Sends every coalesced update still waiting in these games' activities, as of the moment its
    /// interval closes: the end of a replay on the events' own clock, where no later event comes.
    public static func flushPending(games: [String], policy: ThrottlePolicy, in tx: PostgresSession) throws -> Int {
        var planned: [PlannedPush] = []
        for (gameId, throttles) in try Activities.throttles(games, in: tx) {
            for (id, throttle) in throttles {
                guard let due = throttle.pendingDue else { continue }
                var throttle = throttle
                planned += throttle.tick(at: due, policy: policy).map {
                    PlannedPush(activityId: id, gameId: gameId, position: nil, push: $0)
                }
                try Activities.save(throttle, id: id, policy: policy, in: tx)
            }
        }
        try ActivityPushes.insert(planned, in: tx)
        return planned.count
    }
}
