import Foundation
import MLBFeed
import ScoreDomain
import Testing

/// The event log refuses an id that comes back with other content (`id-conflict`): the differ's ids
/// must name one message each, whatever the documents and however often the follower restarts.
@Suite("the differ's message ids: one id, one message")
struct MessageIdTests {
    /// Every id → the canonical messages sent under it, over `runs`.
    private func contents(_ runs: [[FeedMessage]]) -> [String: Set<String>] {
        var contents: [String: Set<String>] = [:]
        for message in runs.joined() { contents[message.id, default: []].insert(message.canonicalJSON()) }
        return contents
    }

    @Test(
        "a straight run and restarts after every document send the same content under every id",
        arguments: ["full-game", "extra-innings", "corrections", "rain-postponed"])
    func restarts(_ game: String) throws {
        let documents = try snapshots(game)
        let gamePk = documents[0].gamePk
        var runs = [replay(documents, from: MLBGameView(gamePk: gamePk)).messages]
        for cut in 1..<documents.count {
            // A follower restarted after `cut` documents: the view comes from the log's messages.
            let before = replay(Array(documents[0..<cut]), from: MLBGameView(gamePk: gamePk)).messages
            let view = try MLBGameView(gamePk: gamePk, replaying: before)
            runs.append(before + replay(Array(documents[cut...]), from: view).messages)
        }
        let reused = contents(runs).filter { $0.value.count > 1 }
        #expect(reused.isEmpty, "ids with more than one content: \(reused.keys.sorted())")
    }

    @Test("a corrected play gets new ids: the correction and what follows it never reuse an earlier id")
    func corrections() throws {
        let game = try snapshots("corrections")
        let (messages, _) = replay(game, from: MLBGameView(gamePk: 746003))
        #expect(Set(messages.map(\.id)).count == messages.count)
        let corrections = messages.filter { if case .scoreCorrected = $0.event { true } else { false } }
        #expect(corrections.count >= 2)
        // A run taken back and scored again: the new run is a message of its own, with its own id.
        let runs = messages.filter { if case .runScored = $0.event { true } else { false } }
        #expect(Set(runs.map(\.id)).count == runs.count)
        for correction in corrections {
            let index = try #require(messages.firstIndex(of: correction))
            #expect(messages[..<index].allSatisfy { $0.id != correction.id })
        }
    }

    @Test("the same document seen again, or by a second follower in step, makes the same ids with the same content")
    func sameDocument() throws {
        let game = try snapshots("full-game")
        let view = replay(Array(game[0..<6]), from: MLBGameView(gamePk: 746001)).view
        let first = MLBDiffer.diff(view, game[6])
        let second = MLBDiffer.diff(view, game[6])
        #expect(!first.messages.isEmpty)
        #expect(first.messages.map { $0.canonicalJSON() } == second.messages.map { $0.canonicalJSON() })
    }
}
