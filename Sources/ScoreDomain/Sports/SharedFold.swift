/// The parts of the fold every sport shares: re-scheduling, the start's and an interim status's
/// checks, `event.retracted`, `score.corrected` and the shoot-out's result.
enum SharedFold {
    /// `game.scheduled` again: new teams, time, sport and rules, only before the start.
    static func reschedule(_ event: ScoreEvent, started: Bool, in state: inout ScoreState) throws(FoldError) {
        guard case .gameScheduled(let home, let away, let startsAt, let setup) = event else { return }
        guard state.status == .scheduled, !started else { throw .alreadyStarted(event, state) }
        state.reschedule(home: home, away: away, startsAt: startsAt, setup: setup)
    }

    /// `game.started`: once, from scheduled or a pre-game delay; the game goes in progress.
    static func start(_ event: ScoreEvent, started: Bool, in state: inout ScoreState) throws(FoldError) {
        guard !started, state.status == .scheduled || state.status == .delayed else {
            throw .alreadyStarted(event, state)
        }
        state.status = .inprogress
    }

    /// `status.changed`: only a delay before the start.
    static func changeStatus(
        to status: GameStatus, _ event: ScoreEvent, started: Bool, in state: inout ScoreState
    ) throws(FoldError) {
        if !started && status != .delayed {
            throw .notStarted(event, state, hint: status == .inprogress ? " (send game.started)" : "")
        }
        state.status = status
    }

    /// Takes back the scoring play, card or shoot-out attempt with message id `id`: the game as if it
    /// had not happened (score, scoring list with its running scores, red cards, shoot-out tally).
    static func retract(_ id: String, in state: inout ScoreState) throws(FoldError) {
        if state.retracted.last(where: { $0 == id }) != nil { throw .alreadyRetracted(id, state) }
        if let play = state.scoring.last(where: { $0.id == id }) {
            guard play.kind != .correction else { throw .notRetractable(id, state) }
            let change = play.change
            state.homeScore = max(0, state.homeScore - change.home)
            state.awayScore = max(0, state.awayScore - change.away)
            var kept = Chain<ScoringPlay>()
            var after = false
            for var entry in state.scoring.elements {
                guard entry.id != id else {
                    after = true
                    continue
                }
                if after {
                    entry.homeScore -= change.home
                    entry.awayScore -= change.away
                }
                kept.append(entry)
            }
            state.scoring = kept
        } else if let card = state.cards.last(where: { $0.id == id }) {
            state.cards = Chain(state.cards.elements.filter { $0.id != id })
            if card.card.sendsOff { state.redCards[card.side] = max(0, state.redCards[card.side] - 1) }
        } else if let attempt = state.shootoutAttempts.last(where: { $0.id == id }) {
            let bonusBefore = shootoutBonus(state)
            state.shootoutAttempts = Chain(state.shootoutAttempts.elements.filter { $0.id != id })
            if attempt.scored, var tally = state.shootout {
                tally[attempt.side] -= 1
                state.shootout = tally
            }
            resettle(from: bonusBefore, in: &state)
        } else {
            throw .unknownRetraction(id, state)
        }
        state.retracted.append(id)
    }

    /// `score.corrected`: the absolute scores, their change in the current period's scoring list (in a
    /// shoot-out, which the line score leaves out, in the period before it).
    static func correct(home: Int, away: Int, id: String, in state: inout ScoreState) {
        let change = (home: home - state.homeScore, away: away - state.awayScore)
        state.homeScore = home
        state.awayScore = away
        guard change.home != 0 || change.away != 0 else { return }
        let inPlay = state.inPlayScore
        var period = state.sport == .baseball ? state.inningNumber : state.periodNumber
        if state.sport != .baseball && state.rules.kind(ofPeriod: period, sport: state.sport) == .shootout {
            period -= 1
        }
        state.scoring.append(
            ScoringPlay(
                id: id, period: period, clock: nil,
                side: nil, points: 0, kind: .correction, player: nil, homeChange: change.home,
                awayChange: change.away, homeScore: inPlay.home, awayScore: inPlay.away))
    }

    /// The side a hockey shoot-out gives one goal in the final (NHL), if any: once the game is closed.
    static func shootoutBonus(_ state: ScoreState) -> Side? {
        guard state.sport == .hockey, state.status == .closed, let tally = state.shootout, tally.home != tally.away
        else { return nil }
        return tally.home > tally.away ? .home : .away
    }

    /// After a shoot-out's result changed: takes back the goal the old winner got, gives the new one.
    static func resettle(from before: Side?, in state: inout ScoreState) {
        let after = shootoutBonus(state)
        guard before != after else { return }
        if let before { state[score: before] -= 1 }
        if let after { state[score: after] += 1 }
    }
}

extension ScoreState {
    /// The score of `side`.
    subscript(score side: Side) -> Int {
        get { side == .home ? homeScore : awayScore }
        set { if side == .home { homeScore = newValue } else { awayScore = newValue } }
    }
}
