import Foundation
import ScoreDomain

/// Turns the match's timeline into messages, in the timeline's order.
struct SportradarSoccerWriter {
    let game: SportradarSoccerGame
    private var out: [FeedMessage] = []
    private var started = false
    private var period = 0
    private var periodEnded = false
    private var ended = false
    /// The running score the `score_change` events have stated so far.
    private var score = (home: 0, away: 0)
    /// The shoot-out's tally so far.
    private var shootout = (home: 0, away: 0)
    /// The ids of the goals sent, per side, latest last (a running score that goes down retracts them).
    private var goals: [Side: [String]] = [.home: [], .away: []]
    /// Whether the time of the messages being sent is derived (docs/providers.md, "Time"): not the
    /// event's own `time` (none, or clamped between its neighbours' times), the end the status gives
    /// after the last event, or a `game.scheduled` at the first event's time (no `scheduled`).
    private var derived = false

    /// `sportradar-soccer-<game id>-`, the start of every message id.
    private let idPrefix: String

    init(game: SportradarSoccerGame) {
        self.game = game
        idPrefix = "\(SportradarSoccer.name)-\(game.gameId)-"
    }

    private mutating func emit(_ suffix: String, _ at: Date, _ event: ScoreEvent) {
        out.append(FeedMessage(id: idPrefix + suffix, gameId: game.gameId, at: at, event: event, atDerived: derived))
    }

    /// Each event's `at`: its `time`, but never after a later event's (an event entered late, such as
    /// substitutions and cards typed in hours after the match, takes the earliest later time) and never
    /// before the one before it; derived when that is not its own `time`.
    private func times() throws(ConvertError) -> [(at: Date, derived: Bool)] {
        var given: [Date?] = []
        for event in game.events { given.append(try event.optionalInstant("time")) }
        var latest = Date.distantFuture
        var bound: [Date] = Array(repeating: .distantFuture, count: given.count)
        for index in given.indices.reversed() {
            if let time = given[index] { latest = min(latest, time) }
            bound[index] = latest
        }
        var last = game.startsAt
        var result: [(at: Date, derived: Bool)] = []
        for index in given.indices {
            if let time = given[index] { last = max(last, min(time, bound[index])) }
            result.append((last, last != given[index]))
        }
        return result
    }

    mutating func messages() throws(ConvertError) -> [FeedMessage] {
        derived = !game.startsAtStated
        emit(
            "scheduled", game.startsAt,
            .gameScheduled(home: game.home, away: game.away, startsAt: game.startsAt, setup: game.setup))
        let times = try times()
        let nextStated = try nextStatedScores()
        var last = game.startsAt
        for index in game.events.indices {
            let node = game.events[index]
            (last, derived) = times[index]
            let at = last
            let id = String(try eventId(node))
            let type = game.types[index]
            if let card = SportradarSoccer.card(type) {
                try cardShown(node, card: card, id: id, at: at)
                continue
            }
            switch type {
            case "match_started":
                start(at: at)
            case "period_start":
                try periodStart(node, id: id, at: at)
            case "break_start", "period_score":
                if started && !periodEnded && period != game.shootoutPeriod { endPeriod(id, at) }
            case "score_change":
                try scoreChange(node, id: id, at: at, next: nextStated[index])
            case "penalty_shootout":
                try shootoutKick(node, id: id, at: at)
            case "match_ended":
                try end(id: id, at: at)
            default:
                break
            }
        }
        // The end the status gives keeps the last event's time.
        derived = true
        if let status = game.status {
            try official(status, at: last)
            if !ended {
                let state = try status.string("status")
                if started && ["closed", "ended", "complete"].contains(state) {
                    try end(id: "ended", at: last)
                } else if !started && state == "postponed" {
                    emit("ended", last, .gameEnded(.postponed))
                } else if !started && ["cancelled", "abandoned"].contains(state) {
                    emit("ended", last, .gameEnded(.cancelled))
                }
            }
        }
        return out
    }

    private func eventId(_ node: DocumentNode) throws(ConvertError) -> Int {
        try node.int("id")
    }

    /// `sport_event_status.home_score`/`away_score` is the match's official score (extra time in, the
    /// shoot-out and a two-legged tie's aggregate out): a running score that ends elsewhere is corrected to it.
    private mutating func official(_ status: DocumentNode, at: Date) throws(ConvertError) {
        guard let home = try status.optionalInt("home_score") else { return }
        let away = try status.int("away_score")
        guard started, (home, away) != score else { return }
        emit("corrected", at, .scoreCorrected(homeScore: home, awayScore: away))
        score = (home, away)
    }

    /// The game's start: `game.started` (period 1) when not sent.
    private mutating func start(at: Date) {
        guard !started else { return }
        emit("started", at, .gameStarted)
        started = true
        period = 1
        periodEnded = false
    }

    private mutating func endPeriod(_ id: String, _ at: Date) {
        emit("\(id)-period-ended", at, .periodEnded(period: period))
        periodEnded = true
    }

    /// `period_start`: the period (the one before ended first), and its clock at the match time it starts at.
    private mutating func periodStart(_ node: DocumentNode, id: String, at: Date) throws(ConvertError) {
        let (number, kind) = try game.period(node)
        start(at: at)
        guard number >= period else {
            throw node["period"].failure("period \(number) cannot follow period \(period)")
        }
        guard number != period || periodEnded || number == 1 else { return }
        if number > period && !periodEnded { endPeriod(id, at) }
        emit(id, at, .periodStarted(period: number, kind: kind))
        period = number
        periodEnded = false
        if let ms = game.setup.rules.clockStart(ofPeriod: number, sport: .soccer) {
            emit("\(id)-clock", at, .clockStarted(ms: ms))
        }
    }

    /// For each event, the running score the first event after it that is not a `score_change` states
    /// (v4 writes `home_score`/`away_score` on every event), if any: one pass from the end.
    private func nextStatedScores() throws(ConvertError) -> [(home: Int, away: Int)?] {
        var next: [(home: Int, away: Int)?] = Array(repeating: nil, count: game.events.count)
        var stated: (home: Int, away: Int)?
        for index in game.events.indices.reversed() {
            next[index] = stated
            let node = game.events[index]
            if game.types[index] != "score_change", let home = try node.optionalInt("home_score") {
                stated = (home, try node.int("away_score"))
            }
        }
        return next
    }

    /// `score_change`: the goal its stated running score adds, the goals a fall of it takes back, or a
    /// correction for any other change. A `score_change` that states the score before it (written
    /// before the score was updated) is its side's goal when the next event that states a score has
    /// that side's score risen.
    private mutating func scoreChange(
        _ node: DocumentNode, id: String, at: Date, next: (home: Int, away: Int)?
    ) throws(ConvertError) {
        start(at: at)
        var home = try node.int("home_score")
        var away = try node.int("away_score")
        if (home, away) == score, let next, node.has("competitor") || node.has("team") {
            switch try game.side(node) {
            case .home where next.home > home: home += 1
            case .away where next.away > away: away += 1
            default: break
            }
        }
        // A fall takes back the side's latest goals; what is left of the rise is one goal or a correction.
        var base = score
        var suffix = 0
        for (side, stated) in [(Side.home, home), (Side.away, away)] {
            while (side == .home ? base.home : base.away) > stated, let goal = goals[side]?.popLast() {
                suffix += 1
                emit(
                    "\(id)-retracts-\(suffix)", at,
                    .retracted(id: goal, reason: "the running score of event \(id) is \(home)-\(away)"))
                if side == .home { base.home -= 1 } else { base.away -= 1 }
            }
        }
        let rise = (home: home - base.home, away: away - base.away)
        let side: Side? = rise == (1, 0) ? .home : rise == (0, 1) ? .away : nil
        if let side, !periodEnded, period != game.shootoutPeriod {
            let method = try (node["method"].present ?? node["goal_scorer"]["method"].present)?.string()
            emit(
                id, at,
                .pointsScored(
                    PointsScored(
                        team: side, points: 1, kind: SportradarSoccer.kind(method: method),
                        player: try game.player(node, role: "scorer", key: "goal_scorer"),
                        clockMs: try game.clockMs(node))))
            goals[side, default: []].append("\(SportradarSoccer.name)-\(game.gameId)-\(id)")
        } else if rise != (0, 0) {
            emit("\(id)-corrected", at, .scoreCorrected(homeScore: home, awayScore: away))
        }
        score = (home, away)
    }

    /// A card: `card.shown` for the event's side, its player and match time.
    private mutating func cardShown(_ node: DocumentNode, card: Card, id: String, at: Date) throws(ConvertError) {
        start(at: at)
        let clock = period == game.shootoutPeriod ? nil : try game.clockMs(node)
        emit(
            id, at,
            .cardShown(
                team: try game.side(node), card: card, player: try game.player(node, role: "player", key: "player"),
                clockMs: clock))
    }

    /// `penalty_shootout`: a kick of the shoot-out (its period started first), checked against the
    /// tally the event states.
    private mutating func shootoutKick(_ node: DocumentNode, id: String, at: Date) throws(ConvertError) {
        start(at: at)
        if period != game.shootoutPeriod {
            if !periodEnded { endPeriod(id, at) }
            emit("\(id)-period", at, .periodStarted(period: game.shootoutPeriod, kind: .shootout))
            period = game.shootoutPeriod
            periodEnded = false
        }
        let side = try game.side(node)
        let outcomeField = node["outcome"].present ?? node["status"]
        let outcome = try outcomeField.string()
        guard outcome == "scored" || outcome == "missed" else {
            throw outcomeField.failure("scored or missed expected, found \"\(outcome)\"")
        }
        if outcome == "scored" {
            if side == .home { shootout.home += 1 } else { shootout.away += 1 }
        }
        if let home = try node.optionalInt("home_score") {
            let away = try node.int("away_score")
            guard (home, away) == shootout else {
                throw node["home_score"].failure(
                    "the shoot-out tally is stated \(home)-\(away), the kicks make \(shootout.home)-\(shootout.away)")
            }
        }
        emit(
            id, at,
            .shootoutAttempt(
                team: side, scored: outcome == "scored", player: try game.player(node, role: "shooter", key: "player")))
    }

    /// `match_ended`: the last period's end when not sent, then `game.ended closed`.
    private mutating func end(id: String, at: Date) throws(ConvertError) {
        guard started, !ended else { return }
        if let status = game.status { try official(status, at: at) }
        if !periodEnded { endPeriod(id, at) }
        emit(id, at, .gameEnded(.closed))
        ended = true
    }
}
