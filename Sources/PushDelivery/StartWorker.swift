import APNs
import Foundation
import Logging
import PostgresClient
import Retry
import ScoreStore

/// Delivers push-to-start requests (`device_starts`) to the devices' start tokens. A start whose
/// answer was lost (no HTTP answer) is NOT sent again: APNs may have started the activity, and a
/// second start would put a duplicate on the lock screen. Apple's response table otherwise: 429 and
/// 5xx back off (at most 5 attempts), a gone or wrong token retires the device's start token, a
/// configuration error pauses.
public struct StartWorker: Sendable {
    public let connection: PostgresConnection
    public let client: @Sendable (PushEnvironment) -> APNsClient
    public let logger: Logger
    public var backoff = Backoff.push
    public static let maximumAttempts = 5
    /// Told each recorded outcome and APNs' reason (for metrics).
    public var observe: (@Sendable (_ outcome: String, _ reason: String?) -> Void)?

    public init(
        connection: PostgresConnection, client: @escaping @Sendable (PushEnvironment) -> APNsClient, logger: Logger
    ) {
        self.connection = connection
        self.client = client
        self.logger = logger
    }

    /// Delivers until cancelled, until paused, or (`untilEmpty`) until no start waits. Returns how many were sent
    /// and the pause reason, if any.
    public func run(untilEmpty: Bool, pollInterval: Double = 0.5, wakeup: DeliveryWakeup? = nil) async throws -> (
        sent: Int, failed: Int, paused: String?
    ) {
        var (sent, failed) = (0, 0)
        while !Task.isCancelled {
            let claimed = try await connection.transaction { try Devices.claimStarts(limit: 500, lease: 30, in: $0) }
            guard !claimed.isEmpty else {
                let waiting = try await connection.withSession { try Devices.pendingStarts(in: $0) }
                if untilEmpty && waiting == 0 { return (sent, failed, nil) }
                await DeliveryWakeup.idle(wakeup, pending: waiting, pollInterval: pollInterval)
                continue
            }
            var results: [(DeviceStart, APNsResult)] = []
            await withTaskGroup(of: [(DeviceStart, APNsResult)].self) { group in
                for (environment, batch) in Dictionary(grouping: claimed, by: \.environment) {
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
            let records = results.map {
                start, result -> (start: DeviceStart, status: Int?, outcome: Devices.StartOutcome) in
                let outcome: Devices.StartOutcome
                if result.status == nil {
                    switch result.error?.code {
                    case .connectFailed?, .signingFailed?, .invalidRequest?, .clientShutDown?:
                        // It never left: safe to send later.
                        outcome =
                            cancelled
                            ? .release : .retry(after: backoff.delay(attempt: start.attempts + 1) / .seconds(1))
                    default:
                        outcome = .failed(
                            reason:
                                "no answer (\(result.error?.code.rawValue ?? "?")): not sent again, never two starts",
                            deactivate: false)
                    }
                } else {
                    switch result.action {
                    case .delivered: outcome = .sent
                    case .deactivate(let why): outcome = .failed(reason: why, deactivate: true)
                    case .pause(let why):
                        paused = why
                        outcome = .release
                    case .retry, .keepTokenLongerAndRetry, .refreshTokenAndRetry, .reconnectAndRetry:
                        outcome =
                            start.attempts >= Self.maximumAttempts
                            ? .failed(
                                reason: "\(result.reason ?? "retry") after \(start.attempts) attempts",
                                deactivate: false)
                            : .retry(after: backoff.delay(attempt: start.attempts + 1) / .seconds(1))
                    case .neverRetry(let why): outcome = .failed(reason: why, deactivate: false)
                    }
                }
                switch outcome {
                case .sent: sent += 1
                case .failed: failed += 1
                case .retry, .release: break
                }
                return (start, result.status, outcome)
            }
            try await connection.transaction { try Devices.recordStarts(records, in: $0) }
            if let observe {
                for (record, result) in zip(records, results.map(\.1)) {
                    switch record.outcome {
                    case .sent: observe("sent", nil)
                    case .retry: observe("retry", result.reason)
                    case .failed(let why, let deactivate): observe(deactivate ? "deactivated" : "failed", why)
                    case .release: observe("released", result.reason)
                    }
                }
            }
            if let paused {
                logger.critical(
                    "push-to-start paused: APNs says the provider's configuration is wrong",
                    metadata: ["apns.reason": "\(paused)"])
                return (sent, failed, paused)
            }
        }
        return (sent, failed, nil)
    }
}
