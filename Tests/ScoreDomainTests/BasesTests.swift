import Foundation
import ScoreDomain
import Testing

@Suite("bases: runners on base")
struct BasesTests {
    static let corners = Bases(first: true, third: true)

    private func playing(_ bases: Bases = .empty, _ inning: Int = 4, _ half: Half = .top) -> ScoreState {
        var state = T.state(.inprogress, inning, half, outs: 1, home: 2, away: 1)
        state.bases = bases
        return state
    }

    @Test("bases.changed sets the runners while the game is in progress")
    func sets() throws {
        let next = try ScoreFold.apply(T.message(.basesChanged(Self.corners)), to: playing())
        #expect(next.bases == Self.corners)
        #expect(next.outs == 1)
        #expect(next.version == 6)
    }

    @Test(
        "bases.changed is refused unless the game is in progress",
        arguments: [
            (GameStatus.scheduled, 0, "not-in-progress"), (.delayed, 5, "not-in-progress"),
            (.suspended, 5, "not-in-progress"), (.closed, 9, "game-ended"),
        ])
    func refused(_ status: GameStatus, _ inning: Int, _ code: String) {
        let state = T.state(status, inning, .top)
        #expect(throws: FoldError.self) { try ScoreFold.apply(T.message(.basesChanged(Self.corners)), to: state) }
        do {
            _ = try ScoreFold.apply(T.message(.basesChanged(Self.corners)), to: state)
        } catch {
            #expect(error.code == code)
        }
    }

    @Test("a new half-inning clears the bases; the same half keeps them")
    func inningChange() throws {
        let later = try ScoreFold.apply(T.message(.inningChanged(inning: 4, half: .bottom)), to: playing(Self.corners))
        #expect(later.bases == .empty)
        let same = try ScoreFold.apply(T.message(.inningChanged(inning: 4, half: .top)), to: playing(Self.corners))
        #expect(same.bases == Self.corners)
    }

    @Test(
        "the feed format: booleans, absent means empty, anything else is a clear error",
        arguments: [
            (#""first":true,"third":true"#, Bases(first: true, third: true)),
            ("", Bases()),
            (#""first":false,"second":true,"third":false"#, Bases(second: true)),
        ])
    func parses(_ fields: String, _ expected: Bases) throws {
        let comma = fields.isEmpty ? "" : ","
        let json = #"{"id":"m1","gameId":"g1","at":"2019-04-01T20:00:00Z","type":"bases.changed"\#(comma)\#(fields)}"#
        let message = try FeedParser.parse(json)
        #expect(message.event == .basesChanged(expected))
        #expect(try FeedParser.parse(message.canonicalJSON()) == message)
    }

    @Test(
        "a base that is not a boolean names the field",
        arguments: [#""first":1"#, #""second":"true""#, #""third":null"#])
    func invalid(_ field: String) {
        let json = #"{"id":"m1","gameId":"g1","at":"2019-04-01T20:00:00Z","type":"bases.changed",\#(field)}"#
        do {
            _ = try FeedParser.parse(json, line: 3)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.code == "invalid-field")
            #expect(error.description.hasPrefix("line 3: field"))
            #expect(error.description.contains("must be true or false"))
        }
    }

    @Test("canonical form writes all three bases")
    func canonical() {
        let message = T.message(.basesChanged(Bases(second: true)))
        #expect(
            message.canonicalJSON()
                == #"{"at":"2019-04-01T20:00:00Z","first":false,"gameId":"g1","id":"m1","second":true,"third":false,"type":"bases.changed"}"#
        )
    }
}
