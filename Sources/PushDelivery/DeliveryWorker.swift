import APNs
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

    mutating func add(_ round: DeliveryRound) {
        claimed += round.claimed
        sent += round.sent
        retried += round.retried
        deactivated += round.deactivated
        failed += round.failed
        released += round.released
    }
}

/// Delivers the outbox to APNs: claims due pushes (`FOR UPDATE SKIP LOCKED`, with a lease), sends
/// them concurrently over HTTP/2, and records every attempt and its outcome. At-least-once: a push
/// is marked sent only after APNs accepted it, and its stable `apns-id` makes a repeat recognisable.
public struct DeliveryWorker: Sendable {
    public let connection: PostgresConnection
    /// The APNs client for an activity's environment.
    public let client: @Sendable (PushEnvironment) -> APNsClient
    public let logger: Logger
    /// Pushes in one round, sent at once (APNs allows about a thousand streams per connection); the
    /// next round is claimed while this one is on the wire, so up to twice this many are claimed.
    public var batchSize = 1000
    /// Seconds a claim is held before another worker may take the push over.
    public var lease = 30
    public var backoff = Backoff.push
    /// Told of every recorded attempt: its outcome (`sent`, `retry`, `deactivated`, `failed`,
    /// `paused`, `released`) and APNs' reason, if any (for metrics).
    public var observe: (@Sendable (_ outcome: String, _ reason: String?) -> Void)?

    public init(
        connection: PostgresConnection, client: @escaping @Sendable (PushEnvironment) -> APNsClient, logger: Logger
    ) {
        self.connection = connection
        self.client = client
        self.logger = logger
    }

    typealias Attempt = Outbox.Attempt

    /// One round: claim what is due, send it, record the outcomes.
    public func deliverDue() async throws -> DeliveryRound {
        let pushes = try await recordThenClaim([], claim: true)
        guard !pushes.isEmpty else { return DeliveryRound() }
        let (round, attempts) = await send(pushes)
        try await record(attempts)
        if let paused = round.paused { reportPause(paused) }
        return round
    }

    private func reportPause(_ reason: String) {
        logger.critical(
            "APNs rejected the provider token (\(reason)): check SCOREFEED_APNS_KEY_ID, SCOREFEED_APNS_TEAM_ID and the .p8 key; delivery is paused"
        )
    }

    /// Records a round's attempts in one transaction and tells ``observe``.
    private func record(_ attempts: [Attempt]) async throws {
        guard !attempts.isEmpty else { return }
        let started = ContinuousClock.now
        try await connection.transaction { try Outbox.record(attempts, in: $0) }
        if let observe {
            for attempt in attempts { observe(attempt.outcome.label, attempt.reason) }
        }
        logger.debug(
            "delivery round recorded",
            metadata: [
                "pushes": "\(attempts.count)", "record.ms": "\((ContinuousClock.now - started) / .milliseconds(1))",
            ])
    }

    /// A round's attempts that could not be recorded (the error is `underlying`).
    private struct RecordFailed: Error {
        var underlying: any Error
    }

    /// What runs while a round is on the wire: records the previous round, then claims the next
    /// round (unless `claim` is false).
    /// - Throws: ``RecordFailed`` when the previous round was not recorded; the claim's error otherwise.
    private func recordThenClaim(_ attempts: [Attempt], claim: Bool) async throws -> [OutboxPush] {
        do {
            try await record(attempts)
        } catch {
            throw RecordFailed(underlying: error)
        }
        guard claim else { return [] }
        return try await self.claim()
    }

    private func claim() async throws -> [OutboxPush] {
        let (limit, lease) = (batchSize, self.lease)
        return try await connection.transaction { try Outbox.claim(limit: limit, lease: lease, in: $0) }
    }

    /// Gives claimed but unsent pushes back at once instead of when their lease ends.
    private func release(_ pushes: [OutboxPush]?) async {
        guard let pushes, !pushes.isEmpty else { return }
        let ids = pushes.map(\.id)
        do {
            try await connection.transaction { try Outbox.release(ids, in: $0) }
        } catch {
            logger.warning("could not release claimed pushes; their lease will expire", metadata: ["error": "\(error)"])
        }
    }

    /// Sends the pushes and decides each outcome.
    private func send(_ pushes: [OutboxPush]) async -> (DeliveryRound, [Attempt]) {
        var round = DeliveryRound(claimed: pushes.count)
        // Concurrent across activities, in timestamp order within one. (A push that must be retried
        // does not hold back the later pushes of its activity: those go on, and the phone ignores
        // an update older than the one it shows.)
        let byActivity = Dictionary(grouping: pushes, by: \.activityId).values.map {
            $0.sorted { $0.timestamp < $1.timestamp }
        }
        let results = await withTaskGroup(of: [(OutboxPush, APNsResult)].self) { group in
            for queue in byActivity {
                let client = client(queue[0].environment)
                group.addTask {
                    var done: [(OutboxPush, APNsResult)] = []
                    for push in queue { done.append((push, await client.send(Self.request(push)))) }
                    return done
                }
            }
            var all: [(OutboxPush, APNsResult)] = []
            for await results in group { all += results }
            return all
        }
        var records: [Attempt] = []
        var generator = SystemRandomNumberGenerator()
        for (push, result) in results {
            let reason = result.reason ?? result.error.map { "\($0.code.rawValue)" }
            if Task.isCancelled, result.status == nil, result.action.isRetry {
                // Shutting down cut the send short: hand the push back at once for the next worker.
                records.append((push, result.status, reason, .release(label: "released")))
                round.released += 1
                continue
            }
            let outcome: Outbox.Outcome
            switch result.action {
            case .delivered:
                outcome = .sent
                round.sent += 1
            case .retry, .keepTokenLongerAndRetry:
                let delay = backoff.delay(attempt: push.attempts + 1, using: &generator)
                outcome = .retry(after: delay / .seconds(1))
                round.retried += 1
            case .refreshTokenAndRetry:
                outcome = .retry(after: 0)
                round.retried += 1
            case .deactivate(let why):
                outcome = .deactivate(reason: why)
                round.deactivated += 1
                logger.notice(
                    "APNs says the activity is gone; deactivated it",
                    metadata: ["activity.id": "\(push.activityId)", "apns.reason": "\(why)"])
            case .neverRetry(let why):
                outcome = .failed(reason: why)
                round.failed += 1
                logger.error(
                    "APNs refused a push for good; this is a bug upstream of delivery",
                    metadata: [
                        "push.id": "\(push.id)", "apns.status": "\(result.status ?? 0)", "apns.reason": "\(why)",
                    ])
            case .pause(let why):
                outcome = .release(label: "paused")
                round.paused = why
            }
            records.append((push, result.status, reason, outcome))
        }
        return (round, records)
    }

    /// Delivers until cancelled, until `stop` says so (checked between rounds: the round in flight
    /// completes), or until nothing is left to deliver when `untilEmpty` is set.
    ///
    /// Pipelined: while a round's pushes are on the wire, the previous round's outcomes are recorded
    /// and the next round's pushes claimed (the claim skips activities with a push on the wire, so a
    /// round never overtakes an earlier push of the same activity still in flight). Claimed pushes not sent when it stops are released at once; when
    /// the task is cancelled mid-round, the pushes still in flight are released too, not counted as
    /// attempts. Every round sent is recorded before it returns, also when it throws.
    ///
    /// - Returns: the totals; stops early when delivery is paused (see ``DeliveryRound/paused``).
    public func run(
        untilEmpty: Bool, pollInterval: Double = 0.5, stop: @Sendable () -> Bool = { false }
    ) async throws -> DeliveryRound {
        var total = DeliveryRound()
        var next: [OutboxPush]?
        // Sent but not recorded yet: the round just sent, and the one being recorded while the
        // next is on the wire.
        var unrecorded: [Attempt] = []
        var recording: [Attempt] = []
        do {
            while !Task.isCancelled && !stop() {
                let pushes: [OutboxPush]
                if let claimed = next {
                    pushes = claimed
                } else {
                    (recording, unrecorded) = (unrecorded, [])
                    pushes = try await recordThenClaim(recording, claim: true)
                    recording = []
                }
                next = nil
                if pushes.isEmpty {
                    let (count, nextIn) = try await connection.withSession { try Outbox.pending(in: $0) }
                    if untilEmpty && count == 0 { break }
                    if stop() { break }
                    // Due yet not claimed: pushes waiting behind an earlier push of their activity
                    // that another worker holds. Polling faster would not get them sooner.
                    let due = (nextIn ?? pollInterval) <= 0
                    let wait = due ? pollInterval : min(pollInterval, max(0.01, nextIn ?? pollInterval))
                    try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
                    continue
                }
                let previous = unrecorded
                (recording, unrecorded) = (previous, [])
                async let upcoming = recordThenClaim(previous, claim: !stop())
                let (round, attempts) = await send(pushes)
                unrecorded = attempts
                let claimed = try await upcoming
                recording = []
                next = claimed.isEmpty ? nil : claimed
                total.add(round)
                if let paused = round.paused {
                    reportPause(paused)
                    total.paused = paused
                    break
                }
            }
            try await record(unrecorded)
        } catch {
            // What was sent is recorded if at all possible (the round being recorded too, when its
            // record is what failed); a push left unrecorded is sent again when its lease ends (at
            // least once, with the same apns-id).
            let failed = error as? RecordFailed
            try? await record((failed == nil ? [] : recording) + unrecorded)
            await release(next)
            throw failed?.underlying ?? error
        }
        await release(next)
        return total
    }

    static func request(_ push: OutboxPush) -> APNsRequest {
        APNsRequest(
            deviceToken: push.pushToken, payload: Array(push.payload.utf8),
            priority: push.priority == 10 ? .immediately : .consideringDevicePower,
            expiration: Int64(push.expiration), apnsId: UUID(uuidString: push.apnsId) ?? UUID())
    }
}
