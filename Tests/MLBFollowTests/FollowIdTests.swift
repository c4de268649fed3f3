import Foundation
import LiveFollow
import MLBFeed
import MLBFeedTesting
import MLBFollow
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("follow: an id means one message")
struct FollowIdTests {
    @Test("a follower whose id already stands for another message stops with the conflict named")
    func conflict() async throws {
        try await withStore { connection in
            let documents = try MLBFeedServer.documents(inFolder: fixture("mlb/full-game"))
            let diff = MLBDiffer.diff(MLBGameView(gamePk: 746001), try MLBSnapshot(data: Data(documents[0].utf8)))
            let first = try #require(diff.messages.first)
            // Another writer used the follower's first id for another game.
            var other = first
            other.gameId = "g-other"
            _ = try await Ingestor(connection: connection).ingest(other)
            let store = GameStore(replayer: Replayer(ingestor: Ingestor(connection: connection)))
            let error = await #expect(throws: ReplayError.self) {
                try await store.store(diff.messages, source: "mlb:746001@\(diff.view.timecode!.text)") { _, _ in }
            }
            #expect(
                error?.underlying.contains(#"id-conflict: message id "\#(first.id)""#) == true,
                "\(String(describing: error))")
            #expect(error?.underlying.contains(#"(game "g-other")"#) == true)
            // The same messages again, as a second follower in step would send them: duplicates.
            let fresh = try await withStore { connection in
                let store = GameStore(replayer: Replayer(ingestor: Ingestor(connection: connection)))
                _ = try await store.store(diff.messages, source: "a") { _, _ in }
                return try await store.store(diff.messages, source: "b") { _, _ in }
            }
            #expect(fresh.duplicates == diff.messages.count)
        }
    }
}
