import APNs
import APNsSandbox
import Foundation
import PostgresClient
import PushDelivery
import Retry
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("push-to-start delivered to a local APNs server")
struct StartDeliveryTests {
    let starter = String(repeating: "e1", count: 32)

    /// Registers the device and replays the game (without its last message, the end, when `holdingTheEnd`).
    func replayWithDevice(_ h: Harness, holdingTheEnd: Bool = false) async throws -> String {
        let file = fixture("plain-nine.jsonl")
        let first = try FeedFile.read(file)[0].message
        guard case .gameScheduled(let home, _, let startsAt, _) = first.event else {
            throw TestDatabaseError("no schedule")
        }
        let token = starter
        _ = try await h.connection.withSession { session in
            try Devices.register(
                startToken: token, follows: [home.code], environment: .production, bundleId: "com.example.scores",
                channels: false, at: startsAt.addingTimeInterval(-3600), in: session)
        }
        let messages = try FeedFile.read(file)
        _ = try await Replayer(ingestor: Ingestor(connection: h.connection)).replay(
            messages: holdingTheEnd ? messages.dropLast() : messages
        ) { _, _ in }
        return first.gameId
    }

    @Test("the start reaches the device once; the update token it then reports joins it")
    func delivered() async throws {
        try await Harness.with { h in
            // The app reports its update token while the game is on (after the end it would be refused).
            let gameId = try await replayWithDevice(h, holdingTheEnd: true)
            let client = try h.client()
            let total = try await DeliveryWorker(
                connection: h.connection, starts: .apns({ _ in client }), logger: quietLogger
            )
            .run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.sent == 1 && total.failed == 0)
            let token = starter
            let received = await h.sandbox.delivered().filter { $0.token == token }
            #expect(received.count == 1)
            let payload = String(decoding: received.first?.payload ?? [], as: UTF8.self)
            #expect(payload.contains(#""event":"start""#) && payload.contains(#""input-push-token":1"#))
            #expect(received.first?.priority == 10)
            // The app reports the new activity's update token with the start token: it joins the start.
            let update = String(repeating: "f1", count: 32)
            try await h.connection.transaction { tx in
                let activity = try Activities.register(
                    gameId: gameId, token: update, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: Date(), in: tx)
                try Devices.joinStart(startToken: token, gameId: gameId, activityId: activity.id, in: tx)
            }
            let start = try await h.connection.withSession { try Devices.starts(gameId: gameId, in: $0) }.first
            #expect(start?.state == "sent" && start?.activityId != nil)
        }
    }

    @Test("a start whose answer was lost is never sent again: no duplicate activity")
    func lostAnswer() async throws {
        try await Harness.with { h in
            let gameId = try await replayWithDevice(h)
            await h.sandbox.inject(.dropConnection, count: 1, token: starter)
            let client = try h.client()
            let worker = DeliveryWorker(connection: h.connection, starts: .apns({ _ in client }), logger: quietLogger)
            let total = try await worker.run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.sent == 0 && total.failed == 1)
            let start = try await h.connection.withSession { try Devices.starts(gameId: gameId, in: $0) }.first
            #expect(start?.state == "failed" && start?.lastReason?.contains("never two starts") == true)
            let token = starter
            #expect(await h.sandbox.deliveries().filter { $0.token == token }.count == 1)
        }
    }

    @Test("429 is retried; a gone start token retires the device")
    func retriesAndGoneTokens() async throws {
        try await Harness.with { h in
            let gameId = try await replayWithDevice(h)
            await h.sandbox.inject(.tooManyRequests, count: 1, token: starter)
            await h.sandbox.inject(.unregistered(timestamp: 1_900_000_000_000), count: 1, token: starter)
            let client = try h.client()
            var worker = DeliveryWorker(connection: h.connection, starts: .apns({ _ in client }), logger: quietLogger)
            worker.backoff = Backoff(base: .milliseconds(5), cap: .milliseconds(20))
            let total = try await worker.run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.deactivated == 1 && total.failed == 0)
            let start = try await h.connection.withSession { try Devices.starts(gameId: gameId, in: $0) }.first
            #expect(start?.attempts == 2 && start?.state == "failed")
            let history = try await h.connection.query(
                "SELECT outcome, status, reason FROM delivery_attempts WHERE message_id = $1 ORDER BY id",
                [start?.id ?? 0]
            ).rows.map {
                "\(try $0.string("outcome")) \(try $0.optionalInt("status") ?? 0) \(try $0.text("reason") ?? "")"
            }
            #expect(history == ["retry 429 TooManyRequests", "deactivated 410 Unregistered"])
            let device = try await h.connection.withSession { try Devices.list(in: $0) }.first
            #expect(device?.active == false)
        }
    }
}
