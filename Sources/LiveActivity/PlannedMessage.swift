import Foundation
import ScoreDomain

/// The APNs Live Activity event of a push: `update` while the game goes on, `end` for the final push.
public enum LiveActivityEvent: String, Sendable, Codable {
    case update
    case end
}

/// One message the planner decided for one target: a Live Activity push or a broadcast, decided by an
/// ``ActivityThrottle`` (its payload an APNs body), or an Android follower's Live Update, decided by a
/// ``LiveUpdateThrottle`` (its payload the FCM data message).
public struct PlannedMessage: Sendable, Equatable {
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
    /// `apns-priority`: 10 (with an alert for a significant moment) or 5; a Live Update's is always 10.
    public var priority: Int
    /// `aps.timestamp`, strictly increasing per target; a Live Update's `seq` (milliseconds).
    public var timestamp: Int
    /// When the push is due (the virtual clock of the caller): the change's time, or the moment the
    /// interval closed for a coalesced update.
    public var sendAt: Date
    /// `apns-expiration`: after this the push is pointless (the stale or dismissal date).
    public var expiration: Int
    public var reason: Reason
    /// The game state version the push shows.
    public var version: Int
    /// The exact request body: APNs' `{"aps":{…}}`, or a Live Update's FCM data (``LiveUpdate/json(_:seq:event:)``).
    public var payload: String

    public init(
        event: LiveActivityEvent, priority: Int, timestamp: Int, sendAt: Date, expiration: Int, reason: Reason,
        version: Int, payload: String
    ) {
        self.event = event
        self.priority = priority
        self.timestamp = timestamp
        self.sendAt = sendAt
        self.expiration = expiration
        self.reason = reason
        self.version = version
        self.payload = payload
    }

    /// The push's fields as compact JSON members in sorted key order, the payload embedded as an
    /// object: `"event":"update","expiration":…,"payload":{"aps":{…}},"priority":10,"reason":"immediate","timestamp":…`.
    /// `replay` prints `{"gameId":…,` + these + `}`; the golden files put the activity first.
    public var jsonMembers: String {
        var out = "\"event\":"
        JSONValue.writeString(event.rawValue, to: &out)
        out += ",\"expiration\":\(expiration),\"payload\":" + payload + ",\"priority\":\(priority),\"reason\":"
        JSONValue.writeString(reason.rawValue, to: &out)
        out += ",\"timestamp\":\(timestamp)"
        return out
    }

    /// One JSON line for `replay` and `follow`: `{"gameId":"…",` + ``jsonMembers`` + `}`.
    public func jsonLine(gameId: String) -> String {
        var out = "{\"gameId\":"
        JSONValue.writeString(gameId, to: &out)
        return out + "," + jsonMembers + "}"
    }
}
