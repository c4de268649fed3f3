import Foundation
import LiveActivity
import ScoreDomain
import Testing

/// Drives one activity's throttle through timed changes and describes every push on one line:
/// `+SECONDS event pPRIORITY reason [alert] AWAY-HOME inning outs`.
private struct Script {
    var policy = ThrottlePolicy(minInterval: 10, hourlyBudget: 12, frequentHourlyBudget: 40)
    var frequent = false
    var state = T.state(.inprogress, 1, .top, updatedAt: "2019-04-01T19:00:00Z")
    let start = T.date("2019-04-01T19:00:00Z")

    /// Events at second offsets (`nil` event = only a tick at that moment).
    func run(_ steps: [(Int, ScoreEvent?)]) -> [String] {
        var throttle = ActivityThrottle(registeredAt: start, frequentUpdates: frequent)
        var current = state
        var lines: [String] = []
        for (offset, event) in steps {
            let now = start.addingTimeInterval(Double(offset))
            let pushes: [PlannedMessage]
            if let event {
                let next = T.fold(current, event, at: rfc3339(now))
                pushes = throttle.receive(previous: current, next: next, event: event, at: now, policy: policy)
                current = next
            } else {
                pushes = throttle.tick(at: now, policy: policy)
            }
            lines += pushes.map { describe($0) }
        }
        return lines
    }

    func describe(_ push: PlannedMessage) -> String {
        let aps =
            (try? JSONSerialization.jsonObject(with: Data(push.payload.utf8)) as? [String: Any])?["aps"]
            as? [String: Any] ?? [:]
        let status = (aps["content-state"] as? [String: Any])?["status"] as? [String: Any] ?? [:]
        let alert = (aps["alert"] as? [String: Any])?["title"] as? String
        let offset = Int(push.sendAt.timeIntervalSince(start))
        var line = "+\(offset) \(push.event.rawValue) p\(push.priority) \(push.reason.rawValue)"
        if let alert { line += " '\(alert)'" }
        line += " \(status["awayScore"] ?? "?")-\(status["homeScore"] ?? "?") \(status["inning"] ?? "?")"
        line += " \(status["outs"] ?? "?")out"
        return line
    }
}

@Suite("the per-activity throttle")
struct ActivityThrottleTests {
    @Test("changes inside the interval coalesce; the latest state goes out when it closes")
    func coalesce() {
        let lines = Script().run([
            (0, .outRecorded(outs: 1)), (3, .outRecorded(outs: 1)), (6, .runScored(team: .away, runs: 1)),
            (8, .outRecorded(outs: 1)), (10, nil), (30, .inningChanged(inning: 1, half: .bottom)),
        ])
        #expect(
            lines == [
                "+0 update p5 immediate 0-0 Top 1st 1out",
                "+10 update p10 coalesced 'Run scored' 1-0 Top 1st 3out",
                "+30 update p5 immediate 1-0 Bottom 1st 0out",
            ])
    }

    @Test("a coalesced update is sent by the next change after its interval closed, as of that moment")
    func trailingEdgeOnNextChange() {
        let lines = Script().run([(0, .outRecorded(outs: 1)), (4, .outRecorded(outs: 1)), (25, .outRecorded(outs: 1))])
        #expect(
            lines == [
                "+0 update p5 immediate 0-0 Top 1st 1out", "+10 update p5 coalesced 0-0 Top 1st 2out",
                "+25 update p5 immediate 0-0 Top 1st 3out",
            ])
    }

    @Test("nothing is sent when what the phone shows does not change")
    func nothingChanged() {
        let lines = Script().run([
            (0, .outRecorded(outs: 1)), (20, .basesChanged(Bases())), (40, .inningChanged(inning: 1, half: .top)),
            (60, .scoreCorrected(homeScore: 0, awayScore: 0)),
        ])
        #expect(lines == ["+0 update p5 immediate 0-0 Top 1st 1out"])
    }

    @Test(
        "priority 10 with an alert only for moments a fan wants to feel",
        arguments: [
            (ScoreEvent.runScored(team: .home, runs: 2), "+0 update p10 immediate '2 runs scored' 0-2 Top 1st 0out"),
            (.outRecorded(outs: 1), "+0 update p5 immediate 0-0 Top 1st 1out"),
            (.basesChanged(Bases(first: true)), "+0 update p5 immediate 0-0 Top 1st 0out"),
            (.statusChanged(.delayed), "+0 update p10 immediate 'Game delayed' 0-0 Top 1st 0out"),
            (.statusChanged(.suspended), "+0 update p10 immediate 'Game suspended' 0-0 Top 1st 0out"),
            (.inningChanged(inning: 2, half: .top), "+0 update p5 immediate 0-0 Top 2nd 0out"),
            (.gameEnded(.closed), "+0 end p10 final 'Final' 0-0 Top 1st 0out"),
        ])
    func priorities(_ event: ScoreEvent, _ expected: String) {
        #expect(Script().run([(0, event)]) == [expected])
    }

    @Test("the game starting and a lead change are significant too")
    func startAndLeadChange() {
        var script = Script()
        script.state = T.state(.scheduled, updatedAt: "2019-04-01T19:00:00Z")
        let lines = script.run([
            (0, .gameStarted), (20, .runScored(team: .away, runs: 1)), (40, .inningChanged(inning: 1, half: .bottom)),
            (60, .runScored(team: .home, runs: 2)),
        ])
        #expect(
            lines == [
                "+0 update p10 immediate 'Game started' 0-0 Top 1st 0out",
                "+20 update p10 immediate 'Run scored' 1-0 Top 1st 0out",
                "+40 update p5 immediate 1-0 Bottom 1st 0out",
                "+60 update p10 immediate 'Lead change' 1-2 Bottom 1st 0out",
            ])
    }

    @Test("when the hourly budget is spent, significant moments go out at priority 5 without alert")
    func budget() {
        var script = Script()
        script.policy.hourlyBudget = 2
        let runs = (0..<4).map { ($0 * 60, ScoreEvent.runScored(team: .home, runs: 1)) }
        let lines = script.run(runs + [(3700, .runScored(team: .home, runs: 1))])
        #expect(
            lines == [
                "+0 update p10 immediate 'Run scored' 0-1 Top 1st 0out",
                "+60 update p10 immediate 'Run scored' 0-2 Top 1st 0out",
                "+120 update p5 immediate 0-3 Top 1st 0out",
                "+180 update p5 immediate 0-4 Top 1st 0out",
                "+3700 update p10 immediate 'Run scored' 0-5 Top 1st 0out",
            ])
        script.frequent = true
        script.policy.frequentHourlyBudget = 3
        #expect(script.run(runs).map { $0.contains(" p10 ") } == [true, true, true, false])
    }

    @Test("the end goes out at once inside the interval, with the latest state; nothing after it")
    func end() {
        let lines = Script().run([
            (0, .runScored(team: .home, runs: 1)), (2, .outRecorded(outs: 1)), (4, .gameEnded(.closed)), (20, nil),
            (30, .scoreCorrected(homeScore: 2, awayScore: 0)),
        ])
        #expect(
            lines == [
                "+0 update p10 immediate 'Run scored' 0-1 Top 1st 0out",
                "+4 end p10 final 'Final' 0-1 Top 1st 1out",
            ])
    }

    @Test("the end is never dropped, even with the budget spent")
    func endWithoutBudget() {
        var script = Script()
        script.policy.hourlyBudget = 0
        #expect(script.run([(0, .gameEnded(.postponed))]) == ["+0 end p5 final 0-0 Top 1st 0out"])
    }

    @Test("near the 8-hour limit the activity is ended with the current state")
    func lifetime() {
        let limit = 8 * 3600 - 15 * 60
        let lines = Script().run([
            (0, .statusChanged(.suspended)), (limit - 1, nil), (limit, nil), (limit + 60, .statusChanged(.inprogress)),
        ])
        #expect(
            lines == [
                "+0 update p10 immediate 'Game suspended' 0-0 Top 1st 0out",
                "+\(limit) end p10 lifetime 0-0 Top 1st 0out",
            ])
    }

    @Test("changes from before the registration push nothing; the first one after it does")
    func beforeRegistration() {
        var throttle = ActivityThrottle(registeredAt: T.date("2019-04-01T19:00:00Z"), frequentUpdates: false)
        let policy = ThrottlePolicy()
        var state = T.state(.inprogress, 1, .top)
        var reasons: [[PlannedMessage.Reason]] = []
        for at in ["2019-04-01T18:00:00Z", "2019-04-01T18:59:59Z", "2019-04-01T19:00:00Z"] {
            let next = T.fold(state, .outRecorded(outs: 1), at: at)
            reasons.append(
                throttle.receive(
                    previous: state, next: next, event: .outRecorded(outs: 1), at: T.date(at), policy: policy
                )
                .map(\.reason))
            state = next
        }
        #expect(reasons == [[], [], [.immediate]])
        #expect(throttle.nextDeadline(policy: policy) == T.date("2019-04-02T02:45:00Z"))
    }

    @Test("timestamps strictly increase even for two pushes in the same second")
    func timestamps() {
        var throttle = ActivityThrottle(registeredAt: T.date("2019-04-01T19:00:00Z"), frequentUpdates: false)
        let policy = ThrottlePolicy(minInterval: 0)
        var state = T.state(.inprogress, 1, .top)
        var stamps: [Int] = []
        for (n, event) in [ScoreEvent.outRecorded(outs: 1), .outRecorded(outs: 1), .runScored(team: .away, runs: 1)]
            .enumerated()
        {
            let at = T.date("2019-04-01T19:00:00Z").addingTimeInterval(0.3 * Double(n))
            let next = T.fold(state, event, at: rfc3339(at))
            stamps += throttle.receive(previous: state, next: next, event: event, at: at, policy: policy).map(
                \.timestamp)
            state = next
        }
        #expect(stamps == [1_554_145_200, 1_554_145_201, 1_554_145_202])
    }

    @Test("stale-date on every update, expiration set, relevance higher for close late games")
    func staleAndRelevance() throws {
        var throttle = ActivityThrottle(registeredAt: T.date("2019-04-01T19:00:00Z"), frequentUpdates: false)
        let policy = ThrottlePolicy()
        func relevance(_ state: ScoreState) throws -> Int {
            var copy = throttle
            let push = try #require(
                copy.receive(
                    previous: nil, next: state, event: .outRecorded(outs: 1), at: state.updatedAt, policy: policy
                ).first)
            let aps = try #require(
                (try JSONSerialization.jsonObject(with: Data(push.payload.utf8)) as? [String: Any])?["aps"]
                    as? [String: Any])
            #expect(aps["stale-date"] as? Int == push.timestamp + 900)
            #expect(push.expiration == push.timestamp + 900)
            return try #require(aps["relevance-score"] as? Int)
        }
        let closeLate = try relevance(T.state(.inprogress, 9, .bottom, home: 3, away: 3))
        let closeEarly = try relevance(T.state(.inprogress, 2, .top, home: 1, away: 0))
        let blowout = try relevance(T.state(.inprogress, 9, .bottom, home: 11, away: 0))
        let pregame = try relevance(T.state(.scheduled))
        #expect(closeLate == 100)
        #expect(closeLate > closeEarly && closeEarly > pregame)
        #expect(closeLate > blowout && blowout > pregame)
        throttle = ActivityThrottle(registeredAt: T.date("2019-04-01T19:00:00Z"), frequentUpdates: false)
    }

    @Test("the throttle state survives a JSON round trip (it is stored between events)")
    func codable() throws {
        var throttle = ActivityThrottle(registeredAt: T.date("2019-04-01T19:00:00Z"), frequentUpdates: true)
        let state = T.state(.inprogress, 1, .top)
        let next = T.fold(state, .runScored(team: .home, runs: 1), at: "2019-04-01T19:00:00Z")
        _ = throttle.receive(
            previous: state, next: next, event: .runScored(team: .home, runs: 1),
            at: T.date("2019-04-01T19:00:00Z"), policy: ThrottlePolicy())
        let data = try JSONEncoder().encode(throttle)
        #expect(try JSONDecoder().decode(ActivityThrottle.self, from: data) == throttle)
    }
}
