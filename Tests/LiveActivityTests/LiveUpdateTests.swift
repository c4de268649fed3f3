import Foundation
import LiveActivity
import ScoreDomain
import Testing

@Suite("Android Live Updates: the data messages of a follower")
struct LiveUpdateTests {
    static let start = T.date("2019-04-01T19:05:00Z")

    /// Steps one follower through `events`, each `seconds` after the first pitch; returns every message.
    static func run(
        _ events: [(seconds: Double, event: ScoreEvent)], followedAt: Date = start.addingTimeInterval(-900),
        policy: ThrottlePolicy = ThrottlePolicy(), tickAt: Double? = nil
    ) -> [PlannedMessage] {
        let planner = PushPlanner(policy: policy)
        var target = PushTarget.liveUpdate(LiveUpdateThrottle(followedAt: followedAt))
        var state: ScoreState? = T.state(.scheduled, version: 1)
        var pushes: [PlannedMessage] = []
        for (seconds, event) in events {
            let at = start.addingTimeInterval(seconds)
            let next = T.fold(state, event, at: rfc3339(at))
            pushes += planner.receive(GameChange(previous: state, next: next, event: event), for: &target, at: at)
            state = next
        }
        if let tickAt { pushes += planner.tick(&target, at: start.addingTimeInterval(tickAt)) }
        return pushes
    }

    /// `seq` of a message sent `seconds` after the first pitch: its send time in milliseconds.
    static func seq(_ seconds: Double) -> Int { Int(start.addingTimeInterval(seconds).timeIntervalSince1970 * 1000) }

    @Test("each change goes out at once as a high-priority message, seq its send time in milliseconds")
    func immediate() {
        let pushes = Self.run([(0, .gameStarted), (10, .outRecorded(outs: 1)), (20, .runScored(team: .away, runs: 1))])
        #expect(pushes.map(\.timestamp) == [Self.seq(0), Self.seq(10), Self.seq(20)])
        #expect(pushes.map(\.priority) == [10, 10, 10])
        #expect(pushes.map(\.reason) == [.immediate, .immediate, .immediate])
        #expect(pushes.map(\.event) == [.update, .update, .update])
        #expect(pushes[2].payload.contains(#""chip":"1-0 T1""#))
        #expect(pushes[2].payload.contains(#""seq":"\#(Self.seq(20))""#))
    }

    @Test("changes inside the interval coalesce: the latest goes out when it closes, as of that moment")
    func coalesce() {
        let pushes = Self.run(
            [(0, .gameStarted), (1, .outRecorded(outs: 1)), (2, .outRecorded(outs: 2))], tickAt: 10)
        #expect(pushes.count == 2)
        #expect(pushes[1].reason == .coalesced)
        #expect(pushes[1].sendAt == Self.start.addingTimeInterval(5))
        #expect(pushes[1].payload.contains(#""outs":"3""#))
        #expect(pushes[1].timestamp == Self.seq(5))
    }

    @Test("seq is strictly increasing when two messages share a millisecond")
    func sameMillisecond() {
        var throttle = LiveUpdateThrottle(followedAt: Self.start.addingTimeInterval(-60))
        let state = T.state(.inprogress, 9, version: 2)
        let started = throttle.start(state, at: Self.start, policy: ThrottlePolicy())
        let ended = throttle.receive(
            GameChange(
                previous: state, next: T.fold(state, .gameEnded(.closed), at: rfc3339(Self.start)),
                event: .gameEnded(.closed)),
            at: Self.start, policy: ThrottlePolicy())
        #expect(started.map(\.timestamp) == [Self.seq(0)])
        #expect(ended.map(\.timestamp) == [Self.seq(0) + 1])
    }

    @Test("a new follow of the game (another FCM token or FID: a new count) sends seq above the old follow's")
    func newFollowAboveOld() {
        let old = Self.run([(0, .gameStarted), (10, .outRecorded(outs: 1))])
        var renewed = LiveUpdateThrottle(followedAt: Self.start.addingTimeInterval(11))
        let fresh = renewed.start(
            T.state(.inprogress, 1, version: 3), at: Self.start.addingTimeInterval(11), policy: ThrottlePolicy())
        #expect(fresh.map(\.timestamp) == [Self.seq(11)])
        #expect(fresh[0].timestamp > old.last!.timestamp)
    }

    @Test("the end goes out at once, whatever the interval, and nothing after it")
    func end() {
        let pushes = Self.run(
            [(0, .gameStarted), (1, .runScored(team: .home, runs: 2)), (2, .gameEnded(.closed))], tickAt: 60)
        #expect(pushes.map(\.event) == [.update, .end])
        #expect(pushes[1].reason == .final)
        #expect(pushes[1].payload.contains(#""type":"end""#))
        #expect(pushes[1].payload.contains(#""chip":"0-2 F""#))
        #expect(pushes[1].payload.contains(#""text":"Final""#))
    }

    @Test("nothing for changes before the device followed, and nothing when what it shows does not change")
    func quiet() {
        #expect(Self.run([(0, .gameStarted)], followedAt: Self.start.addingTimeInterval(60)).isEmpty)
        let pushes = Self.run([(0, .gameStarted), (30, .inningChanged(inning: 1, half: .top))])
        #expect(pushes.count == 1)
    }

    @Test("at most one message per interval: 12 a minute per followed game, far under FCM's 240 per device")
    func perDeviceRate() {
        let events = (0..<600).map { (Double($0), ScoreEvent.basesChanged(Bases(first: $0 % 2 == 0))) }
        let pushes = Self.run([(-1, .gameStarted)] + events, tickAt: 700)
        for window in stride(from: 0.0, to: 600, by: 60) {
            let inMinute = pushes.filter {
                let t = $0.sendAt.timeIntervalSince(Self.start)
                return t >= window && t < window + 60
            }
            #expect(inMinute.count <= 12)
        }
        #expect(zip(pushes, pushes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test("the data map: every value a string, keys sorted, the chip and progress")
    func data() throws {
        let state = T.state(.inprogress, 11, .bottom, outs: 2, home: 5, away: 4)
        let json = LiveUpdate.json(state, seq: 7, event: .update)
        #expect(
            json
                == #"{"away":"TEX","awayScore":"4","bases":"","chip":"4-5 B11","gameId":"g1","half":"bottom","home":"ANA","homeScore":"5","inning":"11","outs":"2","progress":"21","progressMax":"22","seq":"7","status":"inprogress","text":"Bottom 11th, 2 outs","title":"TEX 4 – 5 ANA","type":"update","updatedAt":"1554145200"}"#
        )
        let parsed = try JSONValue.parse(Data(json.utf8))
        guard case .object(let members) = parsed else {
            Issue.record("not an object")
            return
        }
        #expect(members.values.allSatisfy { if case .string = $0 { true } else { false } })
        #expect(LiveUpdate.chip(T.state(.scheduled)) == "PRE")
        #expect(LiveUpdate.chip(T.state(.postponed)) == "PPD")
        #expect(LiveUpdate.chip(T.state(.delayed, 3, .top, home: 1, away: 0)) == "0-1 DLY")
        #expect(LiveUpdate.progress(T.state(.closed, 9, .top)) == (18, 18))
    }

    @Test("the stored form reads back exactly")
    func storage() throws {
        let planner = PushPlanner()
        var target = PushTarget.liveUpdate(LiveUpdateThrottle(followedAt: Self.start))
        let next = T.fold(T.state(.scheduled), .gameStarted)
        _ = planner.receive(
            GameChange(previous: T.state(.scheduled), next: next, event: .gameStarted), for: &target, at: Self.start)
        _ = planner.receive(
            GameChange(previous: next, next: T.fold(next, .outRecorded(outs: 1)), event: .outRecorded(outs: 1)),
            for: &target, at: Self.start.addingTimeInterval(1))
        guard case .liveUpdate(let throttle) = target else { return }
        #expect(try LiveUpdateThrottle(storageText: throttle.storageText) == throttle)
        #expect(throws: ThrottleStorageError.self) { try LiveUpdateThrottle(storageText: "t2 1") }
    }
}
