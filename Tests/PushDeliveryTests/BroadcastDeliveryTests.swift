import APNs
import APNsSandbox
import Foundation
import PostgresClient
import PushDelivery
import Retry
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("broadcasts delivered to a local APNs server")
struct BroadcastDeliveryTests {
    /// A channel created at the local server, registered 15 minutes before the fixture's first pitch,
    /// then the fixture replayed: returns the planned broadcasts and the channel id.
    func replayWithChannel(_ h: Harness, _ name: String) async throws -> ([BroadcastPush], String) {
        let file = fixture("\(name).jsonl")
        let first = try FeedFile.read(file)[0].message
        guard case .gameScheduled(_, _, let startsAt, _) = first.event else { throw TestDatabaseError("no schedule") }
        let channels = try h.channels()
        let created = await channels.create()
        await channels.shutdown()
        guard let channelId = created.channelId else { throw TestDatabaseError("no channel: \(created)") }
        _ = try await h.connection.withSession { session in
            try Channels.insert(
                gameId: first.gameId, environment: .production, channelId: channelId, storagePolicy: 0,
                registeredAt: startsAt.addingTimeInterval(-15 * 60), in: session)
        }
        try await replay(file, h.connection)
        let planned = try await h.connection.withSession { try Broadcasts.forGame(first.gameId, in: $0) }
        return (planned, channelId)
    }

    func worker(_ h: Harness, _ client: APNsClient) -> DeliveryWorker<BroadcastQueue> {
        var worker = DeliveryWorker(connection: h.connection, broadcasts: { _ in client }, logger: quietLogger)
        worker.backoff = Backoff(base: .milliseconds(5), cap: .milliseconds(50))
        return worker
    }

    @Test("a fixture game's channel receives exactly its golden broadcasts, in order, the end last")
    func golden() async throws {
        try await Harness.with { h in
            let (planned, channelId) = try await replayWithChannel(h, "extra-innings-walkoff")
            #expect(planned.count > 20)
            let client = try h.client()
            let total = try await worker(h, client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.sent == planned.count && total.failed == 0)
            let received = await h.sandbox.delivered().filter(\.isBroadcast)
            #expect(received.map { String(decoding: $0.payload, as: UTF8.self) } == planned.map(\.payload))
            #expect(received.allSatisfy { $0.channelId == channelId && $0.expiration == 0 && $0.topic == nil })
            #expect(received.map(\.priority) == planned.map(\.priority))
            #expect(planned.last?.event == .end)
        }
    }

    @Test("with 429, 500 and dropped connections injected: none lost, in order, nothing after the end")
    func faults() async throws {
        try await Harness.with { h in
            let (planned, _) = try await replayWithChannel(h, "delayed-postponed")
            await h.sandbox.inject(.tooManyRequests, count: 3)
            await h.sandbox.inject(.internalServerError, count: 3)
            await h.sandbox.inject(.dropConnection, count: 2)
            let client = try h.client()
            let total = try await worker(h, client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.retried >= 6)
            // What did not succeed is in the history, one row per attempt; a success is not.
            let history = try await h.connection.query(
                "SELECT a.outcome, a.status FROM delivery_attempts a JOIN outbox o ON o.id = a.message_id WHERE o.kind = 'broadcast' ORDER BY a.id"
            ).rows.map { (try $0.string("outcome"), try $0.optionalInt("status")) }
            #expect(history.count == total.retried + total.failed && history.allSatisfy { $0.0 != "sent" })
            #expect(history.filter { $0.1 == 429 }.count == 3 && history.filter { $0.1 == 500 }.count == 3)
            let final = try await h.connection.withSession { try Broadcasts.forGame(planned[0].gameId, in: $0) }
            #expect(final.allSatisfy { $0.state == "sent" || $0.state == "superseded" }, "\(final.map(\.state))")
            #expect(final.last?.state == "sent" && final.last?.event == .end)
            let byPayload = Dictionary(planned.map { ($0.payload, $0) }, uniquingKeysWith: { a, _ in a })
            let arrivals = await h.sandbox.delivered().filter(\.isBroadcast).compactMap {
                byPayload[String(decoding: $0.payload, as: UTF8.self)]
            }
            var seen = Set<Int>()
            var firsts: [BroadcastPush] = []
            for push in arrivals where !seen.contains(push.id) {
                seen.insert(push.id)
                firsts.append(push)
            }
            #expect(zip(firsts, firsts.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp }, "in order")
            #expect(firsts.last?.event == .end, "the end arrives, last")
        }
    }

    @Test("a channel APNs no longer knows fails its broadcast and is marked deleted")
    func forgottenChannel() async throws {
        try await Harness.with { h in
            let (planned, channelId) = try await replayWithChannel(h, "plain-nine")
            let channels = try h.channels()
            #expect(await channels.delete(channelId).status == 204)
            await channels.shutdown()
            let client = try h.client()
            let total = try await worker(h, client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.sent == 0 && total.failed >= 1)
            let stored = try await h.connection.withSession { try Channels.list(in: $0) }
            #expect(stored.first?.deletedReason == "ChannelNotRegistered")
            #expect(planned.count > 0)
        }
    }

    @Test("once the end was broadcast, the channel is deleted when its dismissal window has passed")
    func deletedAfterTheEndBroadcast() async throws {
        try await Harness.with { h in
            let (_, channelId) = try await replayWithChannel(h, "plain-nine")
            let client = try h.client()
            _ = try await worker(h, client).run(untilEmpty: true)
            try await client.shutdown()
            let channels = try h.channels()
            // Right after the end went out: kept for its dismissal window.
            _ = try await h.connection.query(
                "UPDATE score_states SET state = jsonb_set(state, '{updatedAt}', to_jsonb(now()::text))")
            let early = try await ChannelKeeper.deleteFinished(
                now: Date(), dismissAfter: 3600, client: { _ in channels }, database: h.connection)
            let late = try await ChannelKeeper.deleteFinished(
                now: Date().addingTimeInterval(3700), dismissAfter: 3600, client: { _ in channels },
                database: h.connection)
            await channels.shutdown()
            #expect(early == 0)
            #expect(late == 1)
            #expect(h.sandbox.channels.channel(channelId) == nil)
        }
    }
}
