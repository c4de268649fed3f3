import Foundation
import ScoreDomain

/// The push throttle of ONE Live Activity: a pure state machine, time passed in.
///
/// - At most one update per ``ThrottlePolicy/minInterval``; changes inside the interval coalesce
///   and the latest state goes out when it closes (trailing edge); nothing goes out when what the
///   phone shows would not change.
/// - Priority 10 with an alert only for moments a fan wants to feel (``Moment``), within an hourly
///   budget; when it is spent those moments go out at priority 5 without an alert, never dropped.
///   In a clock sport the budget's last push of the hour is kept for the end.
/// - The end goes out at once with `dismissal-date`, whatever the interval; nothing after it.
/// - Near Apple's 8-hour limit the activity is ended deliberately with the current state.
/// - Changes from before the registration (on the caller's clock) push nothing.
/// - `timestamp` strictly increases, even for two pushes in the same second.
/// - States are kept without their history lists (``ScoreDomain/ScoreState/withoutHistory``): a push
///   shows none of them, and they would make the stored form of a long game ~25 KB per activity.
public struct ActivityThrottle: Sendable, Equatable, Codable {
    /// An update waiting for the interval to close.
    struct Pending: Sendable, Equatable, Codable {
        var state: ScoreState
        var alertTitle: String?
        var due: Date
    }

    /// When the app registered the activity: changes before it push nothing, and Apple's 8 hours
    /// count from it.
    public let registeredAt: Date
    /// Whether the app asked for frequent updates (ActivityKit's `frequentPushesEnabled`): the hourly
    /// budget of priority-10 pushes follows it at once when it changes.
    public var frequentUpdates: Bool
    private(set) var lastSentAt: Date?
    private(set) var lastTimestamp: Int?
    /// What the phone shows since the last push: a digest of its content state (equal: nothing to send).
    private(set) var shown: UInt64?
    private(set) var latest: ScoreState?
    private(set) var pending: Pending?
    /// Times of the priority-10 pushes of the last hour.
    private(set) var highPriority: [Date] = []
    /// `true` once the end went out: nothing more is sent.
    public private(set) var ended = false

    public init(registeredAt: Date, frequentUpdates: Bool) {
        self.registeredAt = registeredAt
        self.frequentUpdates = frequentUpdates
    }

    /// Every stored field (``init(storageText:)`` reads them back).
    init(
        registeredAt: Date, frequentUpdates: Bool, lastSentAt: Date?, lastTimestamp: Int?, shown: UInt64?,
        latest: ScoreState?, pending: Pending?, highPriority: [Date], ended: Bool
    ) {
        self.registeredAt = registeredAt
        self.frequentUpdates = frequentUpdates
        self.lastSentAt = lastSentAt
        self.lastTimestamp = lastTimestamp
        self.shown = shown
        self.latest = latest
        self.pending = pending
        self.highPriority = highPriority
        self.ended = ended
    }

    /// Takes one accepted change of the game and returns the pushes due by `now`.
    ///
    /// - Parameter nextContent: ``APSPayload/contentDigest(_:)`` of `next`, when the caller computed
    ///   it once for the many activities of a game.
    public mutating func receive(
        previous: ScoreState?, next: ScoreState, event: ScoreEvent, at now: Date, policy: ThrottlePolicy,
        nextContent: UInt64? = nil
    ) -> [PlannedMessage] {
        let nextContent = nextContent ?? APSPayload.contentDigest(next)
        var pushes = tick(at: now, policy: policy)
        guard !ended else { return pushes }
        // What a push shows needs none of the history lists (a long game's make a state ~25 KB).
        let kept = next.withoutHistory
        latest = kept
        // The activity did not exist yet (on the clock the caller runs on): remember, send nothing.
        guard now >= registeredAt else { return pushes }
        let title = Moment.alertTitle(previous: previous, next: next, event: event)
        if case .gameEnded = event {
            pending = nil
            pushes.append(
                send(
                    kept, event: .end, alertTitle: title, at: now, reason: .final, policy: policy,
                    content: nextContent))
            return pushes
        }
        if let waiting = pending {
            pending = Pending(state: kept, alertTitle: title ?? waiting.alertTitle, due: waiting.due)
            return pushes
        }
        guard shown != nextContent else { return pushes }
        if let lastSentAt, now < lastSentAt.addingTimeInterval(Double(policy.minInterval)) {
            pending = Pending(
                state: kept, alertTitle: title, due: lastSentAt.addingTimeInterval(Double(policy.minInterval)))
            return pushes
        }
        pushes.append(
            send(
                kept, event: .update, alertTitle: title, at: now, reason: .immediate, policy: policy,
                content: nextContent))
        return pushes
    }

    /// Returns the pushes that became due by `now` without a new change: a coalesced update whose
    /// interval closed (sent as of that moment), or the deliberate end before the 8-hour limit.
    public mutating func tick(at now: Date, policy: ThrottlePolicy) -> [PlannedMessage] {
        var pushes: [PlannedMessage] = []
        guard !ended else { return pushes }
        if let waiting = pending, waiting.due <= now {
            pending = nil
            if shown != APSPayload.contentDigest(waiting.state) {
                pushes.append(
                    send(
                        waiting.state, event: .update, alertTitle: waiting.alertTitle, at: waiting.due,
                        reason: .coalesced, policy: policy))
            }
        }
        if let limit = lifetimeLimit(policy), now >= limit, let latest {
            pending = nil
            pushes.append(
                send(
                    latest, event: .end, alertTitle: nil, at: max(limit, lastSentAt ?? limit),
                    reason: .lifetime, policy: policy))
        }
        return pushes
    }

    /// When ``tick(at:policy:)`` must run next, if ever: a pending update's due time or the
    /// lifetime limit, whichever comes first.
    public func nextDeadline(policy: ThrottlePolicy) -> Date? {
        guard !ended else { return nil }
        switch (pending?.due, lifetimeLimit(policy)) {
        case (let due?, let limit?): return min(due, limit)
        case (let due?, nil): return due
        case (nil, let limit): return limit
        }
    }

    /// When a coalesced update waits for its interval to close, the moment it does.
    public var pendingDue: Date? { ended ? nil : pending?.due }

    private func lifetimeLimit(_ policy: ThrottlePolicy) -> Date? {
        guard latest != nil else { return nil }
        return registeredAt.addingTimeInterval(Double(policy.lifetime - policy.lifetimeMargin))
    }

    private mutating func send(
        _ state: ScoreState, event: LiveActivityEvent, alertTitle: String?, at time: Date,
        reason: PlannedMessage.Reason, policy: ThrottlePolicy, content: UInt64? = nil
    ) -> PlannedMessage {
        highPriority.removeAll { $0 <= time.addingTimeInterval(-3600) }
        let budget = frequentUpdates ? policy.frequentHourlyBudget : policy.hourlyBudget
        // A clock sport keeps the hour's last one for the final: a close basketball game's last
        // minutes (lead changes, ties, overtime) could spend them all. Baseball's rule is unchanged.
        let reserve = event == .end || state.sport == .baseball ? 0 : 1
        let urgent = (alertTitle != nil || event == .end) && highPriority.count < budget - reserve
        if urgent { highPriority.append(time) }
        let second = Int(time.timeIntervalSince1970.rounded(.down))
        let timestamp = lastTimestamp.map { max(second, $0 + 1) } ?? second
        let payload = APSPayload(
            state: state, event: event, timestamp: timestamp, alertTitle: urgent ? alertTitle : nil,
            staleAfter: policy.staleAfter, dismissAfter: policy.dismissAfter, relevanceScore: Moment.relevance(state))
        lastSentAt = time
        lastTimestamp = timestamp
        shown = content ?? APSPayload.contentDigest(state)
        if event == .end { ended = true }
        return PlannedMessage(
            event: event, priority: urgent ? 10 : 5, timestamp: timestamp, sendAt: time,
            expiration: event == .end
                ? timestamp + policy.dismissAfter
                : APSPayload.staleDate(state, timestamp: timestamp, staleAfter: policy.staleAfter), reason: reason,
            version: state.version, payload: payload.json())
    }
}
