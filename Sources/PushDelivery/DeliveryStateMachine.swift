import APNs
import Foundation
import Retry
import ScoreStore

/// The delivery worker's pipeline as a pure state machine (the model: postgres-nio's connection
/// state machines). Each input — started, a round claimed, a round sent (with the next one claimed
/// meanwhile), the pending count, a wait over, a failure — returns the next ``Action``; the
/// ``DeliveryWorker`` only performs them. `stopping` comes in with every input (the worker was asked
/// to stop, or its task was cancelled): then nothing more is claimed, what was sent is recorded and
/// what is claimed but unsent is released.
///
/// Pipelined: while a round is on the wire, the previous round's attempts are recorded and the next
/// round claimed (``Action/send(_:record:claimNext:)``). Every round sent is recorded before the run
/// ends, also when it fails: a record that failed is tried again with the next one, and on a failure
/// everything unrecorded is recorded at least once more.
public struct DeliveryStateMachine: Sendable, Equatable {
    public typealias Attempt = Outbox.Attempt

    /// What the worker does next.
    public enum Action: Sendable, Equatable {
        /// Record `record`, then claim a round; answer with ``claimed(_:stopping:)`` or ``failed(recordFailed:sent:)``.
        case recordThenClaim(record: [Attempt])
        /// Send the pushes while recording `record` and, when `claimNext`, claiming the next round;
        /// answer with ``sent(_:attempts:claimed:stopping:)`` or ``failed(recordFailed:sent:)``.
        case send([OutboxPush], record: [Attempt], claimNext: Bool)
        /// Count what is left to deliver; answer with ``pending(count:nextIn:stopping:)``.
        case countPending
        /// Wait, then answer with ``woke(stopping:)``.
        case sleep(seconds: Double)
        /// Record, release, and return the totals.
        case finish(record: [Attempt], release: [OutboxPush], total: DeliveryRound)
        /// Record and release what can be, then rethrow the failure.
        case abort(record: [Attempt], release: [OutboxPush])
    }

    /// Stop once nothing is left to deliver.
    public let untilEmpty: Bool
    /// The longest wait when nothing could be claimed.
    public let pollInterval: Double
    public private(set) var total = DeliveryRound()
    /// Sent, not recorded yet.
    private var unrecorded: [Attempt] = []
    /// Being recorded while a round is on the wire (recorded again when that record fails).
    private var recording: [Attempt] = []
    /// Claimed ahead, not sent yet.
    private var next: [OutboxPush] = []

    public init(untilEmpty: Bool, pollInterval: Double = 0.5) {
        self.untilEmpty = untilEmpty
        self.pollInterval = pollInterval
    }

    public mutating func start(stopping: Bool) -> Action {
        stopping ? finish() : recordThenClaim()
    }

    /// A round was claimed while nothing was on the wire.
    public mutating func claimed(_ pushes: [OutboxPush], stopping: Bool) -> Action {
        recording = []
        if stopping {
            next = pushes
            return finish()
        }
        return pushes.isEmpty ? .countPending : send(pushes, claimNext: true)
    }

    /// A round came back from APNs (`attempts`, counted in `round`) and the next one was claimed.
    public mutating func sent(_ round: DeliveryRound, attempts: [Attempt], claimed: [OutboxPush], stopping: Bool)
        -> Action
    {
        recording = []
        unrecorded = attempts
        next = claimed
        total.add(round)
        if let paused = round.paused {
            total.paused = paused
            return finish()
        }
        if stopping { return finish() }
        if !next.isEmpty {
            let pushes = next
            next = []
            return send(pushes, claimNext: true)
        }
        return recordThenClaim()
    }

    /// Nothing could be claimed: `count` pushes are still to deliver, the next due in `nextIn` seconds.
    public mutating func pending(count: Int, nextIn: Double?, stopping: Bool) -> Action {
        if untilEmpty && count == 0 || stopping { return finish() }
        // Due yet not claimed: pushes waiting behind an earlier push of their activity that another
        // worker holds. Polling faster would not get them sooner.
        let due = (nextIn ?? pollInterval) <= 0
        return .sleep(seconds: due ? pollInterval : min(pollInterval, max(0.01, nextIn ?? pollInterval)))
    }

    public mutating func woke(stopping: Bool) -> Action {
        stopping ? finish() : recordThenClaim()
    }

    /// A record, a claim or a count failed (`recordFailed`: it was the record); `sent` are the
    /// attempts of a round that went out meanwhile.
    public mutating func failed(recordFailed: Bool, sent: [Attempt] = []) -> Action {
        let record = (recordFailed ? recording : []) + unrecorded + sent
        let release = next
        (recording, unrecorded, next) = ([], [], [])
        return .abort(record: record, release: release)
    }

    // MARK: - Rules

    private mutating func recordThenClaim() -> Action {
        (recording, unrecorded) = (unrecorded, [])
        return .recordThenClaim(record: recording)
    }

    private mutating func send(_ pushes: [OutboxPush], claimNext: Bool) -> Action {
        (recording, unrecorded) = (unrecorded, [])
        return .send(pushes, record: recording, claimNext: claimNext)
    }

    private mutating func finish() -> Action {
        let action = Action.finish(record: unrecorded, release: next, total: total)
        (unrecorded, next) = ([], [])
        return action
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
        _ result: APNsResult, for push: OutboxPush, cancelled: Bool, backoff: Backoff, now: Date, unitRandom: Double
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
