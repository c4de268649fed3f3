import Foundation
import LiveActivity
import ScoreDomain
import Testing

@Suite("PushPlanner: timestamps strictly increase per activity")
struct TimestampTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var updatedAt: String
        var lastTimestamp: Int?
        var timestamp: Int
        var testDescription: String { "\(updatedAt) after \(lastTimestamp.map(String.init) ?? "none")" }
    }

    @Test(arguments: [
        Case(updatedAt: "2019-04-01T19:05:00Z", lastTimestamp: nil, timestamp: 1_554_145_500),
        Case(updatedAt: "2019-04-01T19:05:00.999Z", lastTimestamp: nil, timestamp: 1_554_145_500),
        Case(updatedAt: "2019-04-01T19:05:00Z", lastTimestamp: 1_554_145_400, timestamp: 1_554_145_500),
        Case(updatedAt: "2019-04-01T19:05:00Z", lastTimestamp: 1_554_145_499, timestamp: 1_554_145_500),
        Case(updatedAt: "2019-04-01T19:05:00Z", lastTimestamp: 1_554_145_500, timestamp: 1_554_145_501),
        Case(updatedAt: "2019-04-01T19:05:00.500Z", lastTimestamp: 1_554_145_500, timestamp: 1_554_145_501),
        Case(updatedAt: "2019-04-01T19:05:00Z", lastTimestamp: 1_554_145_620, timestamp: 1_554_145_621),
    ])
    func timestamp(_ testCase: Case) throws {
        let previous = T.state(.inprogress, 4, .top)
        let event = ScoreEvent.outRecorded(outs: 1)
        let next = T.fold(previous, event, at: testCase.updatedAt)
        let push = try #require(
            T.push(previous: previous, event: event, at: testCase.updatedAt, lastTimestamp: testCase.lastTimestamp))
        #expect(push.version == next.version)
        #expect(push.timestamp == testCase.timestamp)
        #expect(push.payload.contains(#""timestamp":\#(testCase.timestamp)}"#))
    }

    @Test("a same-second burst and a late message still get increasing timestamps")
    func burstAndOutOfOrder() {
        let messages: [(String, ScoreEvent)] = [
            ("2019-04-01T19:05:00Z", .gameStarted),
            ("2019-04-01T19:05:00.200Z", .runScored(team: .away, runs: 1)),
            ("2019-04-01T19:05:00.400Z", .outRecorded(outs: 1)),
            ("2019-04-01T19:05:00.900Z", .runScored(team: .away, runs: 2)),
            ("2019-04-01T19:05:10Z", .outRecorded(outs: 1)),
            ("2019-04-01T19:05:02Z", .scoreCorrected(homeScore: 0, awayScore: 2)),
            ("2019-04-01T19:06:00Z", .outRecorded(outs: 1)),
        ]
        // No interval: every change goes out (the late one when the clock passes the last push).
        let planner = PushPlanner(policy: ThrottlePolicy(minInterval: 0))
        var target = PushTarget.liveActivity(
            ActivityThrottle(registeredAt: T.date("2019-04-01T18:00:00Z"), frequentUpdates: false))
        var state = T.state(.scheduled)
        var timestamps: [Int] = []
        for (at, event) in messages {
            let next = T.fold(state, event, at: at)
            let change = GameChange(previous: state, next: next, event: event)
            timestamps += planner.receive(change, for: &target, at: T.date(at)).map(\.timestamp)
            state = next
        }
        #expect(
            timestamps == [
                1_554_145_500, 1_554_145_501, 1_554_145_502, 1_554_145_503, 1_554_145_510, 1_554_145_511,
                1_554_145_560,
            ])
    }
}
