import Foundation
import ScoreDomain

/// Turns the game's events into messages, in game order.
struct SportradarNBAWriter {
    let game: SportradarNBAGame
    private var out: [FeedMessage] = []
    private var started = false
    private var period = 0
    private var periodEnded = false
    private var last: Date
    /// Whether `last` is derived (docs/providers.md, "Time"): not the wall clock of the event being read
    /// (nba-t3's times from the game clock, a wall clock earlier than the time before, the end after the
    /// last event). The messages sent at `last` carry it as `atDerived`.
    private var lastDerived = false
    /// The running score so far: stated (v7) or counted from the made shots (nba-t3).
    private var score = (home: 0, away: 0)

    init(game: SportradarNBAGame) {
        self.game = game
        last = game.startsAt
    }

    private mutating func emit(_ suffix: String, _ at: Date, _ event: ScoreEvent) {
        out.append(
            FeedMessage(
                id: "\(SportradarNBA.name)-\(game.uuid)-\(suffix)", gameId: game.gameId, at: at, event: event,
                atDerived: lastDerived))
    }

    mutating func messages() throws(ConvertError) -> [FeedMessage] {
        emit(
            "scheduled", game.startsAt,
            .gameScheduled(
                home: game.home, away: game.away, startsAt: game.startsAt,
                setup: GameSetup(sport: .basketball, rules: GameRules.preset("nba")!.rules)))
        for item in game.items {
            let node = item.node
            let id = try node.string("id")
            let clockMs = try node["clock"].present?.clock()
            // The wall clock, else the derived time; a time earlier than the one before is not taken
            // (the time before is kept: derived).
            let wall = try node.optionalInstant("wall_clock")
            let time =
                wall ?? SportradarNBA.derivedAt(start: game.startsAt, period: item.period, clockMs: clockMs ?? 0)
            if time >= last {
                last = time
                lastDerived = wall == nil
            } else {
                lastDerived = true
            }
            enter(item, id: id, at: last)
            let eventType = try node.string("event_type")
            if eventType == "endperiod" {
                if !periodEnded { emit(id, last, .periodEnded(period: period)) }
                periodEnded = true
                continue
            }
            try scoring(node, id: id, eventType: eventType, clockMs: clockMs, at: last)
        }
        // The end the status gives keeps the last event's time.
        lastDerived = true
        switch game.status {
        case "closed", "complete":
            guard started else { break }
            if let official = game.official, official != score {
                emit("corrected", last, .scoreCorrected(homeScore: official.home, awayScore: official.away))
                score = official
            }
            if !periodEnded { emit("period-\(period)-ended", last, .periodEnded(period: period)) }
            emit("ended", last, .gameEnded(.closed))
        case "postponed" where !started:
            emit("ended", last, .gameEnded(.postponed))
        case "cancelled" where !started:
            emit("ended", last, .gameEnded(.cancelled))
        default:
            break
        }
        return out
    }

    /// The points of an event: the rise of its stated running score (v7), or its made shot's points for
    /// its team (a document without running scores); a stated change no one shot makes is a correction.
    private mutating func scoring(
        _ node: DocumentNode, id: String, eventType: String, clockMs: Int?, at: Date
    ) throws(ConvertError) {
        var side: Side?
        var points = 0
        if let homePoints = try node.optionalInt("home_points") {
            let awayPoints = try node.int("away_points")
            let rise = (home: homePoints - score.home, away: awayPoints - score.away)
            if rise == (0, 0) { return }
            if rise.away == 0, SportradarNBA.kind(points: rise.home) != nil {
                (side, points) = (.home, rise.home)
            } else if rise.home == 0, SportradarNBA.kind(points: rise.away) != nil {
                (side, points) = (.away, rise.away)
            } else {
                emit("\(id)-corrected", at, .scoreCorrected(homeScore: homePoints, awayScore: awayPoints))
                score = (homePoints, awayPoints)
                return
            }
            score = (homePoints, awayPoints)
        } else if let made = SportradarNBA.points(eventType: eventType) {
            side = try game.side(node["attribution"])
            points = made
            if side == .home { score.home += made } else { score.away += made }
        }
        guard let side, let kind = SportradarNBA.kind(points: points) else { return }
        emit(
            id, at,
            .pointsScored(
                PointsScored(team: side, points: points, kind: kind, player: try player(node), clockMs: clockMs)))
    }

    /// The scorer: the player of the made `fieldgoal` or `freethrow` statistic.
    private func player(_ node: DocumentNode) throws(ConvertError) -> String? {
        for statistic in try node["statistics"].present?.array() ?? [] {
            let type = try statistic.string("type")
            guard type == "fieldgoal" || type == "freethrow", statistic["made"].value == .bool(true),
                let name = try statistic["player"]["full_name"].present?.string()
            else { continue }
            return name.clipped(to: 64)
        }
        return nil
    }

    /// Before an event of `item.period`: the game's start (period 1) and the period's start when they
    /// have not been sent (`started`, `<id>-period`; the period before ends first if it has not).
    private mutating func enter(_ item: SportradarNBAItem, id: String, at: Date) {
        if !started {
            emit("started", at, .gameStarted)
            started = true
            period = 1
            periodEnded = false
        }
        guard item.period > period else { return }
        if !periodEnded { emit("\(id)-period-ended", at, .periodEnded(period: period)) }
        emit("\(id)-period", at, .periodStarted(period: item.period, kind: item.kind))
        period = item.period
        periodEnded = false
    }
}
