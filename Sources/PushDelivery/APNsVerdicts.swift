import APNs
import Foundation
import Retry
import ScoreStore

/// What becomes of a broadcast APNs answered (``PushVerdict/broadcast(_:for:cancelled:backoff:now:unitRandom:)``).
public struct BroadcastVerdict: Sendable, Equatable {
    public var outcome: Outbox.Outcome
    /// Why delivery must pause (a configuration error of the provider), if it must.
    public var pause: String?
    /// APNs no longer knows the channel (`ChannelNotRegistered`, `BadChannelId`): mark it deleted.
    public var channelGone = false
    /// Why APNs refused the broadcast for good (to log), when it did.
    public var refused: String?

    public init(
        outcome: Outbox.Outcome, pause: String? = nil, channelGone: Bool = false, refused: String? = nil
    ) {
        (self.outcome, self.pause, self.channelGone, self.refused) = (outcome, pause, channelGone, refused)
    }
}

extension PushVerdict {
    /// Apple's response table for a broadcast to a channel, pure, the jitter passed in: a send the
    /// worker cut short is released; a channel APNs no longer knows fails and is forgotten; a retry
    /// after a backoff only while the broadcast is still useful; a connection-level answer at once; a
    /// configuration error pauses.
    /// - Parameter unitRandom: a number in `0...1` for the retry's jitter.
    public static func broadcast(
        _ result: APNsResult, for push: BroadcastPush, cancelled: Bool, backoff: Backoff, now: Date, unitRandom: Double
    ) -> BroadcastVerdict {
        if cancelled && result.status == nil { return BroadcastVerdict(outcome: .release(label: "released")) }
        if let reason = result.reason, reason == "ChannelNotRegistered" || reason == "BadChannelId" {
            return BroadcastVerdict(outcome: .failed(reason: reason), channelGone: true)
        }
        switch result.action {
        case .delivered:
            return BroadcastVerdict(outcome: .sent)
        case .retry, .keepTokenLongerAndRetry:
            let delay = backoff.delay(attempt: push.attempts + 1, unitRandom: unitRandom) / .seconds(1)
            guard isUseful(expiration: push.expiration, createdAt: push.createdAt, at: now.addingTimeInterval(delay))
            else {
                let why = result.reason ?? result.error.map { $0.code.rawValue } ?? "retry"
                return BroadcastVerdict(outcome: .failed(reason: "\(why); no longer useful by the retry"))
            }
            return BroadcastVerdict(outcome: .retry(after: delay))
        case .refreshTokenAndRetry, .reconnectAndRetry:
            return BroadcastVerdict(outcome: .retry(after: 0))
        case .pause(let why):
            return BroadcastVerdict(outcome: .release(label: "paused"), pause: why)
        case .deactivate(let why), .neverRetry(let why):
            return BroadcastVerdict(outcome: .failed(reason: why), refused: why)
        }
    }

    /// Apple's response table for a push-to-start, pure, the jitter passed in. A start whose answer
    /// was lost is never sent again (APNs may have started the activity: a second start would put a
    /// duplicate on the lock screen); one that never left (no connection, no signature, an invalid
    /// request, the client shut down) is sent later, or released when the worker stops. 429 and 5xx
    /// back off up to `maximumAttempts`; a gone or wrong token retires the device's start token; a
    /// configuration error pauses.
    /// - Returns: the outcome, and why delivery must pause, if it must.
    public static func start(
        _ result: APNsResult, for start: DeviceStart, cancelled: Bool, backoff: Backoff, maximumAttempts: Int,
        unitRandom: Double
    ) -> (outcome: Outbox.Outcome, pause: String?) {
        let delay = backoff.delay(attempt: start.attempts + 1, unitRandom: unitRandom) / .seconds(1)
        guard result.status != nil else {
            switch result.error?.code {
            case .connectFailed?, .signingFailed?, .invalidRequest?, .clientShutDown?:
                return (cancelled ? .release(label: "released") : .retry(after: delay), nil)
            default:
                let why = "no answer (\(result.error?.code.rawValue ?? "?")): not sent again, never two starts"
                return (.failed(reason: why), nil)
            }
        }
        switch result.action {
        case .delivered: return (.sent, nil)
        case .deactivate(let why): return (.deactivate(reason: why), nil)
        case .pause(let why): return (.release(label: "paused"), why)
        case .retry, .keepTokenLongerAndRetry, .refreshTokenAndRetry, .reconnectAndRetry:
            guard start.attempts < maximumAttempts else {
                let why = "\(result.reason ?? "retry") after \(start.attempts) attempts"
                return (.failed(reason: why), nil)
            }
            return (.retry(after: delay), nil)
        case .neverRetry(let why): return (.failed(reason: why), nil)
        }
    }
}

/// What becomes of one push APNs answered: pure, the jitter passed in.
public enum PushVerdict {
    /// Whether a push with this `apns-expiration` (its stale or dismissal date, UNIX seconds; 0: none)
    /// is still worth sending at `time`. A push planned already past its expiration (a replay of a
    /// past game) always is.
    public static func isUseful(expiration: Int, createdAt: Date, at time: Date) -> Bool {
        let live = expiration > 0 && Double(expiration) > createdAt.timeIntervalSince1970
        return !live || time.timeIntervalSince1970 <= Double(expiration)
    }

    /// The outcome to record for `push` after `result`, and the reason delivery must pause, if any.
    ///
    /// Apple's response table, exactly: a configuration error pauses delivery and deactivates
    /// nothing; a 410 deactivates only a token registered before the `timestamp` APNs gives (a token
    /// registered again since is kept, the push failed); a retry after a backoff is made only while the
    /// push is still useful (before its `apns-expiration`, its stale or dismissal date) unless it was
    /// already past it when planned (a replay of a past game); a connection-level answer
    /// (`IdleTimeout`, `UnrelatedKeyIdInToken`) is retried at once, on a new connection.
    ///
    /// - Parameters:
    ///   - cancelled: the worker is shutting down: a send it cut short is released, not retried.
    ///   - now: the current time.
    ///   - unitRandom: a number in `0...1` for the retry's jitter.
    public static func decide(
        _ result: APNsResult, for push: TargetPush, cancelled: Bool, backoff: Backoff, now: Date, unitRandom: Double
    ) -> (outcome: Outbox.Outcome, pause: String?) {
        if cancelled, result.status == nil, result.action.isRetry {
            return (.release(label: "released"), nil)
        }
        switch result.action {
        case .delivered:
            return (.sent, nil)
        case .retry, .keepTokenLongerAndRetry:
            let delay = backoff.delay(attempt: push.attempts + 1, unitRandom: unitRandom) / .seconds(1)
            if !isUseful(
                expiration: push.expiration, createdAt: push.createdAt, at: now.addingTimeInterval(delay))
            {
                let why = result.reason ?? result.error.map { $0.code.rawValue } ?? "HTTP \(result.status ?? 0)"
                return (.failed(reason: "\(why); no longer useful by the retry (expiration \(push.expiration))"), nil)
            }
            return (.retry(after: delay), nil)
        case .refreshTokenAndRetry, .reconnectAndRetry:
            return (.retry(after: 0), nil)
        case .deactivate(let why):
            if result.status == 410, let invalidSince = result.timestamp,
                push.registeredAt.timeIntervalSince1970 * 1000 >= Double(invalidSince)
            {
                return (.failed(reason: "\(why) before the token was registered again; the activity is kept"), nil)
            }
            return (.deactivate(reason: why), nil)
        case .neverRetry(let why):
            return (.failed(reason: why), nil)
        case .pause(let why):
            return (.release(label: "paused"), why)
        }
    }
}
