import APNs
import FCM
import Foundation
import Logging
import PostgresClient
import Retry
import ScoreStore
import Tracing

/// Push-to-start requests to devices' start tokens (the outbox's kind `start`, ``Devices``), straight
/// to APNs or, for devices registered through FCM, through FCM. A start whose answer was lost (no HTTP
/// answer) is NOT sent again: APNs may have started the activity, and a second start would put a
/// duplicate on the lock screen. Otherwise Apple's response table (``PushVerdict/start(_:for:cancelled:backoff:maximumAttempts:unitRandom:)``,
/// ``FCMVerdict/startOutcome(_:for:cancelled:backoff:maximumAttempts:unitRandom:)``): 429 and 5xx back
/// off (at most ``maximumAttempts`` attempts), a gone or wrong token retires the device's start token,
/// a configuration error pauses.
public struct StartQueue: DeliveryQueue {
    public let transport: DeliveryTransport
    public let batchSize = 500
    public static let maximumAttempts = 5

    public init(transport: DeliveryTransport) {
        self.transport = transport
    }

    public var service: String { transport.name }

    /// What to record of one start sent.
    public struct Attempt: Sendable, Equatable {
        public var start: DeviceStart
        public var status: Int?
        public var outcome: Outbox.Outcome
        /// The service's reason, if any.
        public var reason: String?
    }

    private var viaFCM: Bool {
        switch transport {
        case .apns: false
        case .fcm: true
        }
    }

    public func claim(limit: Int, lease: Int, in tx: PostgresSession) throws -> [DeviceStart] {
        try Devices.claimStarts(limit: limit, lease: lease, viaFCM: viaFCM, in: tx)
    }

    public func pending(in session: PostgresSession) throws -> (count: Int, nextIn: Double?) {
        (try Devices.pendingStarts(viaFCM: viaFCM, in: session), nil)
    }

    public func record(_ attempts: [Attempt], in tx: PostgresSession) throws {
        try Devices.recordStarts(attempts.map { ($0.start, $0.status, $0.reason, $0.outcome) }, in: tx)
    }

    /// Starts claimed and never sent (a start that may have reached the service is never released).
    public func release(_ messages: [DeviceStart], in tx: PostgresSession) throws {
        try Outbox.release(messages.map(\.id), in: tx)
    }

    public func observation(of attempt: Attempt) -> (outcome: String, reason: String?) {
        (attempt.outcome.label, attempt.outcome == .sent ? nil : attempt.outcome.reason ?? attempt.reason)
    }

    public func pauseMessage(_ reason: String) -> String {
        "push-to-start paused: \(service) says the provider's configuration is wrong (\(reason))"
    }

    public func send(_ claimed: [DeviceStart], backoff: Backoff, logger: Logger) async -> DeliverySent<
        DeviceStart, Attempt
    > {
        var round = DeliveryRound()
        round.claimed = claimed.count
        let attempts: [Attempt]
        switch transport {
        case .apns(let client): attempts = await sendToAPNs(claimed, client: client, backoff: backoff, round: &round)
        case .fcm(let client): attempts = await sendToFCM(claimed, client: client, backoff: backoff, round: &round)
        }
        for attempt in attempts {
            switch attempt.outcome {
            case .failed(let why):
                log(attempt.start, failed: why, deactivate: false, status: attempt.status, logger: logger)
            case .deactivate(let why):
                log(attempt.start, failed: why, deactivate: true, status: attempt.status, logger: logger)
            case .sent, .retry, .release: break
            }
        }
        return DeliverySent(round: round, attempts: attempts)
    }

    /// A start that failed for good: a device retired by the service, or a refusal (a bug, or an answer lost).
    private func log(_ start: DeviceStart, failed why: String, deactivate: Bool, status: Int?, logger: Logger) {
        let metadata: Logger.Metadata = [
            "device.id": "\(start.deviceId)", "game.id": "\(start.gameId)", "push.status": "\(status ?? 0)",
            "push.reason": "\(why)",
        ]
        if deactivate {
            logger.notice("\(service) says the push-to-start device is gone; retired it", metadata: metadata)
        } else {
            logger.error("\(service): a push-to-start failed for good; it is not sent again", metadata: metadata)
        }
    }

    private func sendToAPNs(
        _ claimed: [DeviceStart], client: @Sendable (PushEnvironment) -> APNsClient, backoff: Backoff,
        round: inout DeliveryRound
    ) async -> [Attempt] {
        var results: [(DeviceStart, APNsResult)] = []
        let byEnvironment = Dictionary(grouping: claimed, by: \.environment)
        let spans = byEnvironment.mapValues { Self.span($0, service: "APNs") }
        await withTaskGroup(of: [(DeviceStart, APNsResult)].self) { group in
            for (environment, batch) in byEnvironment {
                let client = client(environment)
                group.addTask {
                    let requests = batch.map {
                        APNsRequest(
                            deviceToken: $0.startToken, payload: Array($0.payload.utf8), priority: .immediately,
                            expiration: 0, apnsId: UUID(text: $0.apnsId) ?? UUID())
                    }
                    return Array(zip(batch, await client.send(requests)))
                }
            }
            for await done in group { results += done }
        }
        let cancelled = Task.isCancelled
        let attempts = results.map { start, result in
            let (outcome, pause) = PushVerdict.start(
                result, for: start, cancelled: cancelled, backoff: backoff, maximumAttempts: Self.maximumAttempts,
                unitRandom: Double.random(in: 0...1))
            round.count(outcome, pause: pause)
            return Attempt(start: start, status: result.status, outcome: outcome, reason: result.reason)
        }
        for (environment, span) in spans {
            DeliveryTrace.end(
                span,
                answers: attempts.lazy.filter { $0.start.environment == environment }.map {
                    (outcome: $0.outcome.label, status: $0.status)
                })
        }
        return attempts
    }

    /// The span of a batch of starts (``DeliveryTrace``).
    private static func span(_ batch: [DeviceStart], service: String) -> any Span {
        DeliveryTrace.start(
            service: service, route: "start", count: batch.count, kinds: ["start"],
            following: batch.lazy.map(\.traceParent))
    }

    private func sendToFCM(
        _ claimed: [DeviceStart], client: FCMClient, backoff: Backoff, round: inout DeliveryRound
    ) async -> [Attempt] {
        let span = Self.span(claimed, service: "FCM")
        let results = await client.send(claimed.map(FCMVerdict.message(for:)))
        let cancelled = Task.isCancelled
        let attempts = zip(claimed, results).map { start, result in
            let (outcome, pause) = FCMVerdict.startOutcome(
                result, for: start, cancelled: cancelled, backoff: backoff, maximumAttempts: Self.maximumAttempts,
                unitRandom: Double.random(in: 0...1))
            round.count(outcome, pause: pause)
            return Attempt(start: start, status: result.status, outcome: outcome, reason: FCMVerdict.reason(result))
        }
        DeliveryTrace.end(span, answers: attempts.lazy.map { (outcome: $0.outcome.label, status: $0.status) })
        return attempts
    }
}

extension DeliveryWorker where Queue == StartQueue {
    /// The worker of push-to-start requests, through `transport`.
    public init(connection: PostgresConnection, starts transport: DeliveryTransport, logger: Logger) {
        self.init(connection: connection, queue: StartQueue(transport: transport), logger: logger)
    }
}
