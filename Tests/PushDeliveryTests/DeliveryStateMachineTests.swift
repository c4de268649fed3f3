import APNs
import Foundation
import PushDelivery
import Retry
import ScoreStore
import Testing

/// The delivery pipeline's decisions, input by input: no socket, no database, no clock.
@Suite("the delivery worker's state machine")
struct DeliveryStateMachineTests {
    typealias Machine = DeliveryStateMachine<TargetPush, Outbox.Attempt>
    typealias Attempt = Outbox.Attempt

    static func push(_ id: Int, attempts: Int = 1) -> TargetPush {
        TargetPush(
            id: id, targetId: id, gameId: "g1", pushToken: String(repeating: "ab", count: 32),
            environment: .production,
            bundleId: "com.example.scores", apnsId: "00000000-0000-0000-0000-00000000000\(id % 10)", event: .update,
            priority: 5, timestamp: 1_700_000_000 + id, expiration: 1_700_001_000, reason: "immediate", payload: "{}",
            state: "pending", attempts: attempts, lastStatus: nil, lastReason: nil)
    }

    static func sent(_ push: TargetPush) -> Attempt { Attempt(push, status: 200, reason: nil, outcome: .sent) }

    static func round(sent: Int, paused: String? = nil) -> DeliveryRound {
        var round = DeliveryRound()
        for _ in 0..<sent { round.count(.sent, pause: nil) }
        if let paused { round.count(.release(label: "paused"), pause: paused) }
        return round
    }

    @Test("pipelined: each round is sent while the one before is recorded and the next claimed")
    func pipeline() {
        var machine = Machine(untilEmpty: true)
        let (a, b, c) = (Self.push(1), Self.push(2), Self.push(3))
        #expect(machine.start(stopping: false) == .recordThenClaim(record: []))
        #expect(machine.claimed([a], stopping: false) == .send([a], record: [], claimNext: true))
        // Round 1 back, round 2 claimed meanwhile: round 2 goes out while round 1 is recorded.
        #expect(
            machine.sent(Self.round(sent: 1), attempts: [Self.sent(a)], claimed: [b, c], stopping: false)
                == .send([b, c], record: [Self.sent(a)], claimNext: true))
        // Round 2 back, nothing more claimed: record it, then claim.
        #expect(
            machine.sent(Self.round(sent: 2), attempts: [Self.sent(b), Self.sent(c)], claimed: [], stopping: false)
                == .recordThenClaim(record: [Self.sent(b), Self.sent(c)]))
        #expect(machine.claimed([], stopping: false) == .countPending)
        var total = DeliveryRound()
        total.add(Self.round(sent: 3))
        #expect(
            machine.pending(count: 0, nextIn: nil, stopping: false) == .finish(record: [], release: [], total: total))
    }

    @Test(
        "nothing claimable: wait for the next due push, at most the poll interval; then claim again",
        arguments: [
            (nil as Double?, 0.5), (0.2, 0.2), (0.001, 0.01), (-3, 0.5), (60, 0.5),
        ])
    func waits(nextIn: Double?, seconds: Double) {
        var machine = Machine(untilEmpty: false)
        _ = machine.start(stopping: false)
        _ = machine.claimed([], stopping: false)
        #expect(machine.pending(count: 4, nextIn: nextIn, stopping: false) == .sleep(seconds: seconds))
        #expect(machine.woke(stopping: false) == .recordThenClaim(record: []))
    }

    @Test("asked to stop: the round on the wire completes, nothing more is claimed, the claimed are released")
    func stopping() {
        var machine = Machine(untilEmpty: false)
        let (a, b) = (Self.push(1), Self.push(2))
        _ = machine.start(stopping: false)
        _ = machine.claimed([a], stopping: false)
        let action = machine.sent(Self.round(sent: 1), attempts: [Self.sent(a)], claimed: [b], stopping: true)
        #expect(action == .finish(record: [Self.sent(a)], release: [b], total: Self.round(sent: 1)))
        var early = Machine(untilEmpty: false)
        #expect(early.start(stopping: true) == .finish(record: [], release: [], total: DeliveryRound()))
        var claimedThenStopped = Machine(untilEmpty: false)
        _ = claimedThenStopped.start(stopping: false)
        #expect(
            claimedThenStopped.claimed([a], stopping: true) == .finish(record: [], release: [a], total: DeliveryRound())
        )
    }

    @Test("paused by APNs: the round is recorded, the next one released, the totals say why")
    func paused() {
        var machine = Machine(untilEmpty: false)
        let (a, b) = (Self.push(1), Self.push(2))
        _ = machine.start(stopping: false)
        _ = machine.claimed([a], stopping: false)
        let released = Attempt(a, status: 403, reason: "InvalidProviderToken", outcome: .release(label: "paused"))
        let round = Self.round(sent: 0, paused: "InvalidProviderToken")
        guard
            case .finish(let record, let release, let total) = machine.sent(
                round, attempts: [released], claimed: [b], stopping: false)
        else {
            Issue.record("expected finish")
            return
        }
        #expect(record == [released] && release == [b] && total.paused == "InvalidProviderToken")
    }

    @Test("a failed record is recorded again with everything sent since; the claimed are released")
    func failures() {
        var machine = Machine(untilEmpty: false)
        let (a, b, c) = (Self.push(1), Self.push(2), Self.push(3))
        _ = machine.start(stopping: false)
        _ = machine.claimed([a], stopping: false)
        _ = machine.sent(Self.round(sent: 1), attempts: [Self.sent(a)], claimed: [b], stopping: false)
        // Round 2 went out while round 1's record failed: both are recorded once more, nothing claimed is left.
        #expect(
            machine.failed(recordFailed: true, sent: [Self.sent(b)])
                == .abort(record: [Self.sent(a), Self.sent(b)], release: []))
        var claimFails = Machine(untilEmpty: false)
        _ = claimFails.start(stopping: false)
        _ = claimFails.claimed([c], stopping: false)
        #expect(
            claimFails.failed(recordFailed: false, sent: [Self.sent(c)]) == .abort(record: [Self.sent(c)], release: []))
    }

    @Test(
        "each APNs answer's outcome",
        arguments: [
            (APNsResult(status: 200), false, Outbox.Outcome.sent, nil as String?),
            (APNsResult(status: 410, reason: "Unregistered"), false, .deactivate(reason: "Unregistered"), nil),
            (APNsResult(status: 413, reason: "PayloadTooLarge"), false, .failed(reason: "PayloadTooLarge"), nil),
            (APNsResult(status: 429, reason: "TooManyRequests"), false, .retry(after: 2), nil),
            (APNsResult(status: 403, reason: "ExpiredProviderToken"), false, .retry(after: 0), nil),
            (
                APNsResult(status: 403, reason: "InvalidProviderToken"), false, .release(label: "paused"),
                "InvalidProviderToken"
            ),
            (APNsResult(error: APNsError(.timeout, "no answer")), true, .release(label: "released"), nil),
            (APNsResult(error: APNsError(.timeout, "no answer")), false, .retry(after: 2), nil),
            (APNsResult(status: 400, reason: "TopicDisallowed"), false, .release(label: "paused"), "TopicDisallowed"),
            (APNsResult(status: 403, reason: "Forbidden"), false, .release(label: "paused"), "Forbidden"),
            (APNsResult(status: 400, reason: "IdleTimeout"), false, .retry(after: 0), nil),
            (APNsResult(status: 403, reason: "UnrelatedKeyIdInToken"), false, .retry(after: 0), nil),
            (APNsResult(status: 503, reason: "Shutdown"), false, .retry(after: 2), nil),
            // Invalid since after the registration: deactivated.
            (
                APNsResult(status: 410, reason: "Unregistered", timestamp: 1_699_999_000_000), false,
                .deactivate(reason: "Unregistered"), nil
            ),
            // Registered (again) after the time APNs says it became invalid: kept.
            (
                APNsResult(status: 410, reason: "Unregistered", timestamp: 1_699_000_000_000), false,
                .failed(reason: "Unregistered before the token was registered again; the activity is kept"), nil
            ),
        ])
    func verdicts(result: APNsResult, cancelled: Bool, outcome: Outbox.Outcome, pause: String?) {
        // Second attempt, full jitter at its ceiling: 2 s; planned and sent well before its expiration.
        var push = Self.push(1, attempts: 1)
        push.registeredAt = Date(timeIntervalSince1970: 1_699_500_000)
        push.createdAt = Date(timeIntervalSince1970: 1_700_000_000)
        let verdict = PushVerdict.decide(
            result, for: push, cancelled: cancelled, backoff: .push, now: Date(timeIntervalSince1970: 1_700_000_010),
            unitRandom: 1)
        #expect(verdict.outcome == outcome)
        #expect(verdict.pause == pause)
    }

    @Test("a 5xx is retried only while the push is still useful; a replayed past push keeps retrying")
    func usefulness() {
        var push = Self.push(1, attempts: 6)  // 7th attempt: up to 64 s
        push.createdAt = Date(timeIntervalSince1970: 1_700_000_000)
        let answer = APNsResult(status: 500, reason: "InternalServerError")
        let late = PushVerdict.decide(
            answer, for: push, cancelled: false, backoff: .push, now: Date(timeIntervalSince1970: 1_700_000_990),
            unitRandom: 1)
        #expect(
            late.outcome
                == .failed(reason: "InternalServerError; no longer useful by the retry (expiration 1700001000)"))
        let early = PushVerdict.decide(
            answer, for: push, cancelled: false, backoff: .push, now: Date(timeIntervalSince1970: 1_700_000_100),
            unitRandom: 1)
        #expect(early.outcome == .retry(after: 64))
        // Planned after its expiration had passed (a replay of a past game): retried as before.
        push.createdAt = Date(timeIntervalSince1970: 1_800_000_000)
        let replayed = PushVerdict.decide(
            answer, for: push, cancelled: false, backoff: .push, now: Date(timeIntervalSince1970: 1_800_000_100),
            unitRandom: 1)
        #expect(replayed.outcome == .retry(after: 64))
    }
}
