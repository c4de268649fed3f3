/// The lifecycle status of a game. Raw values are the strings used on the wire and in push payloads.
public enum GameStatus: String, Sendable, Codable, CaseIterable {
    case scheduled
    case inprogress
    case delayed
    case suspended
    case closed
    case cancelled
    case postponed

    /// `true` for the final statuses `closed`, `cancelled` and `postponed`: after these only
    /// `score.corrected` is accepted for the game.
    public var isEnded: Bool {
        switch self {
        case .closed, .cancelled, .postponed: true
        case .scheduled, .inprogress, .delayed, .suspended: false
        }
    }

    /// Statuses a `status.changed` message may carry: `inprogress`, `delayed`, `suspended`.
    public var isInterimStatus: Bool {
        switch self {
        case .inprogress, .delayed, .suspended: true
        case .scheduled, .closed, .cancelled, .postponed: false
        }
    }
}
