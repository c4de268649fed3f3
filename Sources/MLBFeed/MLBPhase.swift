import ScoreDomain

/// The phase of a game as the canonical model sees it, read from `gameData.status`.
public enum MLBPhase: String, Sendable, Equatable, CaseIterable {
    /// Scheduled, Pre-Game, Warmup: not started.
    case scheduled
    /// In Progress (also Manager challenge, Umpire review …).
    case inProgress
    /// Delayed (before the start: Delayed Start).
    case delayed
    /// Suspended.
    case suspended
    /// Final, Game Over, Completed Early.
    case final
    /// Postponed.
    case postponed
    /// Cancelled.
    case cancelled

    /// The phase of a status: by `detailedState` first (its leading words, so `Delayed: Rain` is
    /// delayed), else by `codedGameState`, else by `abstractGameState`.
    public init(_ status: MLBSnapshot.Status) {
        if let phase = MLBPhase(detailedState: status.detailedState) {
            self = phase
        } else if let code = status.codedGameState, let phase = MLBPhase(codedGameState: code) {
            self = phase
        } else {
            switch status.abstractGameState {
            case "Live": self = .inProgress
            case "Final": self = .final
            default: self = .scheduled
            }
        }
    }

    /// Whether the status is the official end: `Final` (code `F`), `Completed Early`, postponed or
    /// cancelled, rather than `Game Over` (code `O`), after which the scorers may still correct plays
    /// before the game turns Final.
    public static func isOfficialEnd(_ status: MLBSnapshot.Status) -> Bool {
        let phase = MLBPhase(status)
        guard phase == .final else { return phase == .postponed || phase == .cancelled }
        let state = status.detailedState.lowercased()
        if state.hasPrefix("game over") { return false }
        if state.hasPrefix("final") || state.hasPrefix("completed early") { return true }
        return status.codedGameState != "O"
    }

    private init?(detailedState: String) {
        let state = detailedState.lowercased()
        let table: [(prefix: String, phase: MLBPhase)] = [
            ("postponed", .postponed), ("cancelled", .cancelled), ("canceled", .cancelled),
            ("suspended", .suspended), ("delayed", .delayed), ("final", .final), ("game over", .final),
            ("completed early", .final), ("scheduled", .scheduled), ("pre-game", .scheduled),
            ("warmup", .scheduled), ("in progress", .inProgress), ("manager challenge", .inProgress),
            ("umpire review", .inProgress),
        ]
        guard let match = table.first(where: { state.hasPrefix($0.prefix) }) else { return nil }
        self = match.phase
    }

    private init?(codedGameState: String) {
        switch codedGameState {
        case "S", "P": self = .scheduled
        case "I", "M", "N": self = .inProgress
        case "D": self = .postponed
        case "C": self = .cancelled
        case "T", "U": self = .suspended
        case "F", "O": self = .final
        default: return nil
        }
    }
}
