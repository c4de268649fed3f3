import APNs
import FCM
import Foundation
import Logging
import PostgresClient
import Retry
import ScoreStore
import Tracing

/// Delivers push-to-start requests (`device_starts`) to the devices' start tokens. A start whose
/// answer was lost (no HTTP answer) is NOT sent again: APNs may have started the activity, and a
/// second start would put a duplicate on the lock screen. Apple's response table otherwise: 429 and
/// 5xx back off (at most 5 attempts), a gone or wrong token retires the device's start token, a
/// configuration error pauses. With the FCM transport it delivers the starts of devices registered
/// through FCM, by the same rules (``FCMVerdict/startOutcome(_:for:cancelled:backoff:maximumAttempts:unitRandom:)``).
public struct StartWorker: Sendable {
    public let connection: PostgresConnection
    public let transport: DeliveryTransport
    public let logger: Logger
    public var backoff = Backoff.push
    public static let maximumAttempts = 5
    /// Told each recorded outcome and APNs' reason (for metrics).
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

    /// Delivers until cancelled, until paused, or (`untilEmpty`) until no start waits. Returns how many were sent
    /// and the pause reason, if any.
    public func run(untilEmpty: Bool, pollInterval: Double = 0.5, wakeup: DeliveryWakeup? = nil) async throws -> (
        sent: Int, failed: Int, paused: String?
    ) {
        var (sent, failed) = (0, 0)
        while !Task.isCancelled {
            let viaFCM: Bool =
                switch transport {
                case .apns: false
                case .fcm: true
                }
            let claimed = try await connection.transaction {
                try Devices.claimStarts(limit: 500, lease: 30, viaFCM: viaFCM, in: $0)
            }
            guard !claimed.isEmpty else {
                let waiting = try await connection.withSession { try Devices.pendingStarts(viaFCM: viaFCM, in: $0) }
                if untilEmpty && waiting == 0 { return (sent, failed, nil) }
                await DeliveryWakeup.idle(wakeup, pending: waiting, pollInterval: pollInterval)
                continue
            }
            let decided: [(start: DeviceStart, status: Int?, outcome: Devices.StartOutcome, reason: String?)]
            var paused: String?
            switch transport {
            case .apns(let client): (decided, paused) = await sendToAPNs(claimed, client: client)
            case .fcm(let client): (decided, paused) = await sendToFCM(claimed, client: client)
            }
            for record in decided {
                switch record.outcome {
                case .sent: sent += 1
                case .failed(let why, let deactivate):
                    failed += 1
                    log(record.start, failed: why, deactivate: deactivate, status: record.status)
                case .retry, .release: break
                }
            }
            let records = decided.map { ($0.start, $0.status, $0.outcome) }
            try await connection.transaction { try Devices.recordStarts(records, in: $0) }
            if let observe {
                for record in decided {
                    switch record.outcome {
                    case .sent: observe("sent", nil)
                    case .failed(let why, _): observe(record.outcome.label, why)
                    case .retry, .release: observe(record.outcome.label, record.reason)
                    }
                }
            }
            if let paused {
                logger.critical(
                    "push-to-start paused: \(transport.name) says the provider's configuration is wrong",
                    metadata: ["push.reason": "\(paused)"])
                return (sent, failed, paused)
            }
        }
        return (sent, failed, nil)
    }

    /// A start that failed for good: a device retired by the service, or a refusal (a bug, or an answer lost).
    private func log(_ start: DeviceStart, failed why: String, deactivate: Bool, status: Int?) {
        let metadata: Logger.Metadata = [
            "device.id": "\(start.deviceId)", "game.id": "\(start.gameId)", "push.status": "\(status ?? 0)",
            "push.reason": "\(why)",
        ]
        if deactivate {
            logger.notice("\(transport.name) says the push-to-start device is gone; retired it", metadata: metadata)
        } else {
            logger.error("\(transport.name): a push-to-start failed for good; it is not sent again", metadata: metadata)
        }
    }

    private func sendToAPNs(
        _ claimed: [DeviceStart], client: @Sendable (PushEnvironment) -> APNsClient
    ) async -> ([(start: DeviceStart, status: Int?, outcome: Devices.StartOutcome, reason: String?)], String?) {
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
                            expiration: 0, apnsId: UUID(uuidString: $0.apnsId) ?? UUID())
                    }
                    return Array(zip(batch, await client.send(requests)))
                }
            }
            for await done in group { results += done }
        }
        var paused: String?
        let cancelled = Task.isCancelled
        let records = results.map { start, result in
            let (outcome, pause) = PushVerdict.start(
                result, for: start, cancelled: cancelled, backoff: backoff, maximumAttempts: Self.maximumAttempts,
                unitRandom: Double.random(in: 0...1))
            if let pause { paused = pause }
            return (start, result.status, outcome, result.reason)
        }
        for (environment, span) in spans {
            DeliveryTrace.end(
                span,
                answers: records.lazy.filter { $0.0.environment == environment }.map {
                    (outcome: $0.2.label, status: $0.1)
                })
        }
        return (records, paused)
    }

    /// The span of a batch of starts (``DeliveryTrace``).
    private static func span(_ batch: [DeviceStart], service: String) -> any Span {
        DeliveryTrace.start(
            service: service, route: "start", count: batch.count, kinds: ["start"],
            following: batch.lazy.map(\.traceParent))
    }

    private func sendToFCM(
        _ claimed: [DeviceStart], client: FCMClient
    ) async -> ([(start: DeviceStart, status: Int?, outcome: Devices.StartOutcome, reason: String?)], String?) {
        let span = Self.span(claimed, service: "FCM")
        let results = await client.send(claimed.map(FCMVerdict.message(for:)))
        let cancelled = Task.isCancelled
        var paused: String?
        let records = zip(claimed, results).map { start, result in
            let (outcome, pause) = FCMVerdict.startOutcome(
                result, for: start, cancelled: cancelled, backoff: backoff, maximumAttempts: Self.maximumAttempts,
                unitRandom: Double.random(in: 0...1))
            if let pause { paused = pause }
            return (start, result.status, outcome, FCMVerdict.reason(result))
        }
        DeliveryTrace.end(span, answers: records.lazy.map { (outcome: $0.2.label, status: $0.1) })
        return (records, paused)
    }
}

extension Devices.StartOutcome {
    /// The outcome's name in metrics and traces.
    var label: String {
        switch self {
        case .sent: "sent"
        case .retry: "retry"
        case .failed(_, let deactivate): deactivate ? "deactivated" : "failed"
        case .release: "released"
        }
    }
}
