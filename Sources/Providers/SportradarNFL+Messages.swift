import Foundation
import ScoreDomain

/// Turns the game's plays and events into messages, in game order (both shapes, both leagues).
struct SportradarFootballWriter {
    let game: SportradarFootballGame
    private var out: [FeedMessage] = []
    private var started = false
    private var period = 0
    private var periodEnded = false
    private var ended = false
    private var last: Date
    /// Whether `last` is derived (docs/providers.md, "Time"): not the wall clock of the item being read
    /// (v1, an item without a wall clock, a wall clock earlier than the time before, the end after the
    /// last item). The messages sent at `last` carry it as `atDerived`.
    private var lastDerived = false
    /// The running score so far: the plays' stated one (v7), the sum of their `score` points (v1).
    private var score = (home: 0, away: 0)
    private var situation: Situation?

    /// `<format>-<uuid>-`, the start of every message id.
    private let idPrefix: String

    init(game: SportradarFootballGame) {
        self.game = game
        last = game.startsAt
        idPrefix = "\(game.league.format)-\(game.uuid)-"
    }

    private mutating func emit(_ suffix: String, _ at: Date, _ event: ScoreEvent) {
        out.append(
            FeedMessage(id: idPrefix + suffix, gameId: game.gameId, at: at, event: event, atDerived: lastDerived))
    }

    mutating func messages() throws(ConvertError) -> [FeedMessage] {
        emit(
            "scheduled", game.startsAt,
            .gameScheduled(home: game.home, away: game.away, startsAt: game.startsAt, setup: game.setup))
        for item in game.items {
            // A time that goes back (a corrected play) keeps the time before it: derived, as is a time
            // from the game clock (v1) and the time an item without one keeps.
            let (time, stated) = try time(item)
            if let time, time >= last {
                last = time
                lastDerived = !stated
            } else {
                lastDerived = true
            }
            switch try item.node.string("type") {
            case "play" where game.shape == .periods: try play(item, at: last)
            case "play": try olderPlay(item, at: last)
            default: try event(item, at: last)
            }
        }
        // The end the status gives keeps the last item's time.
        lastDerived = true
        if !ended {
            switch game.status {
            case "closed", "complete": if started { end(at: last) }
            case "postponed" where !started: emit("ended", last, .gameEnded(.postponed))
            case "cancelled" where !started: emit("ended", last, .gameEnded(.cancelled))
            default: break
            }
        }
        return out
    }

    /// The item's time and whether the document states it: v7's `wall_clock` (stated); in the older
    /// shape (no wall clock) the scheduled start plus the game time elapsed at the play's clock, 15
    /// minutes a period (derived).
    private func time(_ item: SportradarFootballItem) throws(ConvertError) -> (Date?, stated: Bool) {
        guard game.shape == .quarters else { return (try item.node.optionalInstant("wall_clock"), true) }
        guard let clock = item.node["clock"].present else { return (nil, false) }
        let left = min(try SportradarFootballGame.clock(clock), Self.periodMs)
        let elapsed = (item.period - 1) * Self.periodMs + Self.periodMs - left
        return (game.startsAt.addingTimeInterval(Double(elapsed) / 1000), false)
    }

    private static let periodMs = 15 * 60_000

    /// An event: `setup` (v1 `cointoss`) starts the game, `period_end` (`quarterend`) ends the period,
    /// `game_over` (`gameover`) the game; others (timeouts, the two-minute warning) send nothing.
    private mutating func event(_ item: SportradarFootballItem, at: Date) throws(ConvertError) {
        let id = try item.node.string("id")
        switch try item.node.string("event_type") {
        case "setup", "cointoss":
            enter(item, id: id, at: at)
        case "period_end", "quarterend":
            enter(item, id: id, at: at)
            guard !periodEnded else { return }
            emit(id, at, .periodEnded(period: period))
            periodEnded = true
        case "game_over", "gameover":
            guard started else { return }
            end(at: at)
        default:
            return
        }
    }

    /// A play: the points its stated running score adds, then the situation after it.
    private mutating func play(_ item: SportradarFootballItem, at: Date) throws(ConvertError) {
        let node = item.node
        let id = try node.string("id")
        enter(item, id: id, at: at)
        let playType = try node.string("play_type")
        let start = node["start_situation"]
        let end = node["end_situation"]
        let offense = try start["possession"].present.map { node throws(ConvertError) in try game.side(node) }
        let clockMs = try node["clock"].present?.clock()
        var scored = false
        if let homePoints = try node.optionalInt("home_points") {
            let awayPoints = try node.int("away_points")
            if (homePoints, awayPoints) != score {
                scored = try stated(
                    (homePoints, awayPoints), play: (item, id, playType, offense), clockMs: clockMs, at: at)
            }
            score = (homePoints, awayPoints)
        }
        guard end.has("possession") else { return }
        let possession = try game.side(end["possession"])
        var next = Situation(possession: possession, down: nil, distance: nil, yardLine: nil)
        let down = try end.optionalInt("down")
        let distance = try end.optionalInt("yfd")
        if let down, let distance, (1...4).contains(down), (1...99).contains(distance),
            let yardline = try end["location"]["yardline"].present?.int(), (1...99).contains(yardline)
        {
            let own = try end["location"]["alias"].string() == (possession == .home ? game.home.code : game.away.code)
            let yardLine = own ? yardline : 100 - yardline
            if (1...99).contains(yardLine) {
                next = Situation(possession: possession, down: down, distance: distance, yardLine: yardLine)
            }
        }
        // A turnover: a run or a pass after which the other side has the ball, without a score.
        let turnover = (playType == "pass" || playType == "rush") && !scored && offense != nil && offense != possession
        guard next != situation || turnover else { return }
        situation = next
        let endClock = try end["clock"].present?.clock()
        emit(id + "-situation", at, .situationChanged(next, turnover: turnover, clockMs: clock(item, endClock)))
    }

    /// A play's stated running score that differs from the one so far: one side's rise that a scoring
    /// play makes becomes its points, anything else a correction. Whether it was a scoring play.
    private mutating func stated(
        _ points: (home: Int, away: Int),
        play: (item: SportradarFootballItem, id: String, type: String, offense: Side?),
        clockMs: Int?, at: Date
    ) throws(ConvertError) -> Bool {
        let (homePoints, awayPoints) = points
        let (item, id, playType, offense) = play
        let rises = [(Side.home, homePoints - score.home), (Side.away, awayPoints - score.away)]
        let kinds = rises.map { side, points in
            SportradarNFL.kind(points: points, playType: playType, byOffense: offense.map { $0 == side } ?? true)
        }
        if let index = rises.indices.first(where: { rises[$0].1 != 0 }), rises[1 - index].1 == 0,
            let kind = kinds[index]
        {
            let side = rises[index].0
            let player = try player(item.node, kind)
            emit(
                id, at,
                .pointsScored(
                    PointsScored(
                        team: side, points: kind.points, kind: kind, player: player, clockMs: clock(item, clockMs))))
            return true
        }
        // A change no one scoring play makes: the stated score, as a correction.
        emit(id + "-corrected", at, .scoreCorrected(homeScore: homePoints, awayScore: awayPoints))
        return false
    }

    /// An older-shape play: the situation at its snap (`side`, `yard_line`, `down`, `yfd` with the drive's
    /// `team` in possession), then the points of its `score` (`team`, `points`; `type` must agree).
    private mutating func olderPlay(_ item: SportradarFootballItem, at: Date) throws(ConvertError) {
        let node = item.node
        let id = try node.string("id")
        enter(item, id: id, at: at)
        let playType = try node.string("play_type")
        let clockMs = try node["clock"].present.map { node throws(ConvertError) in
            try SportradarFootballGame.clock(node)
        }
        let offense = try item.driveTeam.map { node throws(ConvertError) in try game.side(code: node) }
        let snap: Bool
        switch playType {
        case "rush", "pass", "punt", "fieldgoal": snap = true
        default: snap = false
        }
        if let offense, snap,
            let down = try node.optionalInt("down"), (1...4).contains(down),
            let distance = try node.optionalInt("yfd"), (1...99).contains(distance)
        {
            let yardline = try node.int("yard_line")
            let own = try game.side(code: node["side"]) == offense
            let yardLine = own ? yardline : 100 - yardline
            let next = Situation(
                possession: offense, down: down, distance: distance,
                yardLine: (1...99).contains(yardLine) ? yardLine : nil)
            if next != situation {
                situation = next
                emit(id + "-situation", at, .situationChanged(next, turnover: false, clockMs: clock(item, clockMs)))
            }
        }
        guard let scoreNode = node["score"].present else { return }
        let side = try game.side(code: scoreNode["team"])
        let points = try scoreNode.int("points")
        let conversion = ["extrapoint", "conversion"].contains(playType) ? "conversion" : playType
        guard
            let kind = SportradarNFL.kind(
                points: points, playType: conversion, byOffense: offense.map { $0 == side } ?? true)
        else { throw scoreNode["points"].failure("1, 2, 3 or 6 expected, found \(points)") }
        if let type = try scoreNode.optionalString("type"), let named = Self.olderKinds[type],
            !named.contains(kind)
        {
            throw scoreNode["type"].failure("\"\(type)\" does not score \(points)")
        }
        // The scorer: the last participant of the scoring side (the receiver, the runner, the returner, the kicker).
        var name: String?
        for participant in try node["participants"].present?.array() ?? [] {
            if try game.side(code: participant["team"]) == side { name = try participant.string("name") }
        }
        emit(
            id, at,
            .pointsScored(
                PointsScored(
                    team: side, points: points, kind: kind, player: name.map { $0.clipped(to: 64) },
                    clockMs: clock(item, clockMs))))
        score = side == .home ? (score.home + points, score.away) : (score.home, score.away + points)
    }

    /// The older shape's `score.type` names and the kinds they may be.
    private static let olderKinds: [String: Set<ScoringKind>] = [
        "touchdown": [.touchdown], "fieldgoal": [.fieldGoal], "extrapoint": [.extraPoint, .twoPointConversion],
        "safety": [.safety, .defensiveConversion], "twopointconversion": [.twoPointConversion, .defensiveConversion],
    ]

    /// A clock for the canonical feed: `nil` in an untimed period (NCAA football's overtime).
    private func clock(_ item: SportradarFootballItem, _ ms: Int?) -> Int? {
        item.kind == .overtime && game.setup.rules.overtimeMinutes == 0 ? nil : ms
    }

    /// The player a scoring play names: the touchdown's scorer (the statistic with `touchdown` 1 that is
    /// not the pass; for an interception returned for a touchdown, which v7 counts as `int_touchdown`,
    /// the statistic with `int_touchdown` 1 that is not the pass: the returner), the kicker of a field
    /// goal or an extra point, the two-point conversion's scorer (a conversion statistic other than the
    /// passer's, whose `category` is `pass`: the runner or the receiver).
    private func player(_ node: DocumentNode, _ kind: ScoringKind) throws(ConvertError) -> String? {
        let statistics = try node["statistics"].present?.array() ?? []
        for statistic in statistics {
            let type = try statistic.string("stat_type")
            let matches: Bool
            switch kind {
            case .touchdown:
                let touchdown = try statistic.optionalInt("touchdown")
                let returned = try statistic.optionalInt("int_touchdown")
                matches = type != "pass" && (touchdown == 1 || returned == 1)
            case .fieldGoal: matches = type == "field_goal"
            case .extraPoint: matches = type == "extra_point"
            case .twoPointConversion, .defensiveConversion:
                let category = try statistic.optionalString("category")
                matches = type != "pass" && type.contains("conversion") && category != "pass"
            default:
                let safety = try statistic.optionalInt("safety")
                matches = safety == 1
            }
            guard matches, let name = try statistic["player"]["name"].present?.string() else { continue }
            return name.clipped(to: 64)
        }
        return nil
    }

    /// Before a play or event of `item.period`: the game's start (period 1) and the period's start when
    /// they have not been sent (`started`, `<id>-period`).
    private mutating func enter(_ item: SportradarFootballItem, id: String, at: Date) {
        if !started {
            emit("started", at, .gameStarted)
            started = true
            period = 1
            periodEnded = false
        }
        guard item.period > period else { return }
        emit(id + "-period", at, .periodStarted(period: item.period, kind: item.kind))
        period = item.period
        periodEnded = false
    }

    /// The game's end: the stated final as `score.corrected` when the plays' points do not make it, its
    /// last period's end when not sent, then `game.ended closed`.
    private mutating func end(at: Date) {
        if let final = game.final, final != score {
            emit("final-corrected", at, .scoreCorrected(homeScore: final.home, awayScore: final.away))
            score = final
        }
        if !periodEnded { emit("period-\(period)-ended", at, .periodEnded(period: period)) }
        periodEnded = true
        emit("ended", at, .gameEnded(.closed))
        ended = true
    }
}
