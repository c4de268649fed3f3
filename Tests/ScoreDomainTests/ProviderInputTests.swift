import Foundation
import ScoreDomain
import Testing

/// What real providers give that the canonical format accepts (issue 27): their game ids, games with
/// no scheduled time.
@Suite("the canonical format takes providers' ids and games without a scheduled time")
struct ProviderInputTests {
    static let teams =
        #""home":{"code":"LIV","name":"Liverpool","logo":""},"away":{"code":"CHE","name":"Chelsea","logo":""}"#

    @Test(arguments: ["sr:match:11854838", "nhl-2023020204", "a.b_c:d-e", String(repeating: "x", count: 64)])
    func gameIds(_ id: String) throws {
        let message = try FeedParser.parse(
            #"{"id":"m1","gameId":"\#(id)","at":"2024-03-01T12:00:00Z","type":"game.started"}"#)
        #expect(message.gameId == id)
        #expect(GameIdRule.isValid(id))
    }

    @Test(arguments: ["", "sr match", "g/1", "é", String(repeating: "x", count: 65)])
    func badGameIds(_ id: String) {
        #expect(!GameIdRule.isValid(id))
        #expect(throws: FeedError.self) {
            try FeedParser.parse(#"{"id":"m1","gameId":"\#(id)","at":"2024-03-01T12:00:00Z","type":"game.started"}"#)
        }
    }

    @Test("a game.scheduled without startsAt starts at its own at, written out in the canonical form")
    func noScheduledTime() throws {
        let text =
            #"{"id":"m1","gameId":"sr:match:1","at":"2024-03-01T12:00:00Z","type":"game.scheduled","# + Self.teams
            + #","sport":"soccer"}"#
        let message = try FeedParser.parse(text)
        guard case .gameScheduled(_, _, let startsAt, let setup) = message.event else {
            Issue.record("not a game.scheduled")
            return
        }
        #expect(startsAt == message.at)
        #expect(setup.sport == .soccer)
        #expect(message.canonicalJSON().contains(#""startsAt":"2024-03-01T12:00:00Z""#))
        let again: FeedMessage = try FeedParser.parse(message.canonicalJSON())
        #expect(again == message)
    }
}
