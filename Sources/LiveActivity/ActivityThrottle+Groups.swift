import Foundation

extension ActivityThrottle {
    /// Nothing received yet: no change, no push. A new registration of the same kind may share it.
    public var isFresh: Bool {
        lastSentAt == nil && lastTimestamp == nil && shown == nil && latest == nil && pending == nil
            && highPriority.isEmpty && !ended
    }

    /// The one state that plans for both this throttle's targets and `other`'s, when their next decisions
    /// are the same: what the phone shows, the last push (its time and timestamp), what waits, frequent
    /// updates, not ended, and registrations at most `span` seconds apart. It keeps the stricter of
    /// what differs: the earlier registration (its 8 hours end first) and the priority-10 pushes of
    /// both (neither's hourly budget is ever exceeded). `nil`: they decide differently.
    public func joined(with other: ActivityThrottle, span: TimeInterval) -> ActivityThrottle? {
        guard !ended, !other.ended, frequentUpdates == other.frequentUpdates, lastSentAt == other.lastSentAt,
            lastTimestamp == other.lastTimestamp, shown == other.shown, latest == other.latest,
            pending == other.pending, abs(registeredAt.timeIntervalSince(other.registeredAt)) <= span
        else { return nil }
        return ActivityThrottle(
            registeredAt: min(registeredAt, other.registeredAt), frequentUpdates: frequentUpdates,
            lastSentAt: lastSentAt, lastTimestamp: lastTimestamp, shown: shown, latest: latest, pending: pending,
            highPriority: Set(highPriority + other.highPriority).sorted(), ended: false)
    }

    /// This state with frequent updates set as the app reports (a target that changes it leaves its group).
    public func with(frequentUpdates: Bool) -> ActivityThrottle {
        var copy = self
        copy.frequentUpdates = frequentUpdates
        return copy
    }
}
