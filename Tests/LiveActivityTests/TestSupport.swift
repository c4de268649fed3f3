import Foundation
import LiveActivity
import ScoreDomain

/// Shared builders for the LiveActivity tests: game "g1", home ANA, away TEX.
enum T {
    static let ana = Team(code: "ANA", name: "Los Angeles Angels", logo: "https://example.com/logos/ana.png")
    static let tex = Team(code: "TEX", name: "Texas Rangers", logo: "https://example.com/logos/tex.png")

    static func date(_ text: String) -> Date {
        guard let date = parseRFC3339(text) else { fatalError("bad test date \(text)") }
        return date
    }

    static func state(
        _ status: GameStatus, _ inning: Int = 0, _ half: Half = .top, outs: Int = 0, home: Int = 0, away: Int = 0,
        version: Int = 5, updatedAt: String = "2019-04-01T19:00:00Z"
    ) -> ScoreState {
        ScoreState(
            gameId: "g1", home: ana, away: tex, startsAt: date("2019-04-01T19:05:00Z"), homeScore: home,
            awayScore: away, inningNumber: inning, half: half, outs: outs, status: status, version: version,
            updatedAt: date(updatedAt))
    }

    /// Folds `event` at `at` onto `previous`; the planner tests trust the fold (tested in ScoreDomainTests).
    static func fold(_ previous: ScoreState?, _ event: ScoreEvent, at: String = "2019-04-01T19:05:00Z") -> ScoreState {
        let message = FeedMessage(id: "m", gameId: "g1", at: date(at), event: event)
        do {
            return try ScoreFold.apply(message, to: previous)
        } catch {
            fatalError("test setup: \(error)")
        }
    }

    /// The push the planner makes for one change of a Live Activity that already shows `previous`
    /// (shown since `lastTimestamp`, or an hour before the change), with no interval in the way by
    /// default: what a change alone decides. A change the target holds back is flushed.
    static func push(
        previous: ScoreState?, event: ScoreEvent, at: String = "2019-04-01T19:05:00Z", lastTimestamp: Int? = nil,
        policy: ThrottlePolicy = ThrottlePolicy(minInterval: 0)
    ) -> PlannedMessage? {
        let now = date(at)
        let planner = PushPlanner(policy: policy)
        var target = PushTarget.liveActivity(
            ActivityThrottle(registeredAt: now.addingTimeInterval(-7200), frequentUpdates: false))
        if let previous {
            let shownAt = lastTimestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) }
            let prime: ScoreEvent =
                previous.status.isEnded
                ? .gameEnded(previous.status) : .gameScheduled(home: ana, away: tex, startsAt: previous.startsAt)
            _ = planner.receive(
                GameChange(previous: nil, next: previous, event: prime), for: &target,
                at: shownAt ?? now.addingTimeInterval(-3600))
        }
        let change = GameChange(previous: previous, next: fold(previous, event, at: at), event: event)
        let pushes = planner.receive(change, for: &target, at: now)
        return pushes.last ?? planner.flush(&target).last
    }
}
