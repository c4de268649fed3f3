import Foundation

/// One push to one Live Activity, decided by an ``ActivityThrottle``.
public struct ActivityPush: Sendable, Equatable {
    /// Why the push goes out now.
    public enum Reason: String, Sendable, Codable {
        /// A change outside the minimum interval, sent at once.
        case immediate
        /// The latest of the changes that arrived inside the interval, sent when it closed.
        case coalesced
        /// The final state, sent at once whatever the interval.
        case final
        /// The activity neared Apple's 8-hour limit and is ended with the current state.
        case lifetime
    }

    public var event: LiveActivityEvent
    /// `apns-priority`: 10 (with an alert for a significant moment) or 5.
    public var priority: Int
    /// `aps.timestamp`, strictly increasing per activity.
    public var timestamp: Int
    /// When the push is due (the virtual clock of the caller): the change's time, or the moment the
    /// interval closed for a coalesced update.
    public var sendAt: Date
    /// `apns-expiration`: after this the push is pointless (the stale or dismissal date).
    public var expiration: Int
    public var reason: Reason
    /// The game state version the push shows.
    public var version: Int
    /// The exact APNs request body `{"aps":{…}}`.
    public var payload: String
}
