import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("push-to-start: one start per device and followed game")
struct StartPlanTests {
    static let starters = [String(repeating: "d1", count: 32), String(repeating: "d2", count: 32)]
    static let other = String(repeating: "d3", count: 32)

    /// Two devices following the home team (the second with channels), one following another team.
    func registerDevices(for file: String, _ connection: PostgresConnection) async throws -> ScoreState? {
        let first = try FeedFile.read(file)[0].message
        guard case .gameScheduled(let home, _, let startsAt, _) = first.event else { return nil }
        let at = startsAt.addingTimeInterval(-3600)
        _ = try await connection.withSession { session in
            _ = try Devices.register(
                startToken: Self.starters[0], follows: [home.code], environment: .production,
                bundleId: "com.example.scores", channels: false, at: at, in: session)
            _ = try Devices.register(
                startToken: Self.starters[1], follows: ["XYZ", home.code], environment: .production,
                bundleId: "com.example.scores", channels: true, at: at, in: session)
            _ = try Devices.register(
                startToken: Self.other, follows: ["XYZ"], environment: .production, bundleId: "com.example.scores",
                channels: false, at: at, in: session)
        }
        return nil
    }

    @Test("a followed game's start goes to each following device once, with the keys Apple requires")
    func starts() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            try await registerChannel(for: file, connection)
            _ = try await registerDevices(for: file, connection)
            try await replay(file, connection)
            let gameId = try FeedFile.read(file)[0].message.gameId
            let starts = try await connection.withSession { try Devices.starts(gameId: gameId, in: $0) }
            #expect(starts.map(\.startToken) == Self.starters)
            for start in starts {
                let aps = try #require(
                    (try JSONSerialization.jsonObject(with: Data(start.payload.utf8)) as? [String: Any])?["aps"]
                        as? [String: Any])
                #expect(aps["event"] as? String == "start")
                #expect(aps["attributes-type"] as? String == "ScoreWidgetAttributes")
                let attributes = aps["attributes"] as? [String: Any]
                #expect((attributes?["home"] as? [String: String])?["code"] == "BOS")
                #expect((attributes?["away"] as? [String: String])?["code"] == "NYY")
                #expect(attributes?["gameId"] is String)
                #expect((aps["alert"] as? [String: Any])?["title"] as? String == "New York Yankees at Boston Red Sox")
                #expect(aps["content-state"] != nil && aps["timestamp"] != nil)
                if start.startToken == Self.starters[1] {
                    #expect(aps["input-push-channel"] as? String == "Y2hhbm5lbC1mb3ItdGVzdHM=")
                } else {
                    #expect(aps["input-push-token"] as? Int == 1)
                }
            }
            // Replaying the game again plans no second start.
            try await replay(file, connection)
            #expect(try await count("outbox WHERE kind = 'start'", connection) == 2)
        }
    }

    @Test("with a lead time, the start goes that long before the scheduled first pitch; not earlier")
    func leadTime() async throws {
        try await withStore { connection in
            let now = Date()
            let scheduled = FeedMessage(
                id: "m1", gameId: "g1", at: now.addingTimeInterval(-3600),
                event: .gameScheduled(
                    home: Team(code: "BOS", name: "Boston", logo: ""),
                    away: Team(code: "NYY", name: "New York", logo: ""),
                    startsAt: now.addingTimeInterval(300)))
            _ = try await Ingestor(connection: connection).ingest([scheduled])
            try await Projector().catchUp(connection)
            _ = try await connection.withSession { session in
                try Devices.register(
                    startToken: Self.other, follows: ["BOS"], environment: .production, bundleId: "com.example.scores",
                    channels: false, at: now.addingTimeInterval(-60), in: session)
            }
            // Five minutes before the first pitch: a 0-second lead waits, a 10-minute lead starts.
            _ = try await connection.transaction {
                try PushScheduler.tick(at: now, planner: PushPlanner(), startLead: 0, in: $0)
            }
            #expect(try await count("outbox WHERE kind = 'start'", connection) == 0)
            _ = try await connection.transaction {
                try PushScheduler.tick(at: now, planner: PushPlanner(), startLead: 600, in: $0)
            }
            _ = try await connection.transaction {
                try PushScheduler.tick(at: now.addingTimeInterval(400), planner: PushPlanner(), startLead: 0, in: $0)
            }
            let starts = try await connection.withSession { try Devices.starts(gameId: "g1", in: $0) }
            #expect(starts.count == 1)
            #expect(starts.first?.payload.contains(#""status":"scheduled""#) == true)
        }
    }

    @Test("registration errors name the field")
    func registrationErrors() async throws {
        try await withStore { connection in
            for (token, follows, bundle, field) in [
                ("xyz", ["BOS"], "com.example.scores", "startToken"),
                (Self.other, [String](), "com.example.scores", "follow"),
                (Self.other, ["B O S"], "com.example.scores", "follow"),
                (Self.other, ["BOS"], "nodots", "bundleId"),
            ] {
                await #expect(throws: ActivityError.self) {
                    _ = try await connection.withSession { session in
                        try Devices.register(
                            startToken: token, follows: follows, environment: .production, bundleId: bundle,
                            channels: false, at: Date(), in: session)
                    }
                }
                do {
                    _ = try await connection.withSession { session in
                        try Devices.register(
                            startToken: token, follows: follows, environment: .production, bundleId: bundle,
                            channels: false, at: Date(), in: session)
                    }
                } catch let error as ActivityError {
                    #expect(error.field == field)
                }
            }
            #expect(try await count("devices", connection) == 0)
        }
    }
}
