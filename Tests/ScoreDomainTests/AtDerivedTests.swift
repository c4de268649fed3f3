import Foundation
import ScoreDomain
import Testing

@Suite("atDerived: a time the provider did not state")
struct AtDerivedTests {
    static let line = #"{"id":"m1","gameId":"g1","at":"2026-04-01T19:05:00Z","type":"game.started"}"#

    @Test("written only when true, read back, part of the content; a non-boolean names the field")
    func roundTrip() throws {
        let stated = try FeedParser.parse(Self.line)
        #expect(!stated.atDerived)
        #expect(!stated.canonicalJSON().contains("atDerived"))
        var derived = stated
        derived.atDerived = true
        #expect(derived.canonicalJSON().contains(#""atDerived":true"#))
        #expect(try FeedParser.parse(derived.canonicalJSON()) == derived)
        #expect(try FeedParser.parse(stored: derived.canonicalJSON()) == derived)
        #expect(!derived.hasSameContent(as: stated))
        let bad = Self.line.replacingOccurrences(of: #""type""#, with: #""atDerived":"yes","type""#)
        #expect {
            try FeedParser.parse(bad)
        } throws: { error in
            "\(error)".contains("atDerived")
        }
    }
}
