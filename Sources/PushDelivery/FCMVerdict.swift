import FCM
import Foundation
import Retry
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
    public static func message(for push: OutboxPush, now: Date) -> String {
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

    /// FCM's name for a stored address (none: an empty token, which FCM refuses as `INVALID_ARGUMENT`).
    static func target(_ address: FCMAddress?) -> FCMTarget {
        switch address {
        case .fid(let fid): .fid(fid)
        case .token(let token): .token(token)
        case nil: .token("")
        }
    }

    /// What is recorded as the answer's reason: FCM's error code, or why no answer came.
    public static func reason(_ result: FCMResult) -> String? {
        switch result.failure {
        case .transport(let why): return "transport: \(why)"
        case .notSent(let why): return "not sent: \(why)"
        case .authorization(let why): return "oauth: \(why)"
        case nil: return result.errorCode
        }
    }

    /// The outcome to record for `push` after `result`, and the reason FCM delivery must pause, if any.
    ///
    /// The error is read from FCM's body (`error.details[].errorCode`), not guessed from the status:
    /// `UNREGISTERED` and `SENDER_ID_MISMATCH` deactivate the registration; `INVALID_ARGUMENT` fails the
    /// push as a bug, never retried; `QUOTA_EXCEEDED` waits `Retry-After` (or the backoff);
    /// `UNAVAILABLE`, `INTERNAL` and a lost connection retry with backoff while the push is useful;
    /// `THIRD_PARTY_AUTH_ERROR` (the APNs key in Firebase is wrong), a refused OAuth exchange and an
    /// access token still refused after its renewal pause FCM delivery and deactivate nothing, as does
    /// a 404 without Google's error body (a wrong `SCOREFEED_FCM_URL`); another 404 fails the push.
    public static func decide(
        _ result: FCMResult, for push: OutboxPush, cancelled: Bool, backoff: Backoff, now: Date, unitRandom: Double
    ) -> (outcome: Outbox.Outcome, pause: String?) {
        if result.isSuccess { return (.sent, nil) }
        func retry(after given: Double?) -> Outbox.Outcome {
            let delay = given ?? backoff.delay(attempt: push.attempts + 1, unitRandom: unitRandom) / .seconds(1)
            guard
                PushVerdict.isUseful(
                    expiration: push.expiration, createdAt: push.createdAt, at: now.addingTimeInterval(delay))
            else {
                let why = reason(result) ?? "HTTP \(result.status ?? 0)"
                return .failed(reason: "\(why); no longer useful by the retry (expiration \(push.expiration))")
            }
            return .retry(after: delay)
        }
        switch result.failure {
        case .authorization(let why):
            return (.release(label: "paused"), "the OAuth token exchange was refused (\(why))")
        case .transport, .notSent:
            return cancelled ? (.release(label: "released"), nil) : (retry(after: nil), nil)
        case nil:
            break
        }
        switch result.code {
        case .unregistered, .senderIdMismatch:
            return (.deactivate(reason: result.errorCode ?? "UNREGISTERED"), nil)
        case .invalidArgument:
            return (.failed(reason: "INVALID_ARGUMENT: \(result.message ?? "no message")"), nil)
        case .quotaExceeded:
            return (retry(after: result.retryAfter), nil)
        case .unavailable, .internalError:
            return (retry(after: result.retryAfter), nil)
        case .thirdPartyAuthError:
            return (
                .release(label: "paused"),
                "THIRD_PARTY_AUTH_ERROR: the APNs key or certificate uploaded to Firebase is not accepted"
            )
        case .unspecified, nil:
            switch result.status ?? 0 {
            case 401:
                return (
                    .release(label: "paused"), "FCM refused the renewed access token (\(result.errorCode ?? "401"))"
                )
            case 403:
                return (.release(label: "paused"), "FCM denied the project (\(result.errorCode ?? "403"))")
            case 404 where result.errorCode == nil:
                // Not Google's error body at all: the URL is wrong, and every message would get the same.
                return (
                    .release(label: "paused"),
                    "FCM answered 404 without an FCM error: check SCOREFEED_FCM_URL"
                )
            case 429, 500...599:
                return (retry(after: result.retryAfter), nil)
            default:
                return (
                    .failed(reason: "HTTP \(result.status ?? 0) \(result.errorCode ?? ""): \(result.message ?? "")"),
                    nil
                )
            }
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

    /// What to record of a push-to-start sent through FCM, and the reason to pause, if any. The rules
    /// of the APNs path: a start whose answer was lost is never sent again (a second start would put
    /// a duplicate on the lock screen; one that never left is sent later, or released when the worker
    /// stops); a gone registration retires the device; 429 and 5xx back off (honouring `Retry-After`) up
    /// to `maximumAttempts`; a configuration error pauses.
    public static func startOutcome(
        _ result: FCMResult, for start: DeviceStart, cancelled: Bool, backoff: Backoff, maximumAttempts: Int,
        unitRandom: Double
    ) -> (outcome: Devices.StartOutcome, pause: String?) {
        if result.isSuccess { return (.sent, nil) }
        func retry(_ why: String) -> Devices.StartOutcome {
            start.attempts >= maximumAttempts
                ? .failed(reason: "\(why) after \(start.attempts) attempts", deactivate: false)
                : .retry(
                    after: result.retryAfter
                        ?? backoff.delay(attempt: start.attempts + 1, unitRandom: unitRandom) / .seconds(1))
        }
        switch result.failure {
        case .authorization(let why):
            return (.release, "the OAuth token exchange was refused (\(why))")
        case .notSent(let why):
            // It never left: safe to send later.
            return (cancelled ? .release : retry("not sent (\(why))"), nil)
        case .transport(let why):
            return (.failed(reason: "no answer (\(why)): not sent again, never two starts", deactivate: false), nil)
        case nil:
            break
        }
        let code = result.errorCode ?? "HTTP \(result.status ?? 0)"
        switch result.code {
        case .unregistered, .senderIdMismatch: return (.failed(reason: code, deactivate: true), nil)
        case .invalidArgument: return (.failed(reason: "\(code): \(result.message ?? "")", deactivate: false), nil)
        case .quotaExceeded, .unavailable, .internalError: return (retry(code), nil)
        case .thirdPartyAuthError:
            return (
                .release, "THIRD_PARTY_AUTH_ERROR: the APNs key or certificate uploaded to Firebase is not accepted"
            )
        case .unspecified, nil:
            switch result.status ?? 0 {
            case 401, 403: return (.release, "FCM refused the request (\(code))")
            case 404 where result.errorCode == nil:
                return (.release, "FCM answered 404 without an FCM error: check SCOREFEED_FCM_URL")
            case 429, 500...599: return (retry(code), nil)
            default: return (.failed(reason: code, deactivate: false), nil)
            }
        }
    }
}
