import APNs
import Foundation
import Logging
import PostgresClient
import Retry
import ScoreStore

/// Broadcasts to channels (the outbox's kind `broadcast`, ``Broadcasts``): at most one broadcast per
/// channel claimed, none of a channel with one on the wire, so a channel's broadcasts go in order; sent
/// in one batch per environment; Apple's answers decide each outcome (``PushVerdict/broadcast(_:for:cancelled:backoff:now:unitRandom:)``):
/// backoff while useful, a newer broadcast or the end accepted supersedes what waits. A channel APNs no
/// longer knows (`ChannelNotRegistered`, `BadChannelId`) is marked deleted, so the next request for the
/// game's channel creates a new one.
public struct BroadcastQueue: DeliveryQueue {
    /// The broadcast client (APNs' channel host) for an environment.
    public let client: @Sendable (PushEnvironment) -> APNsClient
    public let batchSize = 500
    public let service = "APNs"

    public init(client: @escaping @Sendable (PushEnvironment) -> APNsClient) {
        self.client = client
    }

    /// What to record of one broadcast sent.
    public struct Attempt: Sendable, Equatable {
        public var push: BroadcastPush
        public var status: Int?
        public var reason: String?
        public var outcome: Outbox.Outcome
        /// APNs no longer knows the channel: it is marked deleted with the record.
        public var channelGone = false
    }

    public func claim(limit: Int, lease: Int, in tx: PostgresSession) throws -> [BroadcastPush] {
        try Broadcasts.claim(limit: limit, lease: lease, in: tx)
    }

    public func pending(in session: PostgresSession) throws -> (count: Int, nextIn: Double?) {
        (try Broadcasts.pending(in: session), nil)
    }

    public func record(_ attempts: [Attempt], in tx: PostgresSession) throws {
        try Broadcasts.record(attempts.map { ($0.push, $0.status, $0.reason, $0.outcome) }, in: tx)
        for attempt in attempts where attempt.channelGone {
            try Channels.markDeleted(channelId: attempt.push.channelId, reason: "ChannelNotRegistered", in: tx)
        }
    }

    public func release(_ messages: [BroadcastPush], in tx: PostgresSession) throws {
        try Outbox.release(messages.map(\.id), in: tx)
    }

    public func observation(of attempt: Attempt) -> (outcome: String, reason: String?) {
        (attempt.outcome.label, attempt.outcome == .sent ? nil : attempt.outcome.reason ?? attempt.reason)
    }

    public func pauseMessage(_ reason: String) -> String {
        "broadcast delivery paused: APNs says the provider's configuration is wrong (\(reason))"
    }

    public func send(_ claimed: [BroadcastPush], backoff: Backoff, logger: Logger) async -> DeliverySent<
        BroadcastPush, Attempt
    > {
        var round = DeliveryRound()
        round.claimed = claimed.count
        var results: [(BroadcastPush, APNsResult)] = []
        let byEnvironment = Dictionary(grouping: claimed, by: \.environment)
        let spans = byEnvironment.mapValues { batch in
            DeliveryTrace.start(
                service: service, route: "channel", count: batch.count, kinds: Set(batch.map(\.event.rawValue)),
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
        let attempts = results.map { push, result in
            let verdict = PushVerdict.broadcast(
                result, for: push, cancelled: cancelled, backoff: backoff, now: now,
                unitRandom: Double.random(in: 0...1))
            round.count(verdict.outcome, pause: verdict.pause)
            if let refused = verdict.refused {
                logger.error("APNs refused a broadcast for good", metadata: ["apns.reason": "\(refused)"])
            }
            return Attempt(
                push: push, status: result.status, reason: result.reason ?? result.error.map { $0.code.rawValue },
                outcome: verdict.outcome, channelGone: verdict.channelGone)
        }
        for (environment, span) in spans {
            DeliveryTrace.end(
                span,
                answers: attempts.lazy.filter { $0.push.environment == environment }.map {
                    (outcome: $0.outcome.label, status: $0.status)
                })
        }
        return DeliverySent(round: round, attempts: attempts)
    }
}

extension DeliveryWorker where Queue == BroadcastQueue {
    /// The worker of broadcasts to channels, through APNs' channel host.
    public init(
        connection: PostgresConnection, broadcasts client: @escaping @Sendable (PushEnvironment) -> APNsClient,
        logger: Logger
    ) {
        self.init(connection: connection, queue: BroadcastQueue(client: client), logger: logger)
    }
}
