import APNs
import APNsSandbox
import Foundation
import LiveActivity
import PostgresClient
import PushDelivery
import Retry
import ScoreFeedTesting
import ScoreStore
import Testing

/// Issue 16's end-to-end picture: one fixture game with a broadcast channel, three token activities
/// and two followed push-to-start devices, delivered by the three workers.
@Suite("a game night: channel, token activities and push-to-start together")
struct GameNightTests {
    static let devices = [String(repeating: "c7", count: 32), String(repeating: "c8", count: 32)]

    /// Registers the game's targets and replays it, the last message (the end) after `beforeTheEnd`.
    func prepare(
        _ h: Harness, _ name: String, beforeTheEnd: (String) async throws -> Void = { _ in }
    ) async throws -> (gameId: String, channelId: String) {
        let file = fixture("\(name).jsonl")
        let first = try FeedFile.read(file)[0].message
        guard case .gameScheduled(let home, _, let startsAt, _) = first.event else {
            throw TestDatabaseError("no schedule")
        }
        try await registerActivities(for: file, h.connection)
        let channels = try h.channels()
        let created = await channels.create()
        await channels.shutdown()
        guard let channelId = created.channelId else { throw TestDatabaseError("no channel: \(created)") }
        let registeredAt = startsAt.addingTimeInterval(-15 * 60)
        let devices = Self.devices
        _ = try await h.connection.withSession { session in
            _ = try Channels.insert(
                gameId: first.gameId, environment: .production, channelId: channelId, storagePolicy: 0,
                registeredAt: registeredAt, in: session)
            for (index, token) in devices.enumerated() {
                _ = try Devices.register(
                    startToken: token, follows: [home.code], environment: .production, bundleId: "com.example.scores",
                    channels: index == 1, at: registeredAt, in: session)
            }
        }
        let messages = try FeedFile.read(file)
        let replayer = Replayer(ingestor: Ingestor(connection: h.connection))
        _ = try await replayer.replay(messages: Array(messages.dropLast())) { _, _ in }
        try await beforeTheEnd(first.gameId)
        _ = try await replayer.replay(messages: [messages.last!]) { _, _ in }
        return (first.gameId, channelId)
    }

    /// Runs the push, broadcast and start workers until nothing waits.
    func deliverAll(_ h: Harness) async throws {
        let client = try h.client()
        let backoff = Backoff(base: .milliseconds(5), cap: .milliseconds(50))
        _ = try await h.worker(client).run(untilEmpty: true)
        var broadcasts = DeliveryWorker(connection: h.connection, broadcasts: { _ in client }, logger: quietLogger)
        broadcasts.backoff = backoff
        _ = try await broadcasts.run(untilEmpty: true)
        var starts = DeliveryWorker(connection: h.connection, starts: .apns({ _ in client }), logger: quietLogger)
        starts.backoff = backoff
        _ = try await starts.run(untilEmpty: true)
        try await client.shutdown()
    }

    @Test("exactly the golden streams: each activity's pushes, the channel's broadcasts, one start per device")
    func golden() async throws {
        try await Harness.with { h in
            let name = "extra-innings-walkoff"
            // The app reports the update token of the channel device's activity while the game is on.
            let update = String(repeating: "0e", count: 32)
            let device = Self.devices[1]
            let (gameId, channelId) = try await prepare(h, name) { gameId in
                try await h.connection.transaction { tx in
                    let activity = try Activities.register(
                        gameId: gameId, token: update, environment: .production, bundleId: "com.example.scores",
                        frequentUpdates: false, at: Date(), in: tx)
                    try Devices.joinStart(startToken: device, gameId: gameId, activityId: activity.id, in: tx)
                }
            }
            try await deliverAll(h)
            let received = await h.sandbox.delivered()
            // Token activities: their golden pushes, in order per activity.
            let golden = try String(contentsOfFile: fixture("\(name).pushes.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            for (index, token) in activityTokens.enumerated() {
                let expected = golden.filter { $0["activity"] as? Int == index }.compactMap { $0["apnsId"] as? String }
                #expect(received.filter { $0.token == token }.map { $0.apnsId.lowercased() } == expected)
            }
            // The channel: its golden broadcasts, in order, the end last.
            let broadcastGolden = try String(contentsOfFile: fixture("\(name).broadcasts.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            let broadcasts = received.filter(\.isBroadcast)
            #expect(broadcasts.allSatisfy { $0.channelId == channelId })
            #expect(broadcasts.count == broadcastGolden.count)
            // The same broadcasts as the golden stream: priority and `aps.timestamp`, in order.
            func stamp(_ payload: [UInt8]) -> Int? {
                let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
                return (object?["aps"] as? [String: Any])?["timestamp"] as? Int
            }
            #expect(
                broadcasts.compactMap { stamp($0.payload) } == broadcastGolden.compactMap { $0["timestamp"] as? Int })
            #expect(broadcasts.compactMap(\.priority) == broadcastGolden.compactMap { $0["priority"] as? Int })
            // Each device started once; the channel device joins the channel.
            for (index, token) in Self.devices.enumerated() {
                let starts = received.filter { $0.token == token }
                #expect(starts.count == 1)
                let payload = String(decoding: starts.first?.payload ?? [], as: UTF8.self)
                #expect(payload.contains(#""event":"start""#))
                #expect(
                    payload.contains(index == 1 ? #""input-push-channel":"\#(channelId)""# : #""input-push-token":1"#))
            }
            let starts = try await h.connection.withSession { try Devices.starts(gameId: gameId, in: $0) }
            #expect(starts.map(\.state) == ["sent", "sent"])
            // The activity the channel device's start made listens to the channel.
            let shown = try await h.connection.withSession {
                try Activities.delivery(token: update, now: Date(), policy: ThrottlePolicy(), in: $0)
            }
            #expect(shown?.channel == channelId)
        }
    }

    @Test("with faults: nothing lost, nothing after an end, no device started twice")
    func faults() async throws {
        try await Harness.with { h in
            let (gameId, _) = try await prepare(h, "delayed-postponed")
            await h.sandbox.inject(.tooManyRequests, count: 4)
            await h.sandbox.inject(.internalServerError, count: 4)
            await h.sandbox.inject(.serviceUnavailable, count: 2)
            try await deliverAll(h)
            let states = try await h.connection.query(
                """
                SELECT kind, state FROM outbox WHERE kind IN ('push', 'broadcast')
                """
            ).rows.map { (try $0.string("kind"), try $0.string("state")) }
            #expect(states.allSatisfy { $0.1 == "sent" || $0.1 == "superseded" }, "\(states)")
            let pushes = try await h.connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            for token in activityTokens {
                let mine = pushes.filter { $0.pushToken == token }
                #expect(mine.last { $0.state == "sent" }?.event == .end, "the end was sent, last")
            }
            let broadcasts = try await h.connection.withSession { try Broadcasts.forGame(gameId, in: $0) }
            #expect(broadcasts.last?.event == .end && broadcasts.last?.state == "sent")
            let received = await h.sandbox.delivered()
            for token in Self.devices { #expect(received.filter { $0.token == token }.count == 1) }
            #expect(await h.sandbox.pendingFaults().isEmpty)
        }
    }
}
