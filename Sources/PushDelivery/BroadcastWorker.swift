import APNs
import Foundation
import Logging
import PostgresClient
import Retry
import ScoreStore
import Tracing

/// What a broadcast worker did.
public struct BroadcastRound: Sendable, Equatable {
    public var sent = 0
    public var retried = 0
    public var failed = 0
    /// Why delivery paused (a configuration error of the provider), if it did.
    public var paused: String?

    public init() {}
}

/// Delivers the `broadcast_pushes` outbox: claims due broadcasts (one per channel at a time, so a
/// channel's broadcasts go in order), sends them in one batch per environment, and records each
/// outcome with the same rules as pushes to activities (Apple's response table, backoff while useful,
/// a newer or the end accepted supersedes what waits). A channel APNs no longer knows
/// (`ChannelNotRegistered`, `BadChannelId`) is marked deleted, so the next request for the game's
/// channel creates a new one.
public struct BroadcastWorker: Sendable {
    public let connection: PostgresConnection
    public let client: @Sendable (PushEnvironment) -> APNsClient
    public let logger: Logger
    public var batchSize = 500
    public var lease = 30
    public var backoff = Backoff.push
    /// Told each recorded outcome (`sent`, `retry`, `failed`, `released`) and APNs' reason (for metrics).
    public var observe: (@Sendable (_ outcome: String, _ reason: String?) -> Void)?

    public init(
        connection: PostgresConnection, client: @escaping @Sendable (PushEnvironment) -> APNsClient, logger: Logger
    ) {
        self.connection = connection
        self.client = client
        self.logger = logger
    }

    /// Delivers until cancelled, until `stop` says so, until paused, or (`untilEmpty`) until nothing waits.
    public func run(
        untilEmpty: Bool, pollInterval: Double = 0.5, wakeup: DeliveryWakeup? = nil,
        stop: @Sendable () -> Bool = { false }
    ) async throws -> BroadcastRound {
        var total = BroadcastRound()
        let (limit, lease) = (batchSize, self.lease)
        while !Task.isCancelled && !stop() && total.paused == nil {
            let claimed = try await connection.transaction { try Broadcasts.claim(limit: limit, lease: lease, in: $0) }
            guard !claimed.isEmpty else {
                let waiting = try await connection.withSession { try Broadcasts.pending(in: $0) }
                if untilEmpty && waiting == 0 { return total }
                await DeliveryWakeup.idle(wakeup, pending: waiting, pollInterval: pollInterval)
                continue
            }
            try await deliver(claimed, into: &total)
        }
        return total
    }

    private func deliver(_ claimed: [BroadcastPush], into total: inout BroadcastRound) async throws {
        var results: [(BroadcastPush, APNsResult)] = []
        let byEnvironment = Dictionary(grouping: claimed, by: \.environment)
        let spans = byEnvironment.mapValues { batch in
            DeliveryTrace.start(
                service: "APNs", route: "channel", count: batch.count, kinds: Set(batch.map(\.event.rawValue)),
                following: batch.lazy.map(\.traceParent))
        }
        await withTaskGroup(of: [(BroadcastPush, APNsResult)].self) { group in
            for (environment, batch) in byEnvironment {
                let client = client(environment)
                group.addTask {
                    let requests = batch.map {
                        APNsBroadcast(
                            channelId: $0.channelId, payload: Array($0.payload.utf8),
                            priority: $0.priority == 10 ? .immediately : .consideringDevicePower,
                            requestId: $0.requestId)
                    }
                    return Array(zip(batch, await client.send(broadcasts: requests)))
                }
            }
            for await done in group { results += done }
        }
        let (now, cancelled) = (Date(), Task.isCancelled)
        var records: [(push: BroadcastPush, status: Int?, reason: String?, outcome: Broadcasts.Outcome)] = []
        var forgotten: [String] = []
        for (push, result) in results {
            let reason = result.reason ?? result.error.map { $0.code.rawValue }
            let verdict = PushVerdict.broadcast(
                result, for: push, cancelled: cancelled, backoff: backoff, now: now,
                unitRandom: Double.random(in: 0...1))
            let outcome = verdict.outcome
            if verdict.channelGone { forgotten.append(push.channelId) }
            if let paused = verdict.pause { total.paused = paused }
            if let refused = verdict.refused {
                logger.error("APNs refused a broadcast for good", metadata: ["apns.reason": "\(refused)"])
            }
            switch outcome {
            case .sent: total.sent += 1
            case .retry: total.retried += 1
            case .failed: total.failed += 1
            case .release: break
            }
            records.append((push, result.status, reason, outcome))
        }
        for (environment, span) in spans {
            DeliveryTrace.end(
                span,
                answers: records.lazy.filter { $0.push.environment == environment }.map {
                    (outcome: $0.outcome.label, status: $0.status)
                })
        }
        let (done, gone) = (records, forgotten)
        try await connection.transaction { tx in
            try Broadcasts.record(done, in: tx)
            for channelId in gone {
                try Channels.markDeleted(channelId: channelId, reason: "ChannelNotRegistered", in: tx)
            }
        }
        if let observe {
            for record in records {
                switch record.outcome {
                case .sent: observe("sent", nil)
                case .failed(let why): observe("failed", why)
                case .retry, .release: observe(record.outcome.label, record.reason)
                }
            }
        }
        if let paused = total.paused {
            logger.critical(
                "broadcast delivery paused: APNs says the provider's configuration is wrong",
                metadata: ["apns.reason": "\(paused)"])
        }
    }
}

extension Broadcasts.Outcome {
    /// The outcome's name in metrics and traces.
    var label: String {
        switch self {
        case .sent: "sent"
        case .retry: "retry"
        case .failed: "failed"
        case .release: "released"
        }
    }
}
