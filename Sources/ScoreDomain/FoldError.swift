/// Why ``ScoreFold`` refused a message. The state is left as it was.
///
/// Codes (stable): `game-not-scheduled`, `wrong-game`, `invalid-event`, `game-ended`,
/// `already-started`, `not-started`, `inning-backwards`, `not-in-progress`, `too-many-outs`,
/// `score-out-of-range`, and for the sports (docs/sports.md) `rule-broken`, `unknown-retraction`,
/// `already-retracted`, `not-retractable`. `description` is `code: reason`.
public struct FoldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable machine-readable code.
    public var code: String
    /// A sentence for an operator, e.g. `run.scored needs a game in progress; game "g1" is delayed`.
    public var reason: String

    /// Creates an error.
    public init(code: String, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code): \(reason)" }
}

extension FoldError {
    static func gameNotScheduled(_ message: FeedMessage) -> FoldError {
        FoldError(
            code: "game-not-scheduled",
            reason: "\(message.event.type) for game \"\(message.gameId)\" needs a game.scheduled message first; "
                + "the game is unknown")
    }

    static func wrongGame(_ message: FeedMessage, _ state: ScoreState) -> FoldError {
        FoldError(
            code: "wrong-game",
            reason: "message \"\(message.id)\" is for game \"\(message.gameId)\" "
                + "but was applied to game \"\(state.gameId)\"")
    }

    static func invalidEvent(_ event: ScoreEvent, _ rule: String) -> FoldError {
        FoldError(code: "invalid-event", reason: "\(event.type): \(rule)")
    }

    static func gameEnded(_ event: ScoreEvent, _ state: ScoreState) -> FoldError {
        FoldError(
            code: "game-ended",
            reason: "\(event.type) is not accepted after the end; game \"\(state.gameId)\" is "
                + "\(state.status.rawValue) and only takes score.corrected")
    }

    static func alreadyStarted(_ event: ScoreEvent, _ state: ScoreState) -> FoldError {
        let action: String
        if case .gameScheduled = event { action = "can only re-schedule" } else { action = "needs" }
        return FoldError(
            code: "already-started",
            reason: "\(event.type) \(action) a game that has not started; \(where: state)")
    }

    static func notStarted(_ event: ScoreEvent, _ state: ScoreState, hint: String) -> FoldError {
        FoldError(code: "not-started", reason: "\(describe(event)) needs a started game\(hint); \(where: state)")
    }

    static func inningBackwards(_ inning: Int, _ half: Half, _ state: ScoreState) -> FoldError {
        FoldError(
            code: "inning-backwards",
            reason: "inning.changed to \(half.displayName) \(ScoreState.ordinal(inning)) goes backwards; "
                + "game \"\(state.gameId)\" is at \(state.inning)")
    }

    static func notInProgress(_ event: ScoreEvent, _ state: ScoreState) -> FoldError {
        FoldError(
            code: "not-in-progress",
            reason: "\(event.type) needs a game in progress; game \"\(state.gameId)\" is \(state.status.rawValue)")
    }

    static func tooManyOuts(_ outs: Int, _ state: ScoreState) -> FoldError {
        FoldError(
            code: "too-many-outs",
            reason: "out.recorded of \(outs) would make \(state.outs + outs) outs in \(state.inning) "
                + "of game \"\(state.gameId)\", which already has \(state.outs)")
    }

    static func scoreOutOfRange(_ side: Side, _ score: Int) -> FoldError {
        FoldError(
            code: "score-out-of-range",
            reason: "run.scored would take the \(side.rawValue) score to \(score); scores stop at 999")
    }

    private static func describe(_ event: ScoreEvent) -> String {
        switch event {
        case .statusChanged(let status), .gameEnded(let status): "\(event.type) to \(status.rawValue)"
        default: event.type
        }
    }
}

extension String.StringInterpolation {
    /// `game "g1" is inprogress, Top 3rd`: the part of a fold error that says where the game is.
    fileprivate mutating func appendInterpolation(where state: ScoreState) {
        appendLiteral("game \"\(state.gameId)\" is \(state.status.rawValue), \(state.periodLabel)")
    }
}
