import Foundation
import LiveActivity
import Logging
import PostgresClient
import ScoreDomain
import Tracing

/// Pushes made due by time alone: a coalesced update whose interval closed, or the deliberate end
/// of an activity near Apple's 8-hour limit. Each call is one transaction's work; the scheduler
/// service of `serve` (and `deliver`) calls ``tick(at:planner:limit:in:)`` on the wall clock.
public enum PushScheduler {
    /// Ticks up to `limit` targets whose deadline passed by `now`, writing the pushes that became
    /// due and the targets' new state. Other schedulers skip the rows this one holds. Returns how
    /// many targets it ticked (`limit` means there may be more).
    public static func tick(
        at now: Date, planner: PushPlanner, channelPlanner: PushPlanner = PushPlanner(policy: .channel),
        startLead: Int? = nil, limit: Int = 500, in tx: PostgresSession
    ) throws -> Int {
        if let startLead { try planUpcomingStarts(at: now, lead: startLead, in: tx) }
        // Groups whose states became the same are planned as one from now on.
        try TargetGroups.merge(planner: planner, in: tx)
        var targets = try StoredTargets.due(at: now, limit: limit, in: tx)
        // Broadcast channels whose coalesced update's interval closed.
        var channels = try Channels.due(at: now, limit: limit, in: tx)
        guard !targets.isEmpty || !channels.isEmpty else { return 0 }
        let span = try planningSpan(games: targets.map(\.gameId) + channels.map(\.gameId), in: tx)
        defer { span.end() }
        let traceParent = TraceParent.of(span.context)
        var planned: [PlannedPush] = []
        for index in targets.indices {
            planned += planner.tick(&targets[index].target, at: now).map {
                PlannedPush(targets[index], position: nil, push: $0)
            }
        }
        try StoredTargets.save(targets, planner: planner, in: tx)
        try TargetPushes.insert(planned, traceParent: traceParent, in: tx)
        var broadcasts: [PlannedPush] = []
        for index in channels.indices {
            broadcasts += channelPlanner.tick(&channels[index].target, at: now).map {
                PlannedPush(channels[index], position: nil, push: $0)
            }
        }
        try Channels.save(channels, planner: channelPlanner, in: tx)
        try Broadcasts.insert(broadcasts, traceParent: traceParent, in: tx)
        span.attributes["scorefeed.targets"] = targets.count + channels.count
        span.attributes["scorefeed.pushes"] = planned.count + broadcasts.count
        return max(targets.count, channels.count)
    }

    /// The span of a planning made by time alone (no event in hand): the child of the stored context
    /// of the newest traced event of the first game, linked to the other games' (the requests whose
    /// updates, start or end these pushes carry), so time-driven pushes stay in their requests' traces.
    /// With tracing off, a no-op span and no query.
    static func planningSpan(games: [String], in tx: PostgresSession) throws -> any Span {
        var traceParents: [String?] = []
        if TraceParent.isOn {
            let distinct = Array(Set(games)).sorted()
            let rows = try tx.query(
                """
                SELECT (SELECT e.trace_parent FROM events e
                        WHERE e.stream_id = g AND e.trace_parent IS NOT NULL
                        ORDER BY e.stream_version DESC LIMIT 1) AS trace_parent
                FROM unnest($1::text[]) WITH ORDINALITY AS u(g, n) ORDER BY n
                """, [distinct])
            traceParents = try rows.rows.map { try $0.text("trace_parent") }
        }
        let span = TraceParent.startSpan("plan pushes", following: traceParents)
        span.attributes["scorefeed.scheduled"] = true
        return span
    }

    /// Push-to-start for games `lead` seconds or less before their scheduled first pitch (and not
    /// more than 12 hours past it), for the devices following them: once per (device, game).
    static func planUpcomingStarts(at now: Date, lead: Int, in tx: PostgresSession) throws {
        guard try tx.query("SELECT EXISTS (SELECT 1 FROM devices WHERE active) AS e")[0].bool("e") else { return }
        let games = try tx.query(
            """
            SELECT state::text AS state FROM score_states
            WHERE status = 'scheduled' AND starts_at <= $1::timestamptz + make_interval(secs => $2)
              AND starts_at > $1::timestamptz - interval '12 hours'
            """, [now, lead])
        for row in games.rows {
            let state = try ScoreState(json: try JSONValue.parse(Data(try row.string("state").utf8)))
            // The span starts only when there are starts to plan (this runs on every tick).
            var span: (any Span)?
            defer { span?.end() }
            try Devices.planStarts(
                for: state, at: now,
                traceParent: {
                    span = try planningSpan(games: [state.gameId], in: tx)
                    return span.flatMap { TraceParent.of($0.context) }
                }, in: tx)
        }
    }

    /// Ticks on the wall clock until the task is cancelled: every `interval` (at once again while a
    /// tick found `limit` targets due), on a connection of its own that is re-established when lost.
    /// The one place time alone steps the planner, for `serve` and `deliver`.
    public static func run(
        url: String, planner: PushPlanner, channelPlanner: PushPlanner = PushPlanner(policy: .channel),
        startLead: Int? = 0, interval: Double = 0.25, limit: Int = 500, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        let follower = LogFollower(url: url, channel: "scorefeed_ticks", pollInterval: interval, logger: logger)
        try await follower.run { connection in
            try await connection.transaction { tx in
                try tick(
                    at: now(), planner: planner, channelPlanner: channelPlanner, startLead: startLead, limit: limit,
                    in: tx)
            } == limit
        }
    }

    /// Sends every coalesced update still waiting in these games' targets, as of the moment its
    /// interval closes: the end of a replay on the events' own clock, where no later event comes.
    /// Returns how many pushes it wrote.
    @discardableResult
    public static func flushPending(games: [String], planner: PushPlanner, in tx: PostgresSession) throws -> Int {
        var targets = try StoredTargets.load(games, in: tx).values.flatMap { $0 }.filter {
            planner.pendingDue($0.target) != nil
        }
        var planned: [PlannedPush] = []
        for index in targets.indices {
            planned += planner.flush(&targets[index].target).map {
                PlannedPush(targets[index], position: nil, push: $0)
            }
        }
        let span = try planningSpan(games: games, in: tx)
        defer { span.end() }
        let traceParent = TraceParent.of(span.context)
        try StoredTargets.save(targets, planner: planner, in: tx)
        try TargetPushes.insert(planned, traceParent: traceParent, in: tx)
        let channelPlanner = PushPlanner(policy: .channel)
        var channels = try Channels.targets(games, in: tx).values.flatMap { $0 }.filter {
            channelPlanner.pendingDue($0.target) != nil
        }
        var broadcasts: [PlannedPush] = []
        for index in channels.indices {
            broadcasts += channelPlanner.flush(&channels[index].target).map {
                PlannedPush(channels[index], position: nil, push: $0)
            }
        }
        try Channels.save(channels, planner: channelPlanner, in: tx)
        try Broadcasts.insert(broadcasts, traceParent: traceParent, in: tx)
        return planned.count + broadcasts.count
    }
}
