import Foundation
import ScoreDomain

/// Turns a Sportmonks fixture (v3, or an API 2.0 one read into the same form) into messages in game
/// order: the periods its state and events reach, each with its goals, cards and shoot-out kicks, then
/// the stated final (docs/providers.md, "sportmonks-v3" and "sportmonks-v2").
struct SportmonksV3Writer {
    let fixture: SportmonksV3Fixture
    private var out: [FeedMessage] = []
    private var last: Date
    /// The running score of the goals sent so far.
    private var score = (home: 0, away: 0)
    /// The shoot-out's scored kicks so far.
    private var tally = (home: 0, away: 0)

    /// Minutes from the kick-off to the start of each period's clock, beyond the match time: the
    /// half-time break (15), the break before extra time (5) and between its halves (1).
    static let breakMinutes = [1: 0, 2: 15, 3: 20, 4: 21]
    /// The match time each period's clock starts at, in minutes (the shoot-out has no clock).
    static let clockStartMinutes = [1: 0, 2: 45, 3: 90, 4: 105, 5: 120]

    init(fixture: SportmonksV3Fixture) {
        self.fixture = fixture
        last = fixture.startsAt
    }

    /// What the fixture's `state_id` says of the game: the last period reached, whether it has ended and
    /// whether the game has; `nil` before the kick-off. Sportmonks' states: 1 not started, 2 first half,
    /// 3 half-time, 22 second half, 4 break before extra time, 6 extra time, 21 its break, 23 its second
    /// half, 25 break before penalties, 9 penalties, 5 full time, 7 after extra time, 8 after penalties.
    static func state(_ id: Int) -> (period: Int, periodEnded: Bool, final: Bool)?? {
        switch id {
        case 1, 13, 16: .some(nil)
        case 2: (1, false, false)
        case 3: (1, true, false)
        case 22: (2, false, false)
        case 4: (2, true, false)
        case 6: (3, false, false)
        case 21: (3, true, false)
        case 23: (4, false, false)
        case 25: (4, true, false)
        case 9: (5, false, false)
        case 5: (2, true, true)
        case 7: (4, true, true)
        case 8: (5, true, true)
        default: nil
        }
    }

    /// Sends `event` at `at` (never before the message before). Every time is derived from the kick-off
    /// and the match minute (`derived`) but `game.scheduled`'s, the stated `starting_at`.
    private mutating func emit(_ suffix: String, _ at: Date, _ event: ScoreEvent, derived: Bool = true) {
        last = max(last, at)
        out.append(
            FeedMessage(
                id: "\(fixture.format)-\(fixture.fixtureId)-\(suffix)", gameId: fixture.gameId, at: last,
                event: event, atDerived: derived))
    }

    /// The derived instant of match time `ms` in `period`: the kick-off, the breaks before the period and
    /// the match time (docs/providers.md: derived, never going back).
    private func at(period: Int, ms: Int) -> Date {
        fixture.startsAt.addingTimeInterval(Double(Self.breakMinutes[period, default: 26] * 60) + Double(ms) / 1000)
    }

    mutating func messages() throws(ConvertError) -> [FeedMessage] {
        emit(
            "scheduled", fixture.startsAt,
            .gameScheduled(home: fixture.home, away: fixture.away, startsAt: fixture.startsAt, setup: fixture.setup),
            derived: false)
        guard let known = Self.state(fixture.stateId) else {
            throw fixture.stateNode.failure("a state of a game not started, in play or finished expected")
        }
        guard let state = known else {
            guard fixture.events.isEmpty else {
                throw fixture.stateNode.failure("the game has not started, yet the document has events")
            }
            return out
        }
        emit("started", fixture.startsAt, .gameStarted)
        // Periods 1–4 by the minute, 5 the shoot-out; without extra time the shoot-out is sent as period 3.
        var lastPeriod = max(state.period, fixture.events.last?.period ?? 1)
        if state.final && fixture.extraTime && lastPeriod < 4 { lastPeriod = 4 }
        let periods = (1...lastPeriod).filter { $0 <= 2 || $0 == 5 || fixture.extraTime }
        for period in periods {
            let number = period == 5 && !fixture.extraTime ? 3 : period
            try play(period: period, number: number, ends: period != periods.last || state.periodEnded)
        }
        guard state.final else { return out }
        try checkShootout()
        if let current = fixture.scores["CURRENT"], (current.home, current.away) != score {
            // The stated final wins over the events (an events list missing a goal).
            score = (current.home, current.away)
            emit("final-corrected", last, .scoreCorrected(homeScore: current.home, awayScore: current.away))
        }
        emit("ended", last, .gameEnded(.closed))
        return out
    }

    /// Period `period` (`number` as sent): its start, its clock, its events and, when `ends`, its end.
    private mutating func play(period: Int, number: Int, ends: Bool) throws(ConvertError) {
        let clockStart = Self.clockStartMinutes[period, default: 120] * 60_000
        let kind: PeriodKind = period <= 2 ? .regulation : period <= 4 ? .extraTime : .shootout
        let deciding = fixture.setup.rules.deciding(home: score.home, away: score.away)
        if period == 3 && deciding.home != deciding.away {
            // Extra time needs a tie: the match score's, or a second leg's aggregate when the first leg
            // is known (docs/sports.md, `firstLeg`).
            let node = fixture.events.first { $0.period == 3 }?.node["minute"] ?? fixture.stateNode
            let what =
                fixture.setup.rules.firstLeg == nil
                ? "the match score at \(score.home)-\(score.away) and no first leg known"
                : "the aggregate at \(deciding.home)-\(deciding.away)"
            throw node.failure("extra time with \(what): the canonical feed has extra time only for a tie")
        }
        // The shoot-out starts 5 minutes after the last period's end, a kick a minute.
        let start = period == 5 ? last.addingTimeInterval(300) : at(period: period, ms: clockStart)
        emit("period-\(number)-started", start, .periodStarted(period: number, kind: kind))
        if period < 5 { emit("period-\(number)-clock", start, .clockStarted(ms: clockStart)) }
        var kicks = 0
        for event in fixture.events where event.period == period {
            if period == 5 {
                kicks += 1
                try shootoutKick(event, at: start.addingTimeInterval(Double(kicks * 60)))
            } else {
                try play(event, at: at(period: period, ms: event.clockMs))
            }
        }
        guard ends else { return }
        let end =
            period == 5
            ? start.addingTimeInterval(Double(kicks * 60))
            : at(period: period, ms: Self.clockStartMinutes[period + 1, default: 120] * 60_000)
        emit("period-\(number)-ended", end, .periodEnded(period: number))
    }

    /// A goal (14), own goal (15) or scored penalty (16), or a card (19 yellow, 20 red, 21 second
    /// yellow; a rescinded one sends nothing); other events send nothing.
    private mutating func play(_ event: SportmonksV3Event, at: Date) throws(ConvertError) {
        let id = String(event.id)
        switch event.typeId {
        case 14, 15, 16:
            var side = event.side
            if let result = event.result {
                // The stated running score decides: the side it raises by one (an own goal's
                // participant is the side credited), none when it states the score already counted (one
                // goal recorded twice), and a jump is taken with a correction after the goal.
                if result == score { return }
                if result == (score.home + 1, score.away) {
                    side = .home
                } else if result == (score.home, score.away + 1) {
                    side = .away
                }
            }
            let kind: ScoringKind = event.typeId == 14 ? .goal : event.typeId == 15 ? .ownGoal : .penalty
            emit(
                id, at,
                .pointsScored(
                    PointsScored(team: side, points: 1, kind: kind, player: event.player, clockMs: event.clockMs)))
            if side == .home { score.home += 1 } else { score.away += 1 }
            if let result = event.result, result != score {
                score = result
                emit("\(id)-corrected", at, .scoreCorrected(homeScore: result.home, awayScore: result.away))
            }
        case 19, 20, 21:
            guard !event.rescinded else { return }
            let card: Card = event.typeId == 19 ? .yellow : event.typeId == 20 ? .red : .secondYellow
            emit(id, at, .cardShown(team: event.side, card: card, player: event.player, clockMs: event.clockMs))
        default:
            return
        }
    }

    /// A shoot-out kick: `pen_shootout_goal` (23) scored, `pen_shootout_miss` (22) not.
    private mutating func shootoutKick(_ event: SportmonksV3Event, at: Date) throws(ConvertError) {
        let scored = event.typeId == 23
        if scored {
            if event.side == .home { tally.home += 1 } else { tally.away += 1 }
        }
        emit(String(event.id), at, .shootoutAttempt(team: event.side, scored: scored, player: event.player))
    }

    /// The kicks must add up to the stated `PENALTY_SHOOTOUT` tally (the fold counts the shoot-out from
    /// the kicks; a tally without kicks cannot be sent).
    private func checkShootout() throws(ConvertError) {
        guard let stated = fixture.scores["PENALTY_SHOOTOUT"] else { return }
        guard (stated.home, stated.away) == tally else {
            throw stated.node.failure(
                "the shoot-out is \(stated.home)-\(stated.away), the events' kicks make \(tally.home)-\(tally.away)")
        }
    }
}
