import APNs
import FCM
import Foundation
import Logging
import PostgresClient
import Retry
import ScoreStore

/// Pushes to one target each (the outbox's kind `push`, ``Outbox``): Live Activity tokens straight
/// to APNs, or, through FCM, iOS activities registered with an FCM token and Android followers; and
/// the members of target groups, a batch of a group message's walk at a time (kind `group`, ``Walks``),
/// each member sent exactly as its own push would be. A target's pushes go in timestamp order;
/// Apple's (``PushVerdict``) or Google's (``FCMVerdict``) answers decide each outcome.
public struct PushQueue: DeliveryQueue {
    public let transport: DeliveryTransport
    public let batchSize = 1000

    public init(transport: DeliveryTransport) {
        self.transport = transport
    }

    public var service: String { transport.name }

    /// A target's own pushes first, then batches of group messages' walks (``Walks``) to fill the round.
    public func claim(limit: Int, lease: Int, in tx: PostgresSession) throws -> [TargetPush] {
        try claim(limit: limit, lease: lease, after: [], in: tx)
    }

    /// A target's own pushes first, then batches of group messages' walks not on the wire (up to half
    /// of the rest), then the next batch of each walk on the wire (``Walks/claimAhead(of:limit:lease:in:)``).
    public func claim(limit: Int, lease: Int, after onTheWire: [TargetPush], in tx: PostgresSession) throws
        -> [TargetPush]
    {
        let own = try Outbox.claim(limit: limit, lease: lease, routes: transport.routes, in: tx)
        let routes = transport.routes.filter { $0 != .android }
        guard own.count < limit, !routes.isEmpty else { return own }
        // Other groups' messages first, with half of what is left: a huge walk never holds them back.
        let others = try Walks.claim(limit: max(1, (limit - own.count) / 2), lease: lease, routes: routes, in: tx)
        let ahead = try Walks.claimAhead(
            of: onTheWire, limit: limit - own.count - others.count, lease: lease, in: tx)
        return own + others + ahead
    }

    /// A walk's batch goes out only once the batch of the same message before it is recorded.
    public func mustRecord(_ attempts: [Outbox.Attempt], before messages: [TargetPush]) -> Bool {
        let walking = Set(messages.lazy.filter { $0.walk != nil }.map(\.id))
        return !walking.isEmpty && attempts.contains { $0.push.walk != nil && walking.contains($0.push.id) }
    }

    public func pending(in session: PostgresSession) throws -> (count: Int, nextIn: Double?) {
        let own = try Outbox.pending(routes: transport.routes, in: session)
        let walks = try Walks.pending(routes: transport.routes, in: session)
        let next = [own.nextIn, walks.nextIn].compactMap { $0 }.min()
        return (own.count + walks.count, next)
    }

    public func record(_ attempts: [Outbox.Attempt], in tx: PostgresSession) throws {
        try record(attempts, holding: [], lease: 0, in: tx)
    }

    /// Records, renewing the lease of the walks whose next batch is in `holding`.
    public func record(_ attempts: [Outbox.Attempt], holding: [TargetPush], lease: Int, in tx: PostgresSession)
        throws
    {
        let held = Set(holding.lazy.filter { $0.walk != nil }.map(\.id))
        try Outbox.record(attempts.filter { $0.push.walk == nil }, in: tx)
        try Walks.record(attempts.filter { $0.push.walk != nil }, holding: held, lease: lease, in: tx)
    }

    public func release(_ messages: [TargetPush], in tx: PostgresSession) throws {
        try Outbox.release(Array(Set(messages.map(\.id))), in: tx)
    }

    public func observation(of attempt: Outbox.Attempt) -> (outcome: String, reason: String?) {
        (attempt.outcome.label, attempt.reason)
    }

    public func pauseMessage(_ reason: String) -> String {
        switch transport {
        case .apns:
            "APNs rejected the provider token (\(reason)): check SCOREFEED_APNS_KEY_ID, SCOREFEED_APNS_TEAM_ID and the .p8 key; delivery is paused"
        case .fcm:
            "FCM delivery is paused: \(reason); fix the SCOREFEED_FCM_* settings or the APNs key uploaded to Firebase, then restart"
        }
    }

    /// A round ready to send: wave k holds the k-th push of every target (a target's pushes in
    /// timestamp order), and for APNs each wave's requests by environment.
    public struct Round: Sendable {
        let waves: [Wave]

        struct Wave: Sendable {
            let pushes: [TargetPush]
            /// For APNs: the wave's pushes by environment, with their requests.
            let apns: [(environment: PushEnvironment, pushes: [TargetPush], requests: [APNsRequest])]
        }
    }

    /// Groups the pushes into waves and, for APNs, builds their requests.
    public func prepare(_ pushes: [TargetPush]) -> Round {
        // Concurrent across targets, in timestamp order within one: wave k holds the k-th push of
        // every target and goes out as one batch once wave k-1 is answered. (A push that must be
        // retried does not hold back the later pushes of its target: those go on, and the phone
        // ignores an update older than the one it shows.)
        let byTarget = Dictionary(grouping: pushes, by: \.targetId).values.map {
            $0.sorted { $0.timestamp < $1.timestamp }
        }
        let waves = (0..<(byTarget.map(\.count).max() ?? 0)).map { rank in
            byTarget.compactMap { $0.count > rank ? $0[rank] : nil }
        }
        return Round(
            waves: waves.map { wave in
                guard case .apns = transport else { return Round.Wave(pushes: wave, apns: []) }
                // A push to APNs is a Live Activity's: its environment is never NULL (`activities_apns_fields`).
                let byEnvironment = Dictionary(grouping: wave, by: { $0.environment ?? .production })
                return Round.Wave(
                    pushes: wave, apns: byEnvironment.map { ($0.key, $0.value, $0.value.map(Self.request)) })
            })
    }

    /// Sends a round wave by wave; returns its counts, the attempts to record, and the pushes a pause
    /// held back (never sent: to release).
    public func send(_ prepared: Round, backoff: Backoff, logger: Logger) async -> DeliverySent<
        TargetPush, Outbox.Attempt
    > {
        var round = DeliveryRound()
        round.claimed = prepared.waves.reduce(0) { $0 + $1.pushes.count }
        var records: [Outbox.Attempt] = []
        var withheld: [TargetPush] = []
        records.reserveCapacity(round.claimed)
        for wave in prepared.waves {
            // Paused (the provider's credentials were refused): the rest of the round is not sent; it
            // waits, untouched, like the pushes of the wave that found out.
            if round.paused != nil {
                withheld += wave.pushes
                continue
            }
            switch transport {
            case .apns(let client):
                records += await sendToAPNs(wave, client: client, backoff: backoff, logger: logger, round: &round)
            case .fcm(let client):
                records += await sendToFCM(
                    wave.pushes, client: client, backoff: backoff, logger: logger, round: &round)
            }
        }
        return DeliverySent(round: round, attempts: records, withheld: withheld)
    }

    private func sendToAPNs(
        _ wave: Round.Wave, client: @Sendable (PushEnvironment) -> APNsClient, backoff: Backoff, logger: Logger,
        round: inout DeliveryRound
    ) async -> [Outbox.Attempt] {
        var results: [(TargetPush, APNsResult)] = []
        let spans = wave.apns.map { ($0.environment, DeliveryTrace.start($0.pushes, service: service)) }
        await withTaskGroup(of: [(TargetPush, APNsResult)].self) { group in
            for (environment, batch, requests) in wave.apns {
                let client = client(environment)
                group.addTask { Array(zip(batch, await client.send(requests))) }
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
            log(outcome, push: push, status: result.status, logger: logger)
            return Outbox.Attempt(push, status: result.status, reason: reason, outcome: outcome)
        }
        for (environment, span) in spans {
            DeliveryTrace.end(span, answers: attempts.lazy.filter { $0.push.environment == environment })
        }
        return attempts
    }

    private func sendToFCM(
        _ wave: [TargetPush], client: FCMClient, backoff: Backoff, logger: Logger, round: inout DeliveryRound
    ) async -> [Outbox.Attempt] {
        let now = Date()
        let span = DeliveryTrace.start(wave, service: service)
        let results = await client.send(wave.map { FCMVerdict.message(for: $0, now: now) })
        let cancelled = Task.isCancelled
        let answered = Date()
        let attempts = zip(wave, results).map { push, result in
            let (outcome, pause) = FCMVerdict.decide(
                result, for: push, cancelled: cancelled, backoff: backoff, now: answered,
                unitRandom: Double.random(in: 0...1))
            round.count(outcome, pause: pause)
            log(outcome, push: push, status: result.status, logger: logger)
            return Outbox.Attempt(push, status: result.status, reason: FCMVerdict.reason(result), outcome: outcome)
        }
        DeliveryTrace.end(span, answers: attempts)
        return attempts
    }

    private func log(_ outcome: Outbox.Outcome, push: TargetPush, status: Int?, logger: Logger) {
        switch outcome {
        case .deactivate(let why):
            logger.notice(
                "\(service) says the target is gone; deactivated it",
                metadata: ["target.id": "\(push.targetId)", "push.reason": "\(why)"])
        case .failed(let why):
            logger.error(
                "\(service): a push failed for good, not retried (a refusal is a bug upstream of delivery)",
                metadata: ["push.id": "\(push.id)", "push.status": "\(status ?? 0)", "push.reason": "\(why)"])
        case .sent, .retry, .release:
            break
        }
    }

    static func request(_ push: TargetPush) -> APNsRequest {
        APNsRequest(
            deviceToken: push.pushToken, payload: Array(push.payload.utf8),
            priority: push.priority == 10 ? .immediately : .consideringDevicePower,
            expiration: Int64(push.expiration), apnsId: UUID(text: push.apnsId) ?? UUID())
    }
}

extension DeliveryWorker where Queue == PushQueue {
    /// The worker of pushes to targets, through `transport`.
    public init(connection: PostgresConnection, transport: DeliveryTransport, logger: Logger) {
        self.init(connection: connection, queue: PushQueue(transport: transport), logger: logger)
    }

    /// The worker of pushes to Live Activity tokens, straight to APNs.
    public init(
        connection: PostgresConnection, client: @escaping @Sendable (PushEnvironment) -> APNsClient, logger: Logger
    ) {
        self.init(connection: connection, transport: .apns(client), logger: logger)
    }

    /// Where the pushes go.
    public var transport: DeliveryTransport { queue.transport }
}
