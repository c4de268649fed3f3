extension FoldError {
    /// A clock sport's rule broken (`rule-broken`): `reason` says which.
    static func ruleBroken(_ event: ScoreEvent, _ state: ScoreState, _ reason: String) -> FoldError {
        FoldError(
            code: "rule-broken",
            reason: "\(event.type): \(reason); game \"\(state.gameId)\" (\(state.sport.rawValue), "
                + "\(state.rules.competition)) is \(state.status.rawValue), \(state.periodLabel)")
    }

    /// An event of another sport (`rule-broken`).
    static func otherSport(_ event: ScoreEvent, _ state: ScoreState) -> FoldError {
        ruleBroken(event, state, "not an event of \(state.sport.rawValue) (docs/sports.md)")
    }

    static func unknownRetraction(_ id: String, _ state: ScoreState) -> FoldError {
        FoldError(
            code: "unknown-retraction",
            reason: "event.retracted names \"\(id)\", which is no scoring play, shoot-out attempt or card of "
                + "game \"\(state.gameId)\"")
    }

    static func alreadyRetracted(_ id: String, _ state: ScoreState) -> FoldError {
        FoldError(
            code: "already-retracted",
            reason: "event.retracted names \"\(id)\", which game \"\(state.gameId)\" has already taken back")
    }

    static func notRetractable(_ id: String, _ state: ScoreState) -> FoldError {
        FoldError(
            code: "not-retractable",
            reason: "event.retracted names \"\(id)\", a score.corrected of game \"\(state.gameId)\": "
                + "send another score.corrected instead")
    }
}
