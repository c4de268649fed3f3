import APNs
import Foundation
import Retry
import ScoreStore

/// What becomes of a broadcast APNs answered (``PushVerdict/broadcast(_:for:cancelled:backoff:now:unitRandom:)``).
public struct BroadcastVerdict: Sendable, Equatable {
    public var outcome: Broadcasts.Outcome
    /// Why delivery must pause (a configuration error of the provider), if it must.
    public var pause: String?
    /// APNs no longer knows the channel (`ChannelNotRegistered`, `BadChannelId`): mark it deleted.
    public var channelGone = false
    /// Why APNs refused the broadcast for good (to log), when it did.
    public var refused: String?

    public init(
        outcome: Broadcasts.Outcome, pause: String? = nil, channelGone: Bool = false, refused: String? = nil
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
        if cancelled && result.status == nil { return BroadcastVerdict(outcome: .release) }
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
            return BroadcastVerdict(outcome: .release, pause: why)
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
    ) -> (outcome: Devices.StartOutcome, pause: String?) {
        let delay = backoff.delay(attempt: start.attempts + 1, unitRandom: unitRandom) / .seconds(1)
        guard result.status != nil else {
            switch result.error?.code {
            case .connectFailed?, .signingFailed?, .invalidRequest?, .clientShutDown?:
                return (cancelled ? .release : .retry(after: delay), nil)
            default:
                let why = "no answer (\(result.error?.code.rawValue ?? "?")): not sent again, never two starts"
                return (.failed(reason: why, deactivate: false), nil)
            }
        }
        switch result.action {
        case .delivered: return (.sent, nil)
        case .deactivate(let why): return (.failed(reason: why, deactivate: true), nil)
        case .pause(let why): return (.release, why)
        case .retry, .keepTokenLongerAndRetry, .refreshTokenAndRetry, .reconnectAndRetry:
            guard start.attempts < maximumAttempts else {
                let why = "\(result.reason ?? "retry") after \(start.attempts) attempts"
                return (.failed(reason: why, deactivate: false), nil)
            }
            return (.retry(after: delay), nil)
        case .neverRetry(let why): return (.failed(reason: why, deactivate: false), nil)
        }
    }
}
