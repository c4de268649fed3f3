import Foundation
import LiveActivity
import Logging
import PostgresClient
import ScoreDomain
import Tracing

/// Builds the `score_states` projection and plans the pushes of every target from the event log.
///
/// Each step reads the next page of events after the projector's checkpoint, folds it with
/// ``ProjectionPage`` (pure), and in ONE transaction writes what the page returned: the changed
/// `score_states` rows (the live stream derives each state change from the log, ``StateChanges``), the new planner
/// state of the first ``inlineTargets`` targets of each game (target groups, whatever their size, and
/// activities with a state of their own), their planned pushes (the outbox)
/// and the new checkpoint. The activities beyond those (a large audience) are caught up right after
/// in transactions of ``fanOutChunk`` activities each (``ProjectionPage/fanOut(history:through:targets:planning:)``),
/// so the first pushes are committed, and delivered, while the rest is planned: each activity
/// records the position it was planned through and takes every change after it in order. The
/// checkpoint row is locked by every transaction, so two projectors never apply the same events or
/// plan the same activity; a crash between any two steps loses or repeats nothing.
public struct Projector: Sendable {
    /// The checkpoint's name in `projection_checkpoints`.
    public static let name = "score_states"

    public let planner: PushPlanner
    public let clock: PushClock
    public let pageSize: Int
    /// Activities of a game planned in the page's own transaction (the rest are fanned out after).
    public var inlineTargets = 100
    /// Activities caught up per fan-out transaction.
    public var fanOutChunk = 1000
    /// The planner of broadcast channels (one per game and environment, planned in the page).
    public var channelPlanner = PushPlanner(policy: .channel)
    /// Told after each committed page how many changes were held back to coalesce with a later
    /// update (for metrics).
    public var onCoalesced: (@Sendable (Int) -> Void)?

    public init(throttle: ThrottlePolicy = ThrottlePolicy(), clock: PushClock = .eventTime, pageSize: Int = 5000) {
        self.planner = PushPlanner(policy: throttle)
        self.clock = clock
        self.pageSize = pageSize
    }

    /// The throttle settings of the planner.
    public var throttle: ThrottlePolicy { planner.policy }

    /// Applies every event not yet projected. Returns how many events it applied.
    @discardableResult
    public func catchUp(_ connection: PostgresConnection) async throws -> Int {
        var audience: Audience?
        return try await catchUp(connection, audience: &audience)
    }

    /// Applies every event not yet projected, planning the `audience`'s pushes too (when not nil).
    @discardableResult
    public func catchUp(_ connection: PostgresConnection, audience: inout Audience?) async throws -> Int {
        var total = 0
        while true {
            let (applied, fanned) = try await work(connection, audience: &audience)
            total += applied
            if applied == 0 && fanned == 0 { return total }
        }
    }

    /// Applies at most one page of events, then catches up at most one chunk of activities left
    /// behind, each in its own transaction. Returns how much it did (events plus activities; 0: idle).
    public func step(_ connection: PostgresConnection) async throws -> Int {
        var audience: Audience?
        let (applied, fanned) = try await work(connection, audience: &audience)
        return applied + fanned
    }

    /// One page, planning the `audience`'s pushes too (the audience changes only if the page
    /// commits), then one fan-out chunk. Returns the events applied and the activities caught up.
    private func work(_ connection: PostgresConnection, audience: inout Audience?) async throws -> (Int, Int) {
        let planning = ProjectionPage.Planning(planner: planner, clock: clock)
        let (pageSize, inline, before, channels) = (self.pageSize, inlineTargets, audience, channelPlanner)
        let (applied, coalesced, after) = try await connection.transaction { tx in
            var audience = before
            let effects = try Self.applyPage(
                pageSize: pageSize, planning: planning, inlineTargets: inline, channelPlanner: channels,
                audience: &audience, in: tx)
            return (effects?.positions.count ?? 0, effects?.coalesced ?? 0, audience)
        }
        audience = after
        let chunk = fanOutChunk
        let fanned = try await connection.transaction { tx in
            try Self.fanOut(limit: chunk, planning: planning, in: tx)
        }
        if coalesced + fanned.coalesced > 0 { onCoalesced?(coalesced + fanned.coalesced) }
        return (applied, fanned.targets.count)
    }

    /// Catches up to `limit` activities left behind by earlier pages (see the type's description),
    /// inside the caller's transaction. Returns what it planned.
    public static func fanOut(
        limit: Int, planning: ProjectionPage.Planning, in tx: PostgresSession
    ) throws -> ProjectionPage.FanOut {
        _ = try lockCheckpoint(in: tx)
        let behind = try StoredTargets.behind(limit: limit, in: tx)
        guard !behind.isEmpty else { return ProjectionPage.FanOut() }
        var result = ProjectionPage.FanOut()
        var through: [String: Int] = [:]
        for (gameId, group) in Dictionary(grouping: behind, by: \.target.gameId) {
            let position = group[0].game
            through[gameId] = position
            let history = try EventLog.readStream(gameId, in: tx)
            // The catching up continues the traces of the events it plans from (as the page's planning does).
            let earliest = group.map(\.planned).min() ?? position
            let plan = TraceParent.startSpan(
                "plan pushes",
                following: history.lazy.filter { $0.position > earliest && $0.position <= position }.map(\.traceParent))
            defer { plan.end() }
            let done = try ProjectionPage.fanOut(
                history: history, through: position, targets: group.map { ($0.target, $0.planned) },
                planning: planning)
            plan.attributes["scorefeed.fan_out"] = true
            plan.attributes["scorefeed.targets"] = done.targets.count
            plan.attributes["scorefeed.pushes"] = done.pushes.count
            try TargetPushes.insert(done.pushes, traceParent: TraceParent.of(plan.context), in: tx)
            result.targets += done.targets
            result.pushes += done.pushes
            result.coalesced += done.coalesced
        }
        try StoredTargets.save(result.targets, planner: planning.planner, plannedThrough: through, in: tx)
        return result
    }

    /// Empties `score_states` and folds the whole log again, in one
    /// transaction, without planning pushes (those already planned stay as they are). Returns the
    /// number of events folded.
    public func rebuild(_ connection: PostgresConnection) async throws -> Int {
        let pageSize = self.pageSize
        return try await connection.transaction { tx in
            _ = try Self.lockCheckpoint(in: tx)
            try tx.query("DELETE FROM score_states")
            try tx.query(
                "UPDATE projection_checkpoints SET position = 0, updated_at = now() WHERE name = $1", [Self.name])
            var total = 0
            var audience: Audience?
            while let effects = try Self.applyPage(pageSize: pageSize, planning: nil, audience: &audience, in: tx) {
                total += effects.positions.count
            }
            return total
        }
    }

    /// The projector's checkpoint: the global position of the last event it applied.
    public static func checkpoint(in session: PostgresSession) throws -> Int {
        let result = try session.query("SELECT position FROM projection_checkpoints WHERE name = $1", [name])
        return result.count == 0 ? 0 : try result[0].int("position")
    }

    private static func lockCheckpoint(in tx: PostgresSession) throws -> Int {
        try tx.query(
            "INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [name])
        let result = try tx.query("SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE", [name])
        return try result[0].int("position")
    }

    /// One page inside the caller's transaction: load the events after the checkpoint and what they
    /// touch, fold them (``ProjectionPage``; planning pushes unless `planning` is nil, as in a
    /// rebuild), and write the effects. Returns the effects, or `nil` when nothing was left.
    public static func applyPage(
        pageSize: Int, planning: ProjectionPage.Planning?, inlineTargets: Int = .max,
        channelPlanner: PushPlanner = PushPlanner(policy: .channel), audience: inout Audience?, in tx: PostgresSession
    ) throws -> ProjectionPage.Effects? {
        let checkpoint = try lockCheckpoint(in: tx)
        let events = try EventLog.readAll(afterPosition: checkpoint, limit: pageSize, in: tx)
        let games = Array(Set(events.map(\.message.gameId)))
        guard !games.isEmpty else { return nil }
        // The page continues the trace of its first event that has one (a webhook's append, on any
        // node), linked to the others'; the planning is its child, and the planned pushes carry it.
        let page = TraceParent.startSpan("projection page", following: events.lazy.map(\.traceParent))
        defer { page.end() }
        page.attributes["scorefeed.events"] = events.count
        page.attributes["scorefeed.games"] = games.count
        let states = try ScoreProjection.load(games, in: tx)
        let targets = planning == nil ? [:] : try StoredTargets.load(games, upToDateLimit: inlineTargets, in: tx)
        if let planning, audience != nil {
            // Games met mid-stream (their start was projected before this run): the audience
            // catches up on their history first, silently.
            for (game, state) in states where audience!.targets[game] == nil {
                let history = try EventLog.readStream(game, in: tx).prefix { $0.version <= state.version }
                audience!.targets[game] = ProjectionPage.audienceTarget(history: Array(history), planning: planning)
            }
        }
        // The fold and the planner run in one pure pass: the planning span takes in the page's fold.
        let plan = planning.map { _ in Tracing.startSpan("plan pushes", context: page.context) }
        defer { plan?.end() }
        guard
            let effects = try ProjectionPage.apply(
                events, states: states, targets: targets, planning: planning, audience: &audience)
        else { return nil }
        try ScoreProjection.save(effects.states, in: tx)
        try StateChanges.notify(upTo: effects.checkpoint, in: tx)
        if let planning, let plan {
            plan.attributes["scorefeed.targets"] = effects.targets.count
            plan.attributes["scorefeed.pushes"] = effects.pushes.count
            let through = Dictionary(uniqueKeysWithValues: effects.states.map { ($0.state.gameId, $0.position) })
            try StoredTargets.save(effects.targets, planner: planning.planner, plannedThrough: through, in: tx)
            let traceParent = TraceParent.of(plan.context)
            try TargetPushes.insert(effects.pushes, traceParent: traceParent, in: tx)
            // The games' broadcast channels: the same page through the same pure step, on their own planner.
            let channels = try Channels.targets(games, in: tx)
            if !channels.isEmpty {
                let channelPlanning = ProjectionPage.Planning(planner: channelPlanner, clock: planning.clock)
                var none: Audience?
                if let broadcasts = try ProjectionPage.apply(
                    events, states: states, targets: channels, planning: channelPlanning, audience: &none)
                {
                    try Channels.save(broadcasts.targets, planner: channelPlanner, in: tx)
                    try Broadcasts.insert(broadcasts.pushes, traceParent: traceParent, in: tx)
                }
            }
            // Push-to-start: the devices following a game now in progress get its start, once.
            let live = effects.live
            if !live.isEmpty, try tx.query("SELECT EXISTS (SELECT 1 FROM devices WHERE active) AS e")[0].bool("e") {
                for state in live {
                    try Devices.planStarts(
                        for: state, at: planning.clock.now(event: state.updatedAt), traceParent: { traceParent }, in: tx
                    )
                }
            }
        }
        try tx.query(
            "UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1",
            [name, effects.checkpoint])
        return effects
    }
}

/// Which clock the push throttles run on.
public enum PushClock: Sendable {
    /// The time of each event: replays of past games give the same pushes every time.
    case eventTime
    /// The wall clock (or any clock passed in): live service, and replays at a chosen speed.
    case wall(@Sendable () -> Date)

    func now(event: Date) -> Date {
        switch self {
        case .eventTime: event
        case .wall(let clock): clock()
        }
    }
}
