import APNs
import Foundation
import PushDelivery
import ScoreStore
import Testing

@Suite("Apple's response table for broadcasts and push-to-start, pure, the jitter passed in")
struct APNsVerdictTests {
    /// A broadcast on its second attempt, planned at 1,700,000,000, stale 15 minutes later.
    static let broadcast = BroadcastPush(
        id: 1, gameId: "g1", channelId: "Y2hhbm5lbA==", environment: .production, requestId: UUID().uuidString,
        event: .update, priority: 10, timestamp: 1_700_000_000, expiration: 1_700_000_900, reason: "run",
        payload: "{}", state: "pending", attempts: 1, lastStatus: nil, lastReason: nil,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))

    @Test(
        "each APNs answer to a broadcast",
        arguments: [
            (APNsResult(status: 200), false, BroadcastVerdict(outcome: .sent)),
            (APNsResult(status: 429, reason: "TooManyRequests"), false, BroadcastVerdict(outcome: .retry(after: 2))),
            (APNsResult(status: 503, reason: "ServiceUnavailable"), false, BroadcastVerdict(outcome: .retry(after: 2))),
            (
                APNsResult(status: 403, reason: "ExpiredProviderToken"), false,
                BroadcastVerdict(outcome: .retry(after: 0))
            ),
            (
                APNsResult(status: 410, reason: "ChannelNotRegistered"), false,
                BroadcastVerdict(outcome: .failed(reason: "ChannelNotRegistered"), channelGone: true)
            ),
            (
                APNsResult(status: 400, reason: "BadChannelId"), false,
                BroadcastVerdict(outcome: .failed(reason: "BadChannelId"), channelGone: true)
            ),
            (
                APNsResult(status: 413, reason: "PayloadTooLarge"), false,
                BroadcastVerdict(outcome: .failed(reason: "PayloadTooLarge"), refused: "PayloadTooLarge")
            ),
            (
                APNsResult(status: 403, reason: "InvalidProviderToken"), false,
                BroadcastVerdict(outcome: .release(label: "paused"), pause: "InvalidProviderToken")
            ),
            (
                APNsResult(error: APNsError(.timeout, "no answer")), true,
                BroadcastVerdict(outcome: .release(label: "released"))
            ),
            (APNsResult(error: APNsError(.timeout, "no answer")), false, BroadcastVerdict(outcome: .retry(after: 2))),
        ])
    func broadcasts(result: APNsResult, cancelled: Bool, verdict: BroadcastVerdict) {
        // Second attempt, full jitter at its ceiling: 2 s, well before the broadcast's expiration.
        #expect(
            PushVerdict.broadcast(
                result, for: Self.broadcast, cancelled: cancelled, backoff: .push,
                now: Date(timeIntervalSince1970: 1_700_000_010), unitRandom: 1) == verdict)
    }

    @Test("a broadcast is retried only while still useful; the jitter comes from the caller")
    func broadcastUsefulness() {
        let answer = APNsResult(status: 500, reason: "InternalServerError")
        let late = PushVerdict.broadcast(
            answer, for: Self.broadcast, cancelled: false, backoff: .push,
            now: Date(timeIntervalSince1970: 1_700_000_899), unitRandom: 1)
        #expect(late.outcome == .failed(reason: "InternalServerError; no longer useful by the retry"))
        let jittered = PushVerdict.broadcast(
            answer, for: Self.broadcast, cancelled: false, backoff: .push,
            now: Date(timeIntervalSince1970: 1_700_000_010), unitRandom: 0.25)
        #expect(jittered.outcome == .retry(after: 0.5))
    }

    static func start(attempts: Int) -> DeviceStart {
        DeviceStart(
            id: 1, deviceId: 1, gameId: "g1", startToken: String(repeating: "ab", count: 32), environment: .production,
            apnsId: UUID().uuidString, payload: "{}", state: "pending", attempts: attempts, lastStatus: nil,
            lastReason: nil, activityId: nil)
    }

    @Test(
        "each APNs answer to a push-to-start: a lost answer is never sent again; one that never left is",
        arguments: [
            (APNsResult(status: 200), false, 1, Outbox.Outcome.sent, nil as String?),
            (
                APNsResult(status: 410, reason: "Unregistered"), false, 1,
                .deactivate(reason: "Unregistered"), nil
            ),
            (
                APNsResult(status: 400, reason: "BadDeviceToken"), false, 1,
                .deactivate(reason: "BadDeviceToken"), nil
            ),
            (APNsResult(status: 429, reason: "TooManyRequests"), false, 1, .retry(after: 2), nil),
            (
                APNsResult(status: 429, reason: "TooManyRequests"), false, 5,
                .failed(reason: "TooManyRequests after 5 attempts"), nil
            ),
            (
                APNsResult(status: 403, reason: "InvalidProviderToken"), false, 1, .release(label: "paused"),
                "InvalidProviderToken"
            ),
            (
                APNsResult(error: APNsError(.timeout, "no answer")), false, 1,
                .failed(reason: "no answer (apns.timeout): not sent again, never two starts"), nil
            ),
            (APNsResult(error: APNsError(.connectFailed, "refused")), false, 1, .retry(after: 2), nil),
            (APNsResult(error: APNsError(.connectFailed, "refused")), true, 1, .release(label: "released"), nil),
        ])
    func starts(
        result: APNsResult, cancelled: Bool, attempts: Int, outcome: Outbox.Outcome, pause: String?
    ) {
        let verdict = PushVerdict.start(
            result, for: Self.start(attempts: attempts), cancelled: cancelled, backoff: .push, maximumAttempts: 5,
            unitRandom: 1)
        #expect(verdict.outcome == outcome)
        #expect(verdict.pause == pause)
    }
}
