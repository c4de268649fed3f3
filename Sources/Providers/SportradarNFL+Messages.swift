import Foundation
import ScoreDomain

/// Turns the game's plays and events into messages, in game order.
struct SportradarNFLWriter {
    let game: SportradarNFLGame
    private var out: [FeedMessage] = []
    private var started = false
    private var period = 0
    private var periodEnded = false
    private var ended = false
    private var last: Date
    /// The running score the plays have stated so far.
    private var score = (home: 0, away: 0)
    private var situation: Situation?

    init(game: SportradarNFLGame) {
        self.game = game
        last = game.startsAt
    }

    private mutating func emit(_ suffix: String, _ at: Date, _ event: ScoreEvent) {
        out.append(
            FeedMessage(
                id: "\(SportradarNFL.name)-\(game.uuid)-\(suffix)", gameId: game.gameId, at: at, event: event))
    }

    mutating func messages() throws(ConvertError) -> [FeedMessage] {
        emit(
            "scheduled", game.startsAt,
            .gameScheduled(home: game.home, away: game.away, startsAt: game.startsAt, setup: game.setup))
        for item in game.items {
            // A wall clock that goes back (a corrected play) keeps the time before it.
            if let wall = try item.node["wall_clock"].present?.instant() { last = max(last, wall) }
            switch try item.node["type"].string() {
            case "play": try play(item, at: last)
            default: try event(item, at: last)
            }
        }
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

    /// An event: `setup` starts the game, `period_end` ends the period, `game_over` the game; others
    /// (timeouts, the two-minute warning) send nothing.
    private mutating func event(_ item: SportradarNFLItem, at: Date) throws(ConvertError) {
        let id = try item.node["id"].string()
        switch try item.node["event_type"].string() {
        case "setup":
            enter(item, id: id, at: at)
        case "period_end":
            enter(item, id: id, at: at)
            guard !periodEnded else { return }
            emit(id, at, .periodEnded(period: period))
            periodEnded = true
        case "game_over":
            guard started else { return }
            end(at: at)
        default:
            return
        }
    }

    /// A play: the points its stated running score adds, then the situation after it.
    private mutating func play(_ item: SportradarNFLItem, at: Date) throws(ConvertError) {
        let node = item.node
        let id = try node["id"].string()
        enter(item, id: id, at: at)
        let playType = try node["play_type"].string()
        let start = node["start_situation"]
        let end = node["end_situation"]
        let offense = try start["possession"].present.map { node throws(ConvertError) in try game.side(node) }
        let clockMs = try node["clock"].present?.clock()
        var scored = false
        if let homePoints = try node["home_points"].present?.int() {
            let awayPoints = try node["away_points"].int()
            let rises = [(Side.home, homePoints - score.home), (Side.away, awayPoints - score.away)]
            let kinds = rises.map { side, points in
                SportradarNFL.kind(points: points, playType: playType, byOffense: offense.map { $0 == side } ?? true)
            }
            if rises.allSatisfy({ $0.1 == 0 }) {
                // No points.
            } else if let index = rises.indices.first(where: { rises[$0].1 != 0 }),
                rises[1 - index].1 == 0, let kind = kinds[index]
            {
                let side = rises[index].0
                emit(
                    id, at,
                    .pointsScored(
                        PointsScored(
                            team: side, points: kind.points, kind: kind, player: try player(node, kind),
                            clockMs: clockMs)))
                scored = true
            } else {
                // A change no one scoring play makes: the stated score, as a correction.
                emit(id + "-corrected", at, .scoreCorrected(homeScore: homePoints, awayScore: awayPoints))
            }
            score = (homePoints, awayPoints)
        }
        guard end["possession"].present != nil else { return }
        let possession = try game.side(end["possession"])
        var next = Situation(possession: possession, down: nil, distance: nil, yardLine: nil)
        let down = try end["down"].present?.int()
        let distance = try end["yfd"].present?.int()
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
        let turnover = ["pass", "rush"].contains(playType) && !scored && offense != nil && offense != possession
        guard next != situation || turnover else { return }
        situation = next
        let endClock = try end["clock"].present?.clock()
        emit(id + "-situation", at, .situationChanged(next, turnover: turnover, clockMs: endClock))
    }

    /// The player a scoring play names: the touchdown's scorer (the statistic with `touchdown` 1 that is
    /// not the pass), the kicker of a field goal or an extra point, the two-point conversion's scorer.
    private func player(_ node: DocumentNode, _ kind: ScoringKind) throws(ConvertError) -> String? {
        let statistics = try node["statistics"].present?.array() ?? []
        for statistic in statistics {
            let type = try statistic["stat_type"].string()
            let matches: Bool
            switch kind {
            case .touchdown:
                let touchdown = try statistic["touchdown"].present?.int()
                matches = type != "pass" && touchdown == 1
            case .fieldGoal: matches = type == "field_goal"
            case .extraPoint: matches = type == "extra_point"
            case .twoPointConversion, .defensiveConversion: matches = type != "pass" && type.contains("conversion")
            default:
                let safety = try statistic["safety"].present?.int()
                matches = safety == 1
            }
            guard matches, let name = try statistic["player"]["name"].present?.string() else { continue }
            return String(name.prefix(64))
        }
        return nil
    }

    /// Before a play or event of `item.period`: the game's start (period 1) and the period's start when
    /// they have not been sent (`started`, `<id>-period`).
    private mutating func enter(_ item: SportradarNFLItem, id: String, at: Date) {
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

    /// The game's end: its last period's end when not sent, then `game.ended closed`.
    private mutating func end(at: Date) {
        if !periodEnded { emit("period-\(period)-ended", at, .periodEnded(period: period)) }
        periodEnded = true
        emit("ended", at, .gameEnded(.closed))
        ended = true
    }
}
