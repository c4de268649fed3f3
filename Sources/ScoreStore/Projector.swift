import Foundation
import LiveActivity
import Logging
import PostgresClient
import ScoreDomain

/// Builds the `score_states` projection and plans Live Activity commands from the event log.
///
/// Each step reads the next page of events after the projector's checkpoint and, in ONE
/// transaction, writes the changed `score_states` rows, each game's state after every event
/// (``StateChanges``), the planned `push_commands` and the new checkpoint. The checkpoint row is
/// locked for the transaction, so two projectors never apply the same events; a crash between any
/// two steps loses or repeats nothing.
public struct Projector: Sendable {
    /// The checkpoint's name in `projection_checkpoints`.
    public static let name = "score_states"

    public let planner: PlannerConfig
    public let throttle: ThrottlePolicy
    public let clock: PushClock
    public let pageSize: Int
    /// Told after each committed page how many changes were held back to coalesce with a later
    /// update (for metrics).
    public var onCoalesced: (@Sendable (Int) -> Void)?

    public init(
        planner: PlannerConfig = PlannerConfig(), throttle: ThrottlePolicy = ThrottlePolicy(),
        clock: PushClock = .eventTime, pageSize: Int = 5000
    ) {
        self.planner = planner
        self.throttle = throttle
        self.clock = clock
        self.pageSize = pageSize
    }

    /// Applies every event not yet projected. Returns how many events it applied.
    @discardableResult
    public func catchUp(_ connection: PostgresConnection) async throws -> Int {
        var total = 0
        while true {
            let applied = try await step(connection)
            total += applied
            if applied == 0 { return total }
        }
    }

    /// Applies at most one page of events in one transaction. Returns how many it applied.
    public func step(_ connection: PostgresConnection) async throws -> Int {
        let projector = self
        let (applied, coalesced) = try await connection.transaction { tx in
            var coalesced = 0
            let applied = try Self.applyPage(
                pageSize: projector.pageSize, planning: projector, coalesced: &coalesced, in: tx)
            return (applied, coalesced)
        }
        if coalesced > 0 { onCoalesced?(coalesced) }
        return applied
    }

    /// Empties `score_states` (and its history of changes) and folds the whole log again, in one transaction, without planning
    /// commands (those already planned stay as they are). Returns the number of events folded.
    public func rebuild(_ connection: PostgresConnection) async throws -> Int {
        let pageSize = self.pageSize
        return try await connection.transaction { tx in
            _ = try Self.lockCheckpoint(in: tx)
            try tx.query("DELETE FROM score_states")
            try tx.query("DELETE FROM score_state_changes")
            try tx.query(
                "UPDATE projection_checkpoints SET position = 0, updated_at = now() WHERE name = $1", [Self.name])
            var total = 0
            while true {
                var coalesced = 0
                let applied = try Self.applyPage(pageSize: pageSize, planning: nil, coalesced: &coalesced, in: tx)
                total += applied
                if applied == 0 { return total }
            }
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

    /// One page inside the caller's transaction: fold the events after the checkpoint into the
    /// states of their games, plan (unless `planning` is nil, as in a rebuild) the game commands and
    /// the pushes of the games' activities with its settings, write states, commands, pushes,
    /// throttles and checkpoint. Returns how many events it applied; adds to `coalesced` the changes an activity's
    /// throttle held back to send with a later update.
    public static func applyPage(
        pageSize: Int, planning pushes: Projector?, coalesced: inout Int, in tx: PostgresSession
    ) throws -> Int {
        let planner = pushes?.planner
        let checkpoint = try lockCheckpoint(in: tx)
        let events = try EventLog.readAll(afterPosition: checkpoint, limit: pageSize, in: tx)
        guard let last = events.last else { return 0 }
        let games = Array(Set(events.map(\.message.gameId)))
        var states = try ScoreProjection.load(games, in: tx)
        var lastTimestamps = planner == nil ? [:] : try PushCommands.lastTimestamps(games, in: tx)
        var activities = pushes == nil ? [:] : try Activities.throttles(games, in: tx)
        var planned: [PlannedPush] = []
        var commands: [(LiveActivityCommand, Int)] = []
        var touched = Set<String>()
        var changes: [StateChange] = []
        changes.reserveCapacity(events.count)
        for event in events {
            let gameId = event.message.gameId
            let previous = states[gameId]
            let next: ScoreState
            do {
                next = try ScoreFold.apply(event.message, to: previous)
            } catch {
                throw StoreError.corruptEvent(position: event.position, reason: "the fold refuses it: \(error)")
            }
            states[gameId] = next
            touched.insert(gameId)
            changes.append(StateChange(position: event.position, gameId: gameId, state: next.canonicalJSON()))
            if let planner,
                let command = CommandPlanner.plan(
                    previous: previous, next: next, event: event.message.event, lastTimestamp: lastTimestamps[gameId],
                    config: planner)
            {
                lastTimestamps[gameId] = command.timestamp
                commands.append((command, event.position))
            }
            if let pushes, var throttles = activities[gameId] {
                let now = pushes.clock.now(event: event.message.at)
                for index in throttles.indices {
                    let made = throttles[index].1.receive(
                        previous: previous, next: next, event: event.message.event, at: now, policy: pushes.throttle)
                    if made.isEmpty && throttles[index].1.pendingDue != nil { coalesced += 1 }
                    planned += made.map {
                        PlannedPush(activityId: throttles[index].0, gameId: gameId, position: event.position, push: $0)
                    }
                }
                activities[gameId] = throttles
            }
        }
        let lastPositions = Dictionary(events.map { ($0.message.gameId, $0.position) }, uniquingKeysWith: max)
        try ScoreProjection.save(touched.compactMap { states[$0] }, positions: lastPositions, in: tx)
        try StateChanges.insert(changes, in: tx)
        try PushCommands.insert(commands, in: tx)
        if let pushes {
            try Activities.saveAll(Array(activities.values.joined()), policy: pushes.throttle, in: tx)
            try ActivityPushes.insert(planned, in: tx)
        }
        try tx.query(
            "UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1",
            [name, last.position])
        return events.count
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
