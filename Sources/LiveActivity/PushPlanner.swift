import Foundation
import ScoreDomain

/// One accepted change of a game: the state before and after an event.
public struct GameChange: Sendable, Equatable {
    /// The state before the event (`nil` for the game's first event).
    public let previous: ScoreState?
    public let next: ScoreState
    public let event: ScoreEvent
    /// What a phone would show of `next` (a digest of its content state), computed once for all
    /// the targets of the game.
    public let nextContent: UInt64

    public init(previous: ScoreState?, next: ScoreState, event: ScoreEvent) {
        self.previous = previous
        self.next = next
        self.event = event
        self.nextContent = APSPayload.contentDigest(next)
    }
}

/// Who receives a game's pushes, with the state the planner keeps to decide them.
///
/// Every delivery path is a case here and nowhere else: the projection page, the tick scheduler,
/// `replay` and `follow` step targets only through ``PushPlanner``. See docs/throttling.md for how
/// a broadcast channel, a push-to-start device, an FCM-routed activity and an Android follower are
/// added as cases.
public enum PushTarget: Sendable, Equatable {
    /// One Live Activity, reached by its push token (straight to APNs, or through FCM with exactly the
    /// same pushes): throttled per activity.
    case liveActivity(ActivityThrottle)
    /// One Android device following one game (an Android 16 Live Update), reached by FCM data messages.
    case liveUpdate(LiveUpdateThrottle)

    /// An activity registered 15 minutes before the game's first pitch, as a fan who opens the app
    /// before the game would: what `replay` and `follow` print the pushes of.
    public static func audience(for state: ScoreState, frequentUpdates: Bool = false) -> PushTarget {
        .liveActivity(
            ActivityThrottle(
                registeredAt: state.startsAt.addingTimeInterval(-15 * 60), frequentUpdates: frequentUpdates))
    }
}

/// The one push planner: for each target it takes a game's change, or a tick, at a time passed in
/// and returns the pushes due, as values. Pure: no clock, no I/O.
///
/// The rules of each kind of target live with its state (``ActivityThrottle`` for a Live Activity);
/// alert text (``Moment``), strictly increasing timestamps and the payload encoding (``APSPayload``)
/// exist once and serve every target.
public struct PushPlanner: Sendable, Equatable {
    public var policy: ThrottlePolicy

    public init(policy: ThrottlePolicy = ThrottlePolicy()) {
        self.policy = policy
    }

    /// A change of the target's game at `now`: the pushes due by then (a coalesced update whose
    /// interval closed first, then this change's own push if it goes out at once).
    public func receive(_ change: GameChange, for target: inout PushTarget, at now: Date) -> [PlannedMessage] {
        switch target {
        case .liveActivity(var throttle):
            let pushes = throttle.receive(
                previous: change.previous, next: change.next, event: change.event, at: now, policy: policy,
                nextContent: change.nextContent)
            target = .liveActivity(throttle)
            return pushes
        case .liveUpdate(var throttle):
            let pushes = throttle.receive(change, at: now, policy: policy)
            target = .liveUpdate(throttle)
            return pushes
        }
    }

    /// Time alone passed to `now`: the pushes it made due.
    public func tick(_ target: inout PushTarget, at now: Date) -> [PlannedMessage] {
        switch target {
        case .liveActivity(var throttle):
            let pushes = throttle.tick(at: now, policy: policy)
            target = .liveActivity(throttle)
            return pushes
        case .liveUpdate(var throttle):
            let pushes = throttle.tick(at: now, policy: policy)
            target = .liveUpdate(throttle)
            return pushes
        }
    }

    /// Sends what waits for its interval to close, as of the moment it closes: the end of a replay on
    /// the events' own clock, where no later event comes.
    public func flush(_ target: inout PushTarget) -> [PlannedMessage] {
        guard let due = pendingDue(target) else { return [] }
        return tick(&target, at: due)
    }

    /// When ``tick(_:at:)`` must run next for the target, if ever.
    public func nextDeadline(_ target: PushTarget) -> Date? {
        switch target {
        case .liveActivity(let throttle): throttle.nextDeadline(policy: policy)
        case .liveUpdate(let throttle): throttle.nextDeadline
        }
    }

    /// When an update waits for its interval to close, the moment it does.
    public func pendingDue(_ target: PushTarget) -> Date? {
        switch target {
        case .liveActivity(let throttle): throttle.pendingDue
        case .liveUpdate(let throttle): throttle.nextDeadline
        }
    }

    /// Whether the target is done: nothing will ever be sent to it again.
    public func isEnded(_ target: PushTarget) -> Bool {
        switch target {
        case .liveActivity(let throttle): throttle.ended
        case .liveUpdate(let throttle): throttle.ended
        }
    }

    /// Whether the target held this change back to send it with a later update (for metrics).
    public func isHoldingBack(_ target: PushTarget) -> Bool { pendingDue(target) != nil }
}
