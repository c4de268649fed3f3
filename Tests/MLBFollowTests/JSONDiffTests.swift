import Foundation
import MLBFeed
import MLBFeedTesting
import ScoreDomain
import ScoreFeedTesting
import Testing

@Suite("the local server's patches: JSONDiff + JSONPatch round-trip on the fixture documents")
struct JSONDiffTests {
    @Test(
        "the patch between consecutive documents turns one into the next",
        arguments: ["full-game", "extra-innings", "corrections", "rain-postponed"])
    func roundTrip(_ game: String) throws {
        let documents = try MLBFeedServer.documents(inFolder: fixture("mlb/\(game)"))
            .map { try JSONValue.parse(Data($0.utf8)) }
        for (old, new) in zip(documents, documents.dropFirst()) {
            let operations = JSONDiff.operations(from: old, to: new)
            #expect(operations.first.flatMap { JSONPointer(tokens: ["op"]).resolve(in: $0) } == .string("test"))
            let patched = try JSONPatch(parsing: .array(operations)).applied(to: old)
            #expect(patched == new)
            // The patch checks the timecode it starts from: applied to the new document it fails.
            #expect(throws: JSONPatchError.self) { try JSONPatch(parsing: .array(operations)).applied(to: new) }
        }
    }
}
