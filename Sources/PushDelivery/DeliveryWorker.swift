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

/// Delivers the outbox to APNs or FCM: claims due pushes of its routes (`FOR UPDATE SKIP LOCKED`,
/// with a lease), sends them concurrently over HTTP/2, and records every attempt and its outcome.
/// At-least-once: a push is marked sent only after the service accepted it, and its stable `apns-id`
/// makes a repeat recognisable.
public struct DeliveryWorker: Sendable {
    public let connection: PostgresConnection
    public let transport: DeliveryTransport
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
        self.init(connection: connection, transport: .apns(client), logger: logger)
    }

    public init(connection: PostgresConnection, transport: DeliveryTransport, logger: Logger) {
        self.connection = connection
        self.transport = transport
        self.logger = logger
    }

    typealias Attempt = Outbox.Attempt

    /// One round: claim what is due, send it, record the outcomes.
    public func deliverDue() async throws -> DeliveryRound {
        let pushes = try await recordThenClaim([], claim: true)
        guard !pushes.isEmpty else { return DeliveryRound() }
        let (round, attempts, withheld) = await send(pushes)
        try await record(attempts)
        await release(withheld)
        if let paused = round.paused { reportPause(paused) }
        return round
    }

    private func reportPause(_ reason: String) {
        switch transport {
        case .apns:
            logger.critical(
                "APNs rejected the provider token (\(reason)): check SCOREFEED_APNS_KEY_ID, SCOREFEED_APNS_TEAM_ID and the .p8 key; delivery is paused"
            )
        case .fcm:
            logger.critical(
                "FCM delivery is paused: \(reason); fix the SCOREFEED_FCM_* settings or the APNs key uploaded to Firebase, then restart"
            )
        }
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
        let (limit, lease, routes) = (batchSize, self.lease, transport.routes)
        return try await connection.transaction { try Outbox.claim(limit: limit, lease: lease, routes: routes, in: $0) }
    }

    /// Gives claimed but unsent pushes back at once instead of when their lease ends.
    private func release(_ pushes: [OutboxPush]) async {
        guard !pushes.isEmpty else { return }
        let ids = pushes.map(\.id)
        do {
            try await connection.transaction { try Outbox.release(ids, in: $0) }
        } catch {
            logger.warning("could not release claimed pushes; their lease will expire", metadata: ["error": "\(error)"])
        }
    }

    /// Sends the pushes and decides each outcome.
    /// Sends a round wave by wave; returns its counts, the attempts to record, and the pushes a pause
    /// held back (never sent: to release).
    private func send(_ pushes: [OutboxPush]) async -> (DeliveryRound, [Attempt], withheld: [OutboxPush]) {
        var round = DeliveryRound()
        round.claimed = pushes.count
        // Concurrent across activities, in timestamp order within one: wave k holds the k-th push of
        // every activity and goes out as one batch once wave k-1 is answered. (A push that must be
        // retried does not hold back the later pushes of its activity: those go on, and the phone
        // ignores an update older than the one it shows.)
        let byActivity = Dictionary(grouping: pushes, by: \.activityId).values.map {
            $0.sorted { $0.timestamp < $1.timestamp }
        }
        let waves = (0..<(byActivity.map(\.count).max() ?? 0)).map { rank in
            byActivity.compactMap { $0.count > rank ? $0[rank] : nil }
        }
        var records: [Attempt] = []
        var withheld: [OutboxPush] = []
        records.reserveCapacity(pushes.count)
        for wave in waves {
            // Paused (the provider's credentials were refused): the rest of the round is not sent; it
            // waits, untouched, like the pushes of the wave that found out.
            if round.paused != nil {
                withheld += wave
                continue
            }
            switch transport {
            case .apns(let client): records += await sendToAPNs(wave, client: client, round: &round)
            case .fcm(let client): records += await sendToFCM(wave, client: client, round: &round)
            }
        }
        return (round, records, withheld)
    }

    private func sendToAPNs(
        _ wave: [OutboxPush], client: @Sendable (PushEnvironment) -> APNsClient, round: inout DeliveryRound
    ) async -> [Attempt] {
        var results: [(OutboxPush, APNsResult)] = []
        let byEnvironment = Dictionary(grouping: wave, by: \.environment)
        let spans = byEnvironment.mapValues { DeliveryTrace.start($0, service: transport.name) }
        await withTaskGroup(of: [(OutboxPush, APNsResult)].self) { group in
            for (environment, batch) in byEnvironment {
                let client = client(environment)
                group.addTask { Array(zip(batch, await client.send(batch.map(Self.request)))) }
            }
            for await done in group { results += done }
        }
        let cancelled = Task.isCancelled
        let now = Date()
        let attempts = results.map { push, result in
            let reason = result.reason ?? result.error.map { "\($0.code.rawValue)" }
            let (outcome, pause) = PushVerdict.decide(
                result, for: push, cancelled: cancelled, backoff: backoff, now: now,
                unitRandom: Double.random(in: 0...1))
            round.count(outcome, pause: pause)
            log(outcome, push: push, status: result.status)
            return Attempt(push, status: result.status, reason: reason, outcome: outcome)
        }
        for (environment, span) in spans {
            DeliveryTrace.end(span, answers: attempts.lazy.filter { $0.push.environment == environment })
        }
        return attempts
    }

    private func sendToFCM(_ wave: [OutboxPush], client: FCMClient, round: inout DeliveryRound) async -> [Attempt] {
        let now = Date()
        let span = DeliveryTrace.start(wave, service: transport.name)
        let results = await client.send(wave.map { FCMVerdict.message(for: $0, now: now) })
        let cancelled = Task.isCancelled
        let answered = Date()
        let attempts = zip(wave, results).map { push, result in
            let (outcome, pause) = FCMVerdict.decide(
                result, for: push, cancelled: cancelled, backoff: backoff, now: answered,
                unitRandom: Double.random(in: 0...1))
            round.count(outcome, pause: pause)
            log(outcome, push: push, status: result.status)
            return Attempt(push, status: result.status, reason: FCMVerdict.reason(result), outcome: outcome)
        }
        DeliveryTrace.end(span, answers: attempts)
        return attempts
    }

    private func log(_ outcome: Outbox.Outcome, push: OutboxPush, status: Int?) {
        switch outcome {
        case .deactivate(let why):
            logger.notice(
                "\(transport.name) says the target is gone; deactivated it",
                metadata: ["activity.id": "\(push.activityId)", "push.reason": "\(why)"])
        case .failed(let why):
            logger.error(
                "\(transport.name): a push failed for good, not retried (a refusal is a bug upstream of delivery)",
                metadata: ["push.id": "\(push.id)", "push.status": "\(status ?? 0)", "push.reason": "\(why)"])
        case .sent, .retry, .release:
            break
        }
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
        untilEmpty: Bool, pollInterval: Double = 0.5, wakeup: DeliveryWakeup? = nil,
        stop: @Sendable () -> Bool = { false }
    ) async throws -> DeliveryRound {
        // Every decision is the state machine's; this loop performs its actions.
        var machine = DeliveryStateMachine(untilEmpty: untilEmpty, pollInterval: pollInterval)
        var action = machine.start(stopping: Task.isCancelled || stop())
        var failure: (any Error)?
        while true {
            switch action {
            case .recordThenClaim(let record):
                do {
                    action = machine.claimed(
                        try await recordThenClaim(record, claim: true), stopping: Task.isCancelled || stop())
                } catch {
                    failure = error
                    action = machine.failed(recordFailed: error is RecordFailed)
                }
            case .send(let pushes, let record, let claimNext):
                async let upcoming = recordThenClaim(record, claim: claimNext)
                let (round, attempts, withheld) = await send(pushes)
                if let paused = round.paused { reportPause(paused) }
                do {
                    let claimed = try await upcoming
                    action = machine.sent(
                        round, attempts: attempts, claimed: claimed, stopping: Task.isCancelled || stop())
                } catch {
                    failure = error
                    action = machine.failed(recordFailed: error is RecordFailed, sent: attempts)
                }
                await release(withheld)
            case .countPending:
                do {
                    let routes = transport.routes
                    let (count, nextIn) = try await connection.withSession {
                        try Outbox.pending(routes: routes, in: $0)
                    }
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
                    // At least once more; a push left unrecorded is sent again when its lease ends.
                    try? await record(attempts)
                    await release(claimed)
                    throw error
                }
                await release(claimed)
                return total
            case .abort(let attempts, let claimed):
                // What was sent is recorded if at all possible; a push left unrecorded is sent again
                // when its lease ends (at least once, with the same apns-id).
                try? await record(attempts)
                await release(claimed)
                let error = failure ?? CancellationError()
                throw (error as? RecordFailed)?.underlying ?? error
            }
        }
    }

    static func request(_ push: OutboxPush) -> APNsRequest {
        APNsRequest(
            deviceToken: push.pushToken, payload: Array(push.payload.utf8),
            priority: push.priority == 10 ? .immediately : .consideringDevicePower,
            expiration: Int64(push.expiration), apnsId: UUID(uuidString: push.apnsId) ?? UUID())
    }
}
