import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

/// A game's broadcasts as golden JSON lines.
func broadcastLines(_ gameId: String, _ connection: PostgresConnection) async throws -> String {
    try await connection.withSession { try Broadcasts.forGame(gameId, in: $0) }.map { push in
        #"{"event":"\#(push.event.rawValue)","expiration":\#(push.expiration),"payload":\#(push.payload),"#
            + #""priority":\#(push.priority),"reason":"\#(push.reason)","requestId":"\#(push.requestId)","#
            + #""timestamp":\#(push.timestamp)}"# + "\n"
    }.joined()
}

/// Registers a channel for the fixture's game, 15 minutes before the first pitch (the game's clock).
func registerChannel(for file: String, _ connection: PostgresConnection) async throws {
    let first = try FeedFile.read(file)[0].message
    guard case .gameScheduled(_, _, let startsAt, _) = first.event else { throw TestDatabaseError("no game.scheduled") }
    _ = try await connection.withSession { session in
        try Channels.insert(
            gameId: first.gameId, environment: .production, channelId: "Y2hhbm5lbC1mb3ItdGVzdHM=", storagePolicy: 0,
            registeredAt: startsAt.addingTimeInterval(-15 * 60), in: session)
    }
}

@Suite("broadcasts planned for a game's channel")
struct BroadcastPlanTests {
    @Test("a fixture game's channel gets exactly its golden broadcasts", .serialized, arguments: ReplayTests.fixtures)
    func golden(_ name: String) async throws {
        try await withStore { connection in
            let file = fixture("\(name).jsonl")
            try await registerChannel(for: file, connection)
            try await replay(file, connection)
            let gameId = try FeedFile.read(file)[0].message.gameId
            let produced = try await broadcastLines(gameId, connection)
            let goldenPath = fixture("\(name).broadcasts.jsonl")
            if ProcessInfo.processInfo.environment["SCOREFEED_UPDATE_GOLDEN"] == "1" {
                try produced.write(toFile: goldenPath, atomically: true, encoding: .utf8)
            }
            let golden = try String(contentsOfFile: goldenPath, encoding: .utf8)
            #expect(
                produced == golden,
                "broadcasts of \(name) differ from \(goldenPath); SCOREFEED_UPDATE_GOLDEN=1 rewrites it")
            let pushes = try await connection.withSession { try Broadcasts.forGame(gameId, in: $0) }
            #expect(zip(pushes, pushes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
            #expect(pushes.filter { $0.event == .end }.count == 1)
            #expect(pushes.last?.event == .end)
            #expect(pushes.allSatisfy { $0.payload.utf8.count <= 5120 })
            // At most one broadcast per 3 seconds (the end is never held back).
            let updates = pushes.filter { $0.event == .update }
            #expect(zip(updates, updates.dropFirst()).allSatisfy { $1.timestamp - $0.timestamp >= 3 })
        }
    }
}
