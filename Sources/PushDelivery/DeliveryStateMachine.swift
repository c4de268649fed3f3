import APNs
import Foundation
import Retry
import ScoreStore

/// The delivery worker's pipeline as a pure state machine, the same for every kind of message
/// (``DeliveryQueue``) (the model: postgres-nio's connection
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
public struct DeliveryStateMachine<Message: Sendable & Equatable, Attempt: Sendable & Equatable>: Sendable, Equatable {

    /// What the worker does next.
    public enum Action: Sendable, Equatable {
        /// Record `record`, then claim a round; answer with ``claimed(_:stopping:)`` or ``failed(recordFailed:sent:)``.
        case recordThenClaim(record: [Attempt])
        /// Send the pushes while recording `record` and, when `claimNext`, claiming the next round;
        /// answer with ``sent(_:attempts:claimed:stopping:)`` or ``failed(recordFailed:sent:)``.
        case send([Message], record: [Attempt], claimNext: Bool)
        /// Count what is left to deliver; answer with ``pending(count:nextIn:stopping:)``.
        case countPending
        /// Wait, then answer with ``woke(stopping:)``.
        case sleep(seconds: Double)
        /// Record, release, and return the totals.
        case finish(record: [Attempt], release: [Message], total: DeliveryRound)
        /// Record and release what can be, then rethrow the failure.
        case abort(record: [Attempt], release: [Message])
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
    private var next: [Message] = []

    public init(untilEmpty: Bool, pollInterval: Double = 0.5) {
        self.untilEmpty = untilEmpty
        self.pollInterval = pollInterval
    }

    public mutating func start(stopping: Bool) -> Action {
        stopping ? finish() : recordThenClaim()
    }

    /// A round was claimed while nothing was on the wire.
    public mutating func claimed(_ pushes: [Message], stopping: Bool) -> Action {
        recording = []
        if stopping {
            next = pushes
            return finish()
        }
        return pushes.isEmpty ? .countPending : send(pushes, claimNext: true)
    }

    /// A round came back from APNs (`attempts`, counted in `round`) and the next one was claimed.
    public mutating func sent(_ round: DeliveryRound, attempts: [Attempt], claimed: [Message], stopping: Bool)
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

    private mutating func send(_ pushes: [Message], claimNext: Bool) -> Action {
        (recording, unrecorded) = (unrecorded, [])
        return .send(pushes, record: recording, claimNext: claimNext)
    }

    private mutating func finish() -> Action {
        let action = Action.finish(record: unrecorded, release: next, total: total)
        (unrecorded, next) = ([], [])
        return action
    }
}
