import APNs
import FCM
import Foundation
import LiveActivity
import Logging
import PostgresClient
import Retry
import ScoreStore

/// What one delivery round did.
public struct DeliveryRound: Sendable, Equatable {
    public var claimed = 0
    public var sent = 0
    public var retried = 0
    public var deactivated = 0
    public var failed = 0
    /// Pushes handed back unsent because the worker was stopped while they were in flight.
    public var released = 0
    /// APNs refused the provider credentials: delivery stopped until an operator fixes them.
    public var paused: String?

    public init() {}

    /// Counts one attempt's outcome (and the reason delivery pauses, if any).
    public mutating func count(_ outcome: Outbox.Outcome, pause: String?) {
        switch outcome {
        case .sent: sent += 1
        case .retry: retried += 1
        case .deactivate: deactivated += 1
        case .failed: failed += 1
        case .release(let label): if label == "released" { released += 1 }
        }
        if let pause { paused = pause }
    }

    public mutating func add(_ round: DeliveryRound) {
        claimed += round.claimed
        sent += round.sent
        retried += round.retried
        deactivated += round.deactivated
        failed += round.failed
        released += round.released
    }
}

/// Where a delivery worker sends the outbox's pushes.
public enum DeliveryTransport: Sendable {
    /// Straight to APNs (route `apns`): the client for an activity's environment.
    case apns(@Sendable (PushEnvironment) -> APNsClient)
    /// Through FCM HTTP v1 (routes `fcm`, iOS activities, and `android`, followers).
    case fcm(FCMClient)

    /// The outbox routes the worker claims.
    public var routes: [PushRoute] {
        switch self {
        case .apns: [.apns]
        case .fcm: [.fcm, .android]
        }
    }

    /// The service named in logs: `APNs` or `FCM`.
    public var name: String {
        switch self {
        case .apns: "APNs"
        case .fcm: "FCM"
        }
    }
}

/// Delivers one outbox (``DeliveryQueue``: pushes to targets, broadcasts to channels, push-to-start):
/// claims due messages (`FOR UPDATE SKIP LOCKED`, with a lease), sends them concurrently over HTTP/2,
/// and records every outcome. At-least-once: a message is marked sent only after the service accepted
/// it, and its stable id (`apns-id`, `apns-request-id`) makes a repeat recognisable. Every decision
/// is the pure ``DeliveryStateMachine``'s; the worker performs its actions.
public struct DeliveryWorker<Queue: DeliveryQueue>: Sendable {
    public let connection: PostgresConnection
    public let queue: Queue
    public let logger: Logger
    /// Messages in one round, sent at once (APNs allows about a thousand streams per connection); the
    /// next round is claimed while this one is on the wire, so up to twice this many are claimed.
    public var batchSize: Int
    /// Seconds a claim is held before another worker may take the message over.
    public var lease = 30
    public var backoff = Backoff.push
    /// Told of every recorded attempt: its outcome (`sent`, `retry`, `deactivated`, `failed`,
    /// `paused`, `released`) and the service's reason, if any (for metrics).
    public var observe: (@Sendable (_ outcome: String, _ reason: String?) -> Void)?

    public init(connection: PostgresConnection, queue: Queue, logger: Logger) {
        self.connection = connection
        self.queue = queue
        self.logger = logger
        batchSize = queue.batchSize
    }

    typealias Machine = DeliveryStateMachine<Queue.Message, Queue.Attempt>

    /// One round: claim what is due, send it, record the outcomes.
    public func deliverDue() async throws -> DeliveryRound {
        let (_, round) = try await recordThenClaim([], claim: true)
        guard let round else { return DeliveryRound() }
        let sent = await queue.send(round, backoff: backoff, logger: logger)
        try await record(sent.attempts)
        await release(sent.withheld)
        if let paused = sent.round.paused { logger.critical("\(queue.pauseMessage(paused))") }
        return sent.round
    }

    /// Records a round's attempts in one transaction and tells ``observe``; `holding`: claimed messages
    /// to send once this commits (``DeliveryQueue/record(_:holding:lease:in:)``).
    private func record(_ attempts: [Queue.Attempt], holding: [Queue.Message] = []) async throws {
        guard !attempts.isEmpty else { return }
        let started = ContinuousClock.now
        let (queue, lease) = (queue, lease)
        try await connection.transaction { try queue.record(attempts, holding: holding, lease: lease, in: $0) }
        if let observe {
            for attempt in attempts {
                let (outcome, reason) = queue.observation(of: attempt)
                observe(outcome, reason)
            }
        }
        logger.debug(
            "delivery round recorded",
            metadata: [
                "messages": "\(attempts.count)", "record.ms": "\((ContinuousClock.now - started) / .milliseconds(1))",
            ])
    }

    /// A round's attempts that could not be recorded (the error is `underlying`).
    private struct RecordFailed: Error {
        var underlying: any Error
    }

    /// What runs while a round (`onTheWire`) is on the wire: records the previous round, then claims
    /// the next round (unless `claim` is false), which comes back prepared (``DeliveryQueue/prepare(_:)``):
    /// built while the round before is still on the wire.
    /// - Throws: ``RecordFailed`` when the previous round was not recorded; the claim's error otherwise.
    private func recordThenClaim(_ attempts: [Queue.Attempt], claim: Bool, onTheWire: [Queue.Message] = [])
        async throws -> (messages: [Queue.Message], round: Queue.Round?)
    {
        do {
            try await record(attempts)
        } catch {
            throw RecordFailed(underlying: error)
        }
        guard claim else { return ([], nil) }
        let (queue, limit, lease) = (queue, batchSize, self.lease)
        let claimed = try await connection.transaction {
            try queue.claim(limit: limit, lease: lease, after: onTheWire, in: $0)
        }
        return (claimed, claimed.isEmpty ? nil : queue.prepare(claimed))
    }

    /// Gives claimed but unsent messages back at once instead of when their lease ends.
    private func release(_ messages: [Queue.Message]) async {
        guard !messages.isEmpty else { return }
        let queue = queue
        do {
            try await connection.transaction { try queue.release(messages, in: $0) }
        } catch {
            logger.warning(
                "could not release claimed messages; their lease will expire", metadata: ["error": "\(error)"])
        }
    }

    /// Delivers until cancelled, until `stop` says so (checked between rounds: the round in flight
    /// completes), or until nothing is left to deliver when `untilEmpty` is set.
    ///
    /// Pipelined: while a round is on the wire, the previous round's outcomes are recorded and the next
    /// round claimed (the claim skips targets with a message on the wire, so a round never overtakes an
    /// earlier message of the same target still in flight). Claimed messages not sent when it stops are
    /// released at once; when the task is cancelled mid-round, the messages still in flight are released
    /// too (a start whose request may have reached APNs is not: it is never sent twice). Every round sent
    /// is recorded before it returns, also when it throws.
    ///
    /// - Returns: the totals; stops early when delivery is paused (see ``DeliveryRound/paused``).
    public func run(
        untilEmpty: Bool, pollInterval: Double = 0.5, wakeup: DeliveryWakeup? = nil,
        stop: @Sendable () -> Bool = { false }
    ) async throws -> DeliveryRound {
        var machine = Machine(untilEmpty: untilEmpty, pollInterval: pollInterval)
        var action = machine.start(stopping: Task.isCancelled || stop())
        var failure: (any Error)?
        /// The round claimed while the one before was on the wire, prepared there too.
        var ready: (messages: [Queue.Message], round: Queue.Round)?
        while true {
            switch action {
            case .recordThenClaim(let record):
                do {
                    let (claimed, prepared) = try await recordThenClaim(record, claim: true)
                    ready = prepared.map { (claimed, $0) }
                    action = machine.claimed(claimed, stopping: Task.isCancelled || stop())
                } catch {
                    failure = error
                    action = machine.failed(recordFailed: error is RecordFailed)
                }
            case .send(let messages, var record, let claimNext):
                // A walk's next batch waits for the record of the one before (at most one batch unrecorded).
                if queue.mustRecord(record, before: messages) {
                    do {
                        try await self.record(record, holding: messages)
                        record = []
                    } catch {
                        await release(messages)
                        failure = error
                        action = machine.failed(recordFailed: true)
                        continue
                    }
                }
                let round = ready.flatMap { $0.messages == messages ? $0.round : nil } ?? queue.prepare(messages)
                ready = nil
                async let upcoming = recordThenClaim(record, claim: claimNext, onTheWire: messages)
                let sent = await queue.send(round, backoff: backoff, logger: logger)
                if let paused = sent.round.paused { logger.critical("\(queue.pauseMessage(paused))") }
                do {
                    let (claimed, prepared) = try await upcoming
                    ready = prepared.map { (claimed, $0) }
                    action = machine.sent(
                        sent.round, attempts: sent.attempts, claimed: claimed, stopping: Task.isCancelled || stop())
                } catch {
                    failure = error
                    action = machine.failed(recordFailed: error is RecordFailed, sent: sent.attempts)
                }
                await release(sent.withheld)
            case .countPending:
                do {
                    let queue = queue
                    let (count, nextIn) = try await connection.withSession { try queue.pending(in: $0) }
                    action = machine.pending(count: count, nextIn: nextIn, stopping: Task.isCancelled || stop())
                } catch {
                    failure = error
                    action = machine.failed(recordFailed: false)
                }
            case .sleep(let seconds):
                if let wakeup {
                    await wakeup.wait(upTo: seconds)
                } else {
                    try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                }
                action = machine.woke(stopping: Task.isCancelled || stop())
            case .finish(let attempts, let claimed, let total):
                do {
                    try await record(attempts)
                } catch {
                    // At least once more; a message left unrecorded is sent again when its lease ends.
                    try? await record(attempts)
                    await release(claimed)
                    throw error
                }
                await release(claimed)
                return total
            case .abort(let attempts, let claimed):
                // What was sent is recorded if at all possible; a message left unrecorded is sent again
                // when its lease ends (at least once, with the same id).
                try? await record(attempts)
                await release(claimed)
                let error = failure ?? CancellationError()
                throw (error as? RecordFailed)?.underlying ?? error
            }
        }
    }
}
