import Foundation
import ScoreDomain

/// A clock-sport game "g1" (home BOS, away NYY) played message by message through ``ScoreFold``:
/// ids `m1`, `m2`, … (or the given one), times in seconds after the kick-off at 15:00:00Z.
struct Match {
    static let kickoff = T.date("2026-07-19T15:00:00Z")

    var state: ScoreState
    /// Seconds after the kick-off of the last message.
    var now: Double = 0
    private var next = 1

    /// A scheduled game of `competition` (its sport's preset), `change` applied to the rules.
    init(_ competition: String, rules change: (inout GameRules) -> Void = { _ in }) {
        guard let preset = GameRules.preset(competition) else { fatalError("no preset \(competition)") }
        var rules = preset.rules
        change(&rules)
        let scheduled = FeedMessage(
            id: "m0", gameId: "g1", at: Match.kickoff.addingTimeInterval(-3600),
            event: .gameScheduled(
                home: T.bos, away: T.nyy, startsAt: Match.kickoff, setup: GameSetup(sport: preset.sport, rules: rules)))
        do {
            state = try ScoreFold.apply(scheduled, to: nil)
        } catch {
            fatalError("\(error)")
        }
    }

    /// Folds `event` at `at` seconds after the kick-off (default: 60 s after the last message).
    @discardableResult
    mutating func send(_ event: ScoreEvent, at: Double? = nil, id: String? = nil) throws(FoldError) -> ScoreState {
        let at = at ?? now + 60
        let message = FeedMessage(
            id: id ?? "m\(next)", gameId: "g1", at: Match.kickoff.addingTimeInterval(at), event: event)
        state = try ScoreFold.apply(message, to: state)
        now = at
        next += 1
        return state
    }

    /// Folds every event, 60 s apart.
    mutating func send(_ events: [ScoreEvent]) throws(FoldError) {
        for event in events { try send(event) }
    }

    /// A date `seconds` after the kick-off.
    static func at(_ seconds: Double) -> Date { kickoff.addingTimeInterval(seconds) }
}

/// Milliseconds of a feed clock value; crashes the test on a typo.
func ms(_ text: String) -> Int {
    guard let value = GameClock.parse(text) else { fatalError("bad test clock \(text)") }
    return value
}

extension ScoreEvent {
    /// `points.scored` of `kind` worth its points.
    static func score(_ team: Side, _ kind: ScoringKind, clock: String? = nil, player: String? = nil) -> ScoreEvent {
        .pointsScored(PointsScored(team: team, points: kind.points, kind: kind, player: player, clockMs: clock.map(ms)))
    }

    static func start(_ period: Int, _ kind: PeriodKind? = nil) -> ScoreEvent {
        .periodStarted(period: period, kind: kind)
    }
    static func end(_ period: Int) -> ScoreEvent { .periodEnded(period: period) }

    /// `game.started` then every period up to `last` played (started and ended), none scored.
    static func periods(through last: Int) -> [ScoreEvent] {
        [.gameStarted] + (1...last).flatMap { $0 == 1 ? [ScoreEvent.end(1)] : [.start($0), .end($0)] }
    }
}

extension ScoreState {
    /// `inprogress Q4 100-98`, with ` SO 3-2` when there was a shoot-out: the tests' short view of a game.
    var summary: String {
        var text = "\(status.rawValue) \(periodLabel) \(homeScore)-\(awayScore)"
        if let shootout { text += " SO \(shootout.home)-\(shootout.away)" }
        return text
    }

    /// The line score as `1st Half 0-1, 2nd Half 2-0`.
    var lineScore: String { periods.map { "\($0.label) \($0.home)-\($0.away)" }.joined(separator: ", ") }

    /// The scoring list as `m3 1 53' away ownGoal 0-1`, one entry per line.
    var scoringList: [String] {
        scoring.elements.map { play in
            var text = "\(play.id) \(play.period) \(play.clock ?? "-") "
            if let side = play.side {
                text += "\(side.rawValue) \(play.kind.rawValue)"
            } else {
                text += "correction \(play.homeChange),\(play.awayChange)"
            }
            return text + " \(play.homeScore)-\(play.awayScore)"
        }
    }

    /// The clock as `12:00 stopped`, `47:12 running`, or `none`.
    var clockText: String {
        guard let clock else { return "none" }
        return GameClock.feedText(clock.ms) + (clock.running ? " running" : " stopped") + " @"
            + String(Int(clock.at.timeIntervalSince(Match.kickoff)))
    }
}
