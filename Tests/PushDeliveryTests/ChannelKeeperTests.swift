import APNs
import Foundation
import PostgresClient
import PushDelivery
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("each game's broadcast channel")
struct ChannelKeeperTests {
    @Test("created through the management API on first use, then served again; concurrent requests share one")
    func createdOnce() async throws {
        try await Harness.with { h in
            _ = try await h.replay("plain-nine")
            let game = "2026-04-01-NYY-BOS"
            let client = try h.channels()
            let first = try await ChannelKeeper.channel(
                gameId: game, environment: .production, client: client, database: h.connection)
            #expect(h.sandbox.channels.channel(first.channelId)?.storagePolicy == 0)
            let again = try await ChannelKeeper.channel(
                gameId: game, environment: .production, client: client, database: h.connection)
            #expect(again == first)
            // Five at once for another environment: one channel survives in the database and at Apple.
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try await ChannelKeeper.channel(
                            gameId: game, environment: .sandbox, client: client, database: h.connection
                        ).channelId
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(Set(h.sandbox.channels.all()) == [first.channelId, ids.first!])
            let stored = try await h.connection.withSession { try Channels.list(in: $0) }
            #expect(stored.count == 2 && stored.allSatisfy { $0.deletedAt == nil })
            await client.shutdown()
        }
    }

    @Test("unknown games and a full environment are clear errors; a channel APNs forgot is replaced")
    func errorsAndReplacement() async throws {
        try await Harness.with { h in
            _ = try await h.replay("plain-nine")
            let client = try h.channels()
            await #expect(throws: ChannelError.unknownGame("nope")) {
                try await ChannelKeeper.channel(
                    gameId: "nope", environment: .production, client: client, database: h.connection)
            }
            let game = "2026-04-01-NYY-BOS"
            let stale = try await ChannelKeeper.channel(
                gameId: game, environment: .production, client: client, database: h.connection)
            let fresh = try await ChannelKeeper.replace(
                stale, reason: "ChannelNotRegistered", client: client, database: h.connection)
            #expect(fresh.channelId != stale.channelId)
            let list = try await h.connection.withSession { try Channels.list(in: $0) }
            #expect(list.first { $0.channelId == stale.channelId }?.deletedReason == "ChannelNotRegistered")
            #expect(
                try await h.connection.withSession { try Channels.open(gameId: game, environment: .production, in: $0) }
                    == fresh)
            // Apple's limit per environment, counted from the table.
            _ = try await h.connection.query(
                """
                INSERT INTO channels (game_id, environment, channel_id)
                SELECT 'filler-' || n, 'sandbox', 'filler-' || n FROM generate_series(1, \(Channels.maximumOpen)) n
                """)
            await #expect(throws: ChannelError.full(environment: .sandbox, open: Channels.maximumOpen)) {
                try await ChannelKeeper.channel(
                    gameId: game, environment: .sandbox, client: client, database: h.connection)
            }
            await client.shutdown()
        }
    }

    @Test("a finished game's channel whose end never went out is deleted a day after its dismissal window")
    func deletedAfterTheGame() async throws {
        try await Harness.with { h in
            _ = try await h.replay("plain-nine")  // a closed game, its final at 2026-04-02T02:10:29Z
            let client = try h.channels()
            let game = "2026-04-01-NYY-BOS"
            let channel = try await ChannelKeeper.channel(
                gameId: game, environment: .production, client: client, database: h.connection)
            let final = Date(timeIntervalSince1970: 1_775_095_829)
            let early = try await ChannelKeeper.deleteFinished(
                now: final.addingTimeInterval(1800), dismissAfter: 3600, client: { _ in client }, database: h.connection
            )
            #expect(early == 0)
            #expect(h.sandbox.channels.channel(channel.channelId) != nil)
            let stillEarly = try await ChannelKeeper.deleteFinished(
                now: final.addingTimeInterval(3700), dismissAfter: 3600, client: { _ in client }, database: h.connection
            )
            #expect(stillEarly == 0, "no end was broadcast: a day more")
            let late = try await ChannelKeeper.deleteFinished(
                now: final.addingTimeInterval(3700 + 86_400), dismissAfter: 3600, client: { _ in client },
                database: h.connection)
            #expect(late == 1)
            #expect(h.sandbox.channels.channel(channel.channelId) == nil)
            let stored = try await h.connection.withSession { try Channels.list(in: $0) }
            #expect(stored.first?.deletedReason == "game over")
            await client.shutdown()
        }
    }
}
