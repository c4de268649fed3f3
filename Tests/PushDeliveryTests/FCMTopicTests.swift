import FCMSandbox
import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("Android followers through one FCM topic per game")
struct FCMTopicTests {
    static let devices = (0..<3).map { "fcm-android-device-topic-\($0):APA91bHsandboxAndroidTopicRegistration" }

    /// The data maps of the golden follower's messages, in order.
    static func goldenData(_ name: String) throws -> [String] {
        try String(contentsOfFile: fixture("\(name).android.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { line in
                String(line[line.range(of: #""data":"#)!.upperBound..<line.range(of: #","event":"#)!.lowerBound])
            }
    }

    @Test("three followers through the topic: the topic gets exactly the golden follower's messages, once for all")
    func topicGetsTheGoldenStream() async throws {
        try await FCMHarness.with { h in
            let file = fixture("plain-nine.jsonl")
            let first = try FeedFile.read(file)[0].message
            guard case .gameScheduled(_, _, let startsAt, _) = first.event else { return }
            let followedAt = startsAt.addingTimeInterval(-15 * 60)
            let topic = Followers.topic(gameId: first.gameId, app: AppName.default)
            let followers = try await h.connection.withSession { session in
                try Self.devices.map {
                    try Followers.follow(
                        gameId: first.gameId, fcm: .token($0), at: followedAt, viaTopic: true, in: session
                    ).follower
                }
            }
            #expect(followers.allSatisfy { $0.topic == topic }, "\(followers)")
            #expect(followers.first?.jsonValue.serialized().contains(#""topic":"\#(topic)""#) == true)
            _ = try await replay(file, h.connection)
            let total = try await h.worker().run(untilEmpty: true)
            #expect(total.paused == nil && total.failed == 0)
            let accepted = h.sandbox.accepted()
            let toTopic = accepted.filter { $0.topic == topic }
            let golden = try Self.goldenData("plain-nine")
            #expect(toTopic.count == golden.count)
            for (received, data) in zip(toTopic, golden) {
                #expect(received.body.contains(#""data":\#(data)"#))
                #expect(received.body.contains(#""topic":"\#(topic)""#))
            }
            // The game was unknown when they followed: nothing went to a device's own token.
            #expect(accepted.allSatisfy { $0.topic == topic }, "\(accepted.map(\.target))")
            // One topic target, none per device: the followers are listed, the topic is not.
            let listed = try await h.connection.withSession { try Followers.list(gameId: first.gameId, in: $0) }
            #expect(listed.map(\.fcm) == Self.devices.map { FCMAddress.token($0) })
        }
    }

    @Test("a follow mid-game sends the current state to the device once; later messages go only to the topic")
    func midGameFollowGetsTheStateOnce() async throws {
        try await FCMHarness.with { h in
            let file = fixture("extra-innings-walkoff.jsonl")
            let messages = try FeedFile.read(file)
            let gameId = messages[0].message.gameId
            let half = Array(messages.prefix(messages.count / 2))
            _ = try await Replayer(ingestor: Ingestor(connection: h.connection)).replay(messages: half) { _, _ in }
            let topic = Followers.topic(gameId: gameId, app: AppName.default)
            let followedAt = half.last!.message.at
            for device in Self.devices.prefix(2) {
                _ = try await h.connection.withSession {
                    try Followers.follow(gameId: gameId, fcm: .token(device), at: followedAt, viaTopic: true, in: $0)
                }
            }
            #expect(try await h.worker().run(untilEmpty: true).failed == 0)
            var accepted = h.sandbox.accepted()
            // Each device its state, once, at its own token; the topic nothing yet (no change since).
            for device in Self.devices.prefix(2) {
                let own = accepted.filter { $0.target == device }
                #expect(own.count == 1, "\(device): \(own.count)")
                #expect(own.first?.body.contains(#""status":"inprogress""#) == true, "\(own.first?.body ?? "")")
            }
            #expect(accepted.filter { $0.topic == topic }.isEmpty)
            _ = try await Replayer(ingestor: Ingestor(connection: h.connection)).replay(messages: messages) { _, _ in }
            #expect(try await h.worker().run(untilEmpty: true).failed == 0)
            accepted = h.sandbox.accepted()
            // The rest of the game (its end last) through the topic; still one message per device.
            let toTopic = accepted.filter { $0.topic == topic }
            #expect(!toTopic.isEmpty)
            #expect(toTopic.last?.body.contains(#""status":"closed""#) == true, "\(toTopic.last?.body ?? "")")
            for device in Self.devices.prefix(2) { #expect(accepted.filter { $0.target == device }.count == 1) }
            // The operator sees the topic as a target of its own, beside the two followers.
            let targets = try await h.connection.withSession {
                try GameTargets.list(gameId: gameId, app: AppName.default, now: Date(), in: $0)
            }
            #expect(targets.filter { $0.route == .topic }.map(\.fcmTarget) == [topic])
            #expect(targets.filter { $0.route == .android }.count == 2)
            // Unfollowing leaves the topic (other devices follow through it) and the device's row inactive.
            let removed = try await h.connection.withSession {
                try Followers.unfollow(gameId: gameId, fcmToken: Self.devices[0], in: $0)
            }
            #expect(removed)
        }
    }

    @Test("the six-games cap counts follows through a topic like any other")
    func capHolds() async throws {
        try await withStore { connection in
            try await connection.withSession { session in
                let device = Self.devices[2]
                for game in 1...Followers.maximumPerDevice {
                    _ = try Followers.follow(
                        gameId: "g\(game)", fcm: .token(device), at: Date(), viaTopic: true, in: session)
                }
                #expect(throws: Followers.Refusal.tooManyGames(Followers.maximumPerDevice)) {
                    try Followers.follow(gameId: "g7", fcm: .token(device), at: Date(), viaTopic: true, in: session)
                }
                #expect(
                    Followers.topic(gameId: "sr:match:11854838", app: "android")
                        == "scorefeed.android.sr%3Amatch%3A11854838")
            }
        }
    }
}
