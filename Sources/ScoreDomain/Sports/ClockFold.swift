import Foundation

/// The fold of the clock sports (soccer, basketball, hockey, football): periods, the clock anchor,
/// scoring plays, shoot-outs, cards and downs, by the game's ``GameRules``. What differs per sport
/// (the scoring kinds, which events it has, how its clock counts and reads) is in ``SportRules``.
/// Pure: state + event → state or a refusal.
enum ClockFold {
    static func apply(_ message: FeedMessage, to state: inout ScoreState) throws(FoldError) {
        let event = message.event
        let at = message.at
        let started = state.periodNumber >= 1
        switch event {
        case .gameScheduled:
            try SharedFold.reschedule(event, started: started, in: &state)

        case .gameStarted:
            try SharedFold.start(event, started: started, in: &state)
            begin(period: 1, at: at, in: &state)

        case .inningChanged, .runScored, .outRecorded, .basesChanged:
            throw .otherSport(event, state)

        case .periodStarted(let period, let kind):
            guard started else { throw .notStarted(event, state, hint: " (send game.started)") }
            guard state.status == .inprogress else { throw .notInProgress(event, state) }
            try startPeriod(period, kind: kind, event: event, at: at, in: &state)

        case .periodEnded(let period):
            guard started else { throw .notStarted(event, state, hint: "") }
            guard period == state.periodNumber, !state.periodEnded else {
                throw .ruleBroken(event, state, "period \(period) is not the period being played")
            }
            state.periodEnded = true
            stopClock(at: at, atEnd: true, in: &state)

        case .clockSet(let ms):
            try requireClock(event, &state)
            sync(ms, at: at, in: &state)

        case .clockStarted(let ms):
            let clock = try requireClock(event, &state)
            guard !state.periodEnded else { throw .ruleBroken(event, state, "the period has ended") }
            if clock.running {
                sync(ms, at: at, in: &state)
            } else {
                state.clock = GameClock(at: at, ms: ms ?? clock.ms, running: true, countsDown: clock.countsDown)
            }

        case .clockStopped(let ms):
            let clock = try requireClock(event, &state)
            if clock.running {
                state.clock = GameClock(
                    at: at, ms: ms ?? clock.value(at: at), running: false, countsDown: clock.countsDown)
            } else {
                sync(ms, at: at, in: &state)
            }

        case .pointsScored(let play):
            try score(play, id: message.id, event: event, at: at, in: &state)

        case .shootoutAttempt(let team, let scored, let player):
            guard state.rules.shootout else {
                throw .ruleBroken(event, state, "the rules of \(state.rules.competition) have no shoot-out")
            }
            guard currentKind(state) == .shootout, !state.periodEnded else {
                throw .ruleBroken(event, state, "a shoot-out attempt needs the shoot-out period")
            }
            var tally = state.shootout ?? SideTally()
            if scored { tally[team] += 1 }
            state.shootout = tally
            state.shootoutAttempts.append(ShootoutAttempt(id: message.id, side: team, scored: scored, player: player))

        case .cardShown(let team, let card, let player, let ms):
            guard state.sport == .soccer else { throw .otherSport(event, state) }
            guard started else { throw .notStarted(event, state, hint: "") }
            sync(ms, at: at, in: &state)
            let clock = SportRules.clockText(ms, at: at, in: state)
            state.cards.append(
                CardShown(
                    id: message.id, side: team, card: card, player: player, period: state.periodNumber, clock: clock))
            if card.sendsOff { state.redCards[team] += 1 }

        case .situationChanged(let situation, _, let ms):
            guard state.sport == .football else { throw .otherSport(event, state) }
            guard started else { throw .notStarted(event, state, hint: "") }
            sync(ms, at: at, in: &state)
            state.situation = situation

        case .retracted(let id, _):
            try SharedFold.retract(id, in: &state)

        case .scoreCorrected(let homeScore, let awayScore):
            SharedFold.correct(home: homeScore, away: awayScore, id: message.id, in: &state)

        case .statusChanged(let status):
            try SharedFold.changeStatus(to: status, event, started: started, in: &state)

        case .gameEnded(let status):
            if status == .closed {
                guard started else {
                    throw .notStarted(event, state, hint: " (use cancelled or postponed before the start)")
                }
                try requireDecided(event, state)
            }
            state.status = status
            if started {
                state.periodEnded = true
                stopClock(at: at, atEnd: false, in: &state)
            }
            SharedFold.resettle(from: nil, in: &state)
        }
    }

    /// `period.started`: the next period, if the rules have it and the score lets it be played.
    private static func startPeriod(
        _ period: Int, kind: PeriodKind?, event: ScoreEvent, at: Date, in state: inout ScoreState
    ) throws(FoldError) {
        let rules = state.rules
        if kind == .shootout && !rules.shootout {
            throw .ruleBroken(event, state, "the rules of \(rules.competition) have no shoot-out")
        }
        if period == state.periodNumber && !state.periodEnded {
            if let kind, kind != currentKind(state) {
                throw .ruleBroken(event, state, "period \(period) is \(currentKind(state)?.rawValue ?? "none")")
            }
            return
        }
        guard period == state.periodNumber + 1 else {
            throw .ruleBroken(event, state, "period \(period) cannot follow period \(state.periodNumber)")
        }
        guard let ruleKind = rules.kind(ofPeriod: period, sport: state.sport) else {
            throw .ruleBroken(event, state, "the rules of \(rules.competition) have no period \(period)")
        }
        if let kind, kind != ruleKind {
            throw .ruleBroken(
                event, state,
                "period \(period) is \(ruleKind.rawValue) under \(rules.competition), not \(kind.rawValue)")
        }
        // Each overtime (and a shoot-out) needs a tie; soccer's second half of extra time is played anyway.
        // A second leg's tie is the aggregate's.
        let secondHalfOfExtraTime = ruleKind == .extraTime && (period - rules.periods) % 2 == 0
        let deciding = rules.deciding(home: state.homeScore, away: state.awayScore)
        if ruleKind != .regulation && !secondHalfOfExtraTime && deciding.home != deciding.away {
            let what = rules.firstLeg == nil ? "the score" : "the aggregate"
            throw .ruleBroken(
                event, state, "no \(ruleKind.rawValue): \(what) is \(deciding.home)-\(deciding.away), not tied")
        }
        begin(period: period, at: at, in: &state)
    }

    /// Period `period` begins: its clock set to its start, stopped.
    private static func begin(period: Int, at: Date, in state: inout ScoreState) {
        state.periodNumber = period
        state.periodEnded = false
        state.clock = state.rules.clockStart(ofPeriod: period, sport: state.sport).map {
            GameClock(at: at, ms: $0, running: false, countsDown: state.sport.clockCountsDown)
        }
        if currentKind(state) == .shootout && state.shootout == nil { state.shootout = SideTally() }
    }

    /// `points.scored`: during a running period that is not a shoot-out, a kind of the sport.
    private static func score(
        _ play: PointsScored, id: String, event: ScoreEvent, at: Date, in state: inout ScoreState
    ) throws(FoldError) {
        guard state.periodNumber >= 1 else { throw .notStarted(event, state, hint: " (send game.started)") }
        guard state.status == .inprogress else { throw .notInProgress(event, state) }
        let kinds = ScoringKind.scored(in: state.sport)
        guard kinds.contains(play.kind) else {
            throw .ruleBroken(
                event, state,
                "\(play.kind.rawValue) is not a way to score in \(state.sport.rawValue) ("
                    + kinds.map(\.rawValue).joined(separator: ", ") + ")")
        }
        guard play.points == play.kind.points else {
            throw .ruleBroken(event, state, "a \(play.kind.rawValue) is worth \(play.kind.points), not \(play.points)")
        }
        guard !state.periodEnded else {
            throw .ruleBroken(event, state, "period \(state.periodNumber) has ended; send period.started first")
        }
        guard currentKind(state) != .shootout else {
            throw .ruleBroken(event, state, "in a shoot-out, send shootout.attempt")
        }
        guard state[score: play.team] + play.points <= 999 else {
            throw .scoreOutOfRange(play.team, state[score: play.team] + play.points)
        }
        sync(play.clockMs, at: at, in: &state)
        state[score: play.team] += play.points
        let inPlay = state.inPlayScore
        state.scoring.append(
            ScoringPlay(
                id: id, period: state.periodNumber, clock: SportRules.clockText(play.clockMs, at: at, in: state),
                side: play.team, points: play.points, kind: play.kind, player: play.player, homeScore: inPlay.home,
                awayScore: inPlay.away))
    }

    /// A closed game must have a winner unless the rules let a tie stand; a shoot-out decides one.
    private static func requireDecided(_ event: ScoreEvent, _ state: ScoreState) throws(FoldError) {
        let deciding = state.rules.deciding(home: state.homeScore, away: state.awayScore)
        guard deciding.home == deciding.away, !state.rules.tieStands else { return }
        if let tally = state.shootout, tally.home != tally.away { return }
        throw .ruleBroken(
            event, state, "a tie does not stand under \(state.rules.competition): play overtime or a shoot-out")
    }

    /// The clock of the current period, or a refusal when it has none.
    @discardableResult
    private static func requireClock(_ event: ScoreEvent, _ state: inout ScoreState) throws(FoldError) -> GameClock {
        guard state.periodNumber >= 1 else { throw .notStarted(event, state, hint: " (send game.started)") }
        guard let clock = state.clock else {
            throw .ruleBroken(event, state, "period \(state.periodNumber) is not played against a clock")
        }
        return clock
    }

    /// A provider's clock `ms` at `at`: within the tolerance of what the anchor predicts, the anchor
    /// stays (nothing new to push); farther off, the clock is re-anchored (a jump).
    /// A stopped clock does not drift: any other value there is a correction, taken as it is.
    private static func sync(_ ms: Int?, at: Date, in state: inout ScoreState) {
        guard let ms, var clock = state.clock else { return }
        if clock.running {
            guard abs(clock.value(at: at) - ms) > state.rules.clockToleranceMs else { return }
        } else {
            guard clock.ms != ms else { return }
        }
        clock.at = at
        clock.ms = ms
        state.clock = clock
    }

    /// Stops the clock at `at`; at a period's end a countdown shows 0:00.
    private static func stopClock(at: Date, atEnd: Bool, in state: inout ScoreState) {
        guard let clock = state.clock else { return }
        let ms = atEnd && clock.countsDown ? 0 : clock.value(at: at)
        guard clock.running || clock.ms != ms else { return }
        state.clock = GameClock(at: at, ms: ms, running: false, countsDown: clock.countsDown)
    }

    private static func currentKind(_ state: ScoreState) -> PeriodKind? {
        state.rules.kind(ofPeriod: state.periodNumber, sport: state.sport)
    }
}

/// What differs per sport beyond the events it has: how its clock reads in a scoring list.
enum SportRules {
    /// The clock of a play as the sport shows it: soccer's match minute (`"53'"`, `"45+2'"`), else the
    /// period's time left (`"4:32"`); the provider's value when given, else the anchor's; `nil` unknown.
    static func clockText(_ given: Int?, at: Date, in state: ScoreState) -> String? {
        guard let ms = given ?? state.clock?.value(at: at) else { return nil }
        if state.sport == .soccer {
            return GameClock.matchMinute(ms, periodEndMinute: state.rules.periodEndMinutes(state.periodNumber))
        }
        return GameClock.display(ms, countsDown: true)
    }
}
