import Foundation
import LiveActivity
import ScoreDomain

/// A push target as stored: its id and game, and the planner's state for it. The id is an activity's
/// (a row of `activities`, a channel's for a broadcast), or with `isGroup` a target group's
/// (``TargetGroups``: the Live Activities of a game that share one state).
public struct StoredTarget: Sendable, Equatable {
    public var id: Int
    public var gameId: String
    public var target: PushTarget
    public var isGroup: Bool

    public init(id: Int, gameId: String, target: PushTarget, isGroup: Bool = false) {
        self.id = id
        self.gameId = gameId
        self.target = target
        self.isGroup = isGroup
    }
}

/// The pushes `replay` and `follow` print: one ``PushTarget/audience(for:frequentUpdates:)`` target
/// per game, kept in memory (never stored, never delivered), stepped by the same page as the
/// stored targets.
public struct Audience: Sendable, Equatable {
    /// Each game's audience target, created when the game's first event is projected.
    public var targets: [String: PushTarget] = [:]
    /// Pushes planned for the audience and not yet taken by ``take()``, in planning order.
    public var pushes: [(gameId: String, push: PlannedMessage)] = []

    public init() {}

    /// Hands out the pushes planned so far.
    public mutating func take() -> [(gameId: String, push: PlannedMessage)] {
        defer { pushes = [] }
        return pushes
    }

    /// Sends every update still waiting for its interval to close (the end of a replay on the
    /// events' clock, where no later event comes).
    public mutating func flush(_ planner: PushPlanner) {
        for gameId in targets.keys.sorted() {
            var target = targets[gameId]!
            pushes += planner.flush(&target).map { (gameId, $0) }
            targets[gameId] = target
        }
    }

    public static func == (lhs: Audience, rhs: Audience) -> Bool {
        lhs.targets == rhs.targets && lhs.pushes.map(\.gameId) == rhs.pushes.map(\.gameId)
            && lhs.pushes.map(\.push) == rhs.pushes.map(\.push)
    }
}

/// Folding one page of the event log: a pure function of the events, the states and push targets
/// of the games they touch, and the clock; it returns every effect as a value (``Effects``) for the
/// ``Projector`` to write in one transaction.
public enum ProjectionPage {
    /// What one page changes.
    public struct Effects: Sendable, Equatable {
        /// The new state of every game the page touched, with the position of its last event.
        public var states: [(state: ScoreState, position: Int)] = []
        /// The position of every event the page folded, in order.
        public var positions: [Int] = []
        /// Each game's first state in progress in the page (its start, or the state it was in when
        /// the page began): the moments push-to-start devices following it get their start.
        public var live: [ScoreState] = []
        /// Every stored target the page stepped, in its new state.
        public var targets: [StoredTarget] = []
        /// The pushes planned for stored targets, in planning order.
        public var pushes: [PlannedPush] = []
        /// The projection's new checkpoint: the last event's position.
        public var checkpoint: Int
        /// Changes a target held back to send with a later update (for metrics).
        public var coalesced = 0

        public static func == (lhs: Effects, rhs: Effects) -> Bool {
            lhs.states.map(\.state) == rhs.states.map(\.state)
                && lhs.states.map(\.position) == rhs.states.map(\.position)
                && lhs.positions == rhs.positions && lhs.live == rhs.live && lhs.targets == rhs.targets
                && lhs.pushes == rhs.pushes
                && lhs.checkpoint == rhs.checkpoint && lhs.coalesced == rhs.coalesced
        }
    }

    /// How the page plans pushes: the planner and the clock its targets run on.
    public struct Planning: Sendable {
        public var planner: PushPlanner
        public var clock: PushClock

        public init(planner: PushPlanner, clock: PushClock) {
            self.planner = planner
            self.clock = clock
        }
    }

    /// The audience target of a game whose earlier events were projected before this run (by an
    /// earlier run, maybe one that was killed): its history planned silently, so the pushes printed
    /// from here on are those the audience would have received had it followed the whole game.
    public static func audienceTarget(history events: [RecordedEvent], planning: Planning) -> PushTarget? {
        var state: ScoreState?
        var target: PushTarget?
        for event in events {
            guard let next = try? ScoreFold.apply(event.message, to: state) else { return target }
            var current = target ?? .audience(for: next)
            _ = planning.planner.receive(
                GameChange(previous: state, next: next, event: event.message.event), for: &current,
                at: planning.clock.now(event: event.message.at))
            (state, target) = (next, current)
        }
        return target
    }

    /// Folds `events` (in log order, all after the checkpoint) into `states`, and, with `planning`,
    /// steps every target of each changed game through the planner.
    ///
    /// - Parameters:
    ///   - states: the stored state of the games the events touch (absent: no event yet).
    ///   - targets: the active stored targets of those games, in a stable order.
    ///   - audience: the in-memory targets of `replay`/`follow`, when they print pushes.
    /// - Returns: the effects; `nil` for an empty page.
    /// - Throws: ``StoreError/corruptEvent(position:reason:)`` when the fold refuses a stored event.
    public static func apply(
        _ events: [RecordedEvent], states: [String: ScoreState], targets: [String: [StoredTarget]],
        planning: Planning?, audience: inout Audience?
    ) throws(StoreError) -> Effects? {
        guard let last = events.last else { return nil }
        var states = states
        var targets = targets
        var effects = Effects(checkpoint: last.position)
        effects.positions.reserveCapacity(events.count)
        var lastPositions: [String: Int] = [:]
        var order: [String] = []
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
            if lastPositions.updateValue(event.position, forKey: gameId) == nil { order.append(gameId) }
            effects.positions.append(event.position)
            if next.status == .inprogress, !effects.live.contains(where: { $0.gameId == gameId }) {
                effects.live.append(next)
            }
            guard let planning else { continue }
            let change = GameChange(previous: previous, next: next, event: event.message.event)
            let now = planning.clock.now(event: event.message.at)
            if var stored = targets[gameId] {
                for index in stored.indices {
                    let made = planning.planner.receive(change, for: &stored[index].target, at: now)
                    if made.isEmpty && planning.planner.isHoldingBack(stored[index].target) { effects.coalesced += 1 }
                    effects.pushes += made.map {
                        PlannedPush(stored[index], position: event.position, push: $0)
                    }
                }
                targets[gameId] = stored
            }
            if audience != nil {
                var target = audience!.targets[gameId] ?? .audience(for: next)
                audience!.pushes += planning.planner.receive(change, for: &target, at: now).map { (gameId, $0) }
                audience!.targets[gameId] = target
            }
        }
        effects.states = order.map { (states[$0]!, lastPositions[$0]!) }
        if planning != nil { effects.targets = order.flatMap { targets[$0] ?? [] } }
        return effects
    }
    /// What catching targets up does: their new state and the pushes planned for them.
    public struct FanOut: Sendable, Equatable {
        public var targets: [StoredTarget] = []
        public var pushes: [PlannedPush] = []
        public var coalesced = 0
    }

    /// Catches targets of one game up that were left behind (planned through an earlier position
    /// than the game's): each takes, in order, every change of `history` after the position it was
    /// planned through, up to `position`, exactly as the page would have given it.
    ///
    /// - Parameters:
    ///   - history: the game's stream from its first event (at least through `position`).
    ///   - position: the game's projected position: the targets end planned through it.
    ///   - targets: the behind targets with the position each was planned through.
    /// - Throws: ``StoreError/corruptEvent(position:reason:)`` when the fold refuses a stored event.
    public static func fanOut(
        history: [RecordedEvent], through position: Int, targets: [(target: StoredTarget, planned: Int)],
        planning: Planning
    ) throws(StoreError) -> FanOut {
        let earliest = targets.map(\.planned).min() ?? position
        var changes: [(position: Int, change: GameChange, now: Date)] = []
        var state: ScoreState?
        for event in history where event.position <= position {
            let next: ScoreState
            do {
                next = try ScoreFold.apply(event.message, to: state)
            } catch {
                throw StoreError.corruptEvent(position: event.position, reason: "the fold refuses it: \(error)")
            }
            if event.position > earliest {
                changes.append(
                    (
                        event.position, GameChange(previous: state, next: next, event: event.message.event),
                        planning.clock.now(event: event.message.at)
                    ))
            }
            state = next
        }
        var result = FanOut()
        for (stored, planned) in targets {
            var stored = stored
            for (at, change, now) in changes where at > planned {
                let made = planning.planner.receive(change, for: &stored.target, at: now)
                if made.isEmpty && planning.planner.isHoldingBack(stored.target) { result.coalesced += 1 }
                result.pushes += made.map {
                    PlannedPush(stored, position: at, push: $0)
                }
            }
            result.targets.append(stored)
        }
        return result
    }
}
