import Foundation
import LiveActivity
import ScoreDomain
import Testing

@Suite("throttles joined into one group")
struct ThrottleGroupTests {
    let policy = ThrottlePolicy()
    let start = T.date("2019-04-01T19:00:00Z")

    /// The throttle registered at `offset` seconds, given the game's changes (offset, event) from its
    /// registration on, as the store plans a target from the game's position at its registration.
    func throttle(registered offset: Int, frequent: Bool = false, events: [(Int, ScoreEvent)]) -> ActivityThrottle {
        var throttle = ActivityThrottle(
            registeredAt: start.addingTimeInterval(Double(offset)), frequentUpdates: frequent)
        var current = T.state(.inprogress, 1, .top, updatedAt: "2019-04-01T19:00:00Z")
        for (at, event) in events {
            let now = start.addingTimeInterval(Double(at))
            let next = T.fold(current, event, at: rfc3339(now))
            if at >= offset {
                _ = throttle.receive(previous: current, next: next, event: event, at: now, policy: policy)
            }
            current = next
        }
        return throttle
    }

    @Test("a fresh throttle is fresh; one that received a change is not")
    func fresh() {
        #expect(throttle(registered: 0, events: []).isFresh)
        #expect(!throttle(registered: 0, events: [(5, .outRecorded(outs: 1))]).isFresh)
    }

    @Test(
        "two throttles join once their next decisions are the same: the earlier registration and both budgets are kept"
    )
    func joinsWhenTheSame() throws {
        // The first got a run with an alert (priority 10) before the second registered.
        let early: [(Int, ScoreEvent)] = [(60, .runScored(team: .home, runs: 1))]
        let common: [(Int, ScoreEvent)] = [(600, .outRecorded(outs: 1))]
        let first = throttle(registered: 0, events: early + common)
        let second = throttle(registered: 300, events: early + common)
        let joined = try #require(first.joined(with: second, span: 3600))
        #expect(joined.registeredAt == start)
        // Both go on exactly as the first (the stricter) would.
        var a = first
        var b = joined
        var current = T.fold(
            T.fold(
                T.state(.inprogress, 1, .top, updatedAt: "2019-04-01T19:00:00Z"), early[0].1, at: "2019-04-01T19:01:00Z"
            ),
            common[0].1, at: "2019-04-01T19:10:00Z")
        for (at, event) in [(700, ScoreEvent.runScored(team: .away, runs: 2)), (900, .outRecorded(outs: 1))] {
            let now = start.addingTimeInterval(Double(at))
            let next = T.fold(current, event, at: rfc3339(now))
            #expect(
                a.receive(previous: current, next: next, event: event, at: now, policy: policy)
                    == b.receive(previous: current, next: next, event: event, at: now, policy: policy))
            current = next
        }
        #expect(a == b)
    }

    @Test("they do not join while they would decide differently, nor registered further apart than the span")
    func staysApart() {
        let sent = throttle(registered: 0, events: [(60, .outRecorded(outs: 1))])
        #expect(sent.joined(with: throttle(registered: 30, events: []), span: 3600) == nil, "one shows a state")
        #expect(
            sent.joined(
                with: throttle(registered: 0, frequent: true, events: [(60, .outRecorded(outs: 1))]), span: 3600)
                == nil, "frequent updates differ")
        let late = throttle(registered: 50, events: [(60, .outRecorded(outs: 1))])
        #expect(sent.joined(with: late, span: 3600) != nil)
        #expect(sent.joined(with: late, span: 10) == nil, "registered 50 s apart, span 10 s")
        // Changes inside the interval: one coalesces what the other sent at once.
        let waiting = throttle(registered: 0, events: [(60, .outRecorded(outs: 1)), (65, .outRecorded(outs: 1))])
        let once = throttle(registered: 62, events: [(60, .outRecorded(outs: 1)), (65, .outRecorded(outs: 1))])
        #expect(waiting.joined(with: once, span: 3600) == nil)
    }
}
