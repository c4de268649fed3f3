import ScoreDomain

/// The APNs Live Activity event of a push: `update` while the game goes on, `end` for the final push.
public enum LiveActivityEvent: String, Sendable, Codable {
    case update
    case end
}

/// One push to send for a game: the exact APNs request body plus what the push worker needs to
/// send it (priority, ordering timestamp) and trace it (state version).
public struct LiveActivityCommand: Sendable, Equatable {
    public var gameId: String
    public var event: LiveActivityEvent
    /// `apns-priority`: 10 (immediate, counts against the budget, carries an alert) or 5.
    public var priority: Int
    /// `aps.timestamp` in UNIX seconds; strictly increasing per game.
    public var timestamp: Int
    /// The ``ScoreDomain/ScoreState/version`` that produced the command.
    public var version: Int
    /// The exact APNs request body `{"aps":{…}}`: compact JSON, keys sorted, at most 4096 bytes.
    public var payload: String

    /// Creates a command.
    public init(gameId: String, event: LiveActivityEvent, priority: Int, timestamp: Int, version: Int, payload: String)
    {
        self.gameId = gameId
        self.event = event
        self.priority = priority
        self.timestamp = timestamp
        self.version = version
        self.payload = payload
    }

    /// The command as one compact JSON line with sorted keys and the payload embedded as an object:
    /// `{"event":"update","gameId":"g1","payload":{"aps":{…}},"priority":10,"timestamp":1554145500,"version":7}`.
    public func jsonLine() -> String {
        var line = "{\"event\":"
        JSONValue.writeString(event.rawValue, to: &line)
        line += ",\"gameId\":"
        JSONValue.writeString(gameId, to: &line)
        line += ",\"payload\":" + payload
        line += ",\"priority\":" + String(priority)
        line += ",\"timestamp\":" + String(timestamp)
        line += ",\"version\":" + String(version) + "}"
        return line
    }
}

/// Settings of the ``CommandPlanner``.
public struct PlannerConfig: Sendable, Equatable {
    /// Seconds after an update's timestamp when the phone should show the data as stale (`stale-date`).
    public var staleAfter: Int = 900
    /// Seconds after the end's timestamp when the phone should remove the activity (`dismissal-date`).
    public var dismissAfter: Int = 3600

    /// Creates a configuration; the defaults are 15 minutes to stale and 1 hour to dismissal.
    public init(staleAfter: Int = 900, dismissAfter: Int = 3600) {
        self.staleAfter = staleAfter
        self.dismissAfter = dismissAfter
    }
}
