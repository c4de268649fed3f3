import FCM
import Foundation
import Retry
import ScoreDomain
import ScoreStore

/// The FCM side of delivery, pure: the message a push becomes, and what each answer means.
public enum FCMVerdict {
    /// The FCM message of an outbox push.
    ///
    /// An iOS activity (route `fcm`): the `aps` body byte for byte as APNs would get it, the activity's
    /// token in `apns.live_activity_token`, and both `apns-priority` and `apns-expiration` always
    /// explicit (without them FCM sends priority 10 and a 30-day expiration). An Android follower: a
    /// non-collapsible high-priority data message whose `ttl` runs to the push's expiration (the full
    /// stale or dismissal window for a replay of a past game).
    public static func message(for push: TargetPush, now: Date) -> String {
        let target = Self.target(push.fcm)
        switch push.route {
        case .android:
            let live = Double(push.expiration) > push.createdAt.timeIntervalSince1970
            let ttl =
                live
                ? max(0, push.expiration - Int(now.timeIntervalSince1970))
                : (push.event == .end ? 3600 : 900)
            return FCMMessage.data(target: target, dataJSON: push.payload, ttlSeconds: ttl)
        case .apns, .fcm:
            return FCMMessage.liveActivity(
                target: target, liveActivityToken: push.pushToken, priority: push.priority,
                expiration: push.expiration, apsPayload: push.payload)
        }
    }

    /// The stored address a message goes to (none: an empty token, which FCM refuses as `INVALID_ARGUMENT`).
    static func target(_ address: FCMAddress?) -> FCMAddress { address ?? .token("") }

    /// What is recorded as the answer's reason: FCM's error code, or why no answer came.
    public static func reason(_ result: FCMResult) -> String? {
        switch result.failure {
        case .transport(let why): return "transport: \(why)"
        case .notSent(let why): return "not sent: \(why)"
        case .authorization(let why): return "oauth: \(why)"
        case nil: return result.errorCode
        }
    }

    /// The outcome to record for `push` after `result` (``FCMResult/action``), and the reason FCM delivery
    /// must pause, if any: a gone registration deactivates it; a bug fails the push, never retried; a quota,
    /// an overload or a lost connection retries (after `Retry-After`, else the backoff) while the push is
    /// useful; a configuration FCM refuses pauses and deactivates nothing.
    public static func decide(
        _ result: FCMResult, for push: TargetPush, cancelled: Bool, backoff: Backoff, now: Date, unitRandom: Double
    ) -> (outcome: Outbox.Outcome, pause: String?) {
        func retry() -> Outbox.Outcome {
            let delay =
                result.retryAfter ?? backoff.delay(attempt: push.attempts + 1, unitRandom: unitRandom) / .seconds(1)
            guard
                PushVerdict.isUseful(
                    expiration: push.expiration, createdAt: push.createdAt, at: now.addingTimeInterval(delay))
            else {
                let why = reason(result) ?? "HTTP \(result.status ?? 0)"
                return .failed(reason: "\(why); no longer useful by the retry (expiration \(push.expiration))")
            }
            return .retry(after: delay)
        }
        switch result.action {
        case .delivered: return (.sent, nil)
        case .deactivate(let reason): return (.deactivate(reason: reason), nil)
        case .neverRetry(let reason): return (.failed(reason: reason), nil)
        case .retry: return (retry(), nil)
        case .pause(let reason): return (.release(label: "paused"), reason)
        case .noAnswer, .notSent: return (cancelled ? .release(label: "released") : retry(), nil)
        }
    }

    /// The FCM message of a push-to-start: the start token in `apns.live_activity_token`, priority 10,
    /// expiration 0 (as the APNs path sends it), the start body byte for byte.
    public static func message(for start: DeviceStart) -> String {
        let target = Self.target(start.fcm)
        return FCMMessage.liveActivity(
            target: target, liveActivityToken: start.startToken, priority: 10, expiration: 0,
            apsPayload: start.payload)
    }

    /// What to record of a push-to-start sent through FCM (``FCMResult/action``), and the reason to pause,
    /// if any. The rules of the APNs path: a start whose answer was lost is never sent again (a second start
    /// would put a duplicate on the lock screen; one that never left is sent later, or released when the
    /// worker stops); a gone registration retires the device; quotas and overloads back off (honouring
    /// `Retry-After`) up to `maximumAttempts`; a configuration error pauses.
    public static func startOutcome(
        _ result: FCMResult, for start: DeviceStart, cancelled: Bool, backoff: Backoff, maximumAttempts: Int,
        unitRandom: Double
    ) -> (outcome: Outbox.Outcome, pause: String?) {
        func retry(_ why: String) -> Outbox.Outcome {
            start.attempts >= maximumAttempts
                ? .failed(reason: "\(why) after \(start.attempts) attempts")
                : .retry(
                    after: result.retryAfter
                        ?? backoff.delay(attempt: start.attempts + 1, unitRandom: unitRandom) / .seconds(1))
        }
        switch result.action {
        case .delivered: return (.sent, nil)
        case .deactivate(let reason): return (.deactivate(reason: reason), nil)
        case .neverRetry(let reason): return (.failed(reason: reason), nil)
        case .retry(let reason): return (retry(reason), nil)
        case .pause(let reason): return (.release(label: "paused"), reason)
        case .notSent(let why): return (cancelled ? .release(label: "released") : retry("not sent (\(why))"), nil)
        case .noAnswer(let why):
            return (.failed(reason: "no answer (\(why)): not sent again, never two starts"), nil)
        }
    }
}
