import Foundation
import LiveFollow
import ScoreDomain
import Testing

/// What a newer document adds to the log, without a database.
@Suite("poll diff: only what is new, edits and removals retracted")
struct PollDiffTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func goal(_ id: String, _ side: Side, _ player: String, at seconds: Double = 60) -> FeedMessage {
        FeedMessage(
            id: id, gameId: "g", at: start + seconds,
            event: .pointsScored(PointsScored(team: side, points: 1, kind: .goal, player: player)))
    }

    static let scheduled = FeedMessage(
        id: "f-scheduled", gameId: "g", at: start,
        event: .gameScheduled(
            home: Team(code: "AAA", name: "A", logo: ""), away: Team(code: "BBB", name: "B", logo: ""),
            startsAt: start, setup: GameSetup(sport: .hockey, rules: GameRules.defaultRules(for: .hockey))))

    @Test("the same document twice adds nothing; a new play is added")
    func sameAndNew() {
        let stored = [Self.scheduled, Self.goal("f-1", .home, "X")]
        #expect(PollDiff.diff(stored: stored, converted: stored, owner: "f-").messages.isEmpty)
        let newer = stored + [Self.goal("f-2", .away, "Y", at: 90)]
        #expect(PollDiff.diff(stored: stored, converted: newer, owner: "f-").messages.map(\.id) == ["f-2"])
    }

    @Test("an edited play is retracted and stored again under a revision id; the next poll compares with it")
    func edited() {
        let stored = [Self.scheduled, Self.goal("f-1", .home, "X")]
        let edited = [Self.scheduled, Self.goal("f-1", .home, "Z")]
        let outcome = PollDiff.diff(stored: stored, converted: edited, owner: "f-")
        #expect(outcome.messages.map(\.id) == ["f-1-retracted", "f-1~1"])
        #expect(outcome.messages[0].event == .retracted(id: "f-1", reason: "edited by the provider"))
        #expect(outcome.messages[1].event == edited[1].event)
        #expect(outcome.retractions == 1)
        let after = stored + outcome.messages
        #expect(PollDiff.diff(stored: after, converted: edited, owner: "f-").messages.isEmpty)
        let back = PollDiff.diff(stored: after, converted: stored, owner: "f-")
        #expect(back.messages.map(\.id) == ["f-1~1-retracted", "f-1~2"])
    }

    @Test("a removed play is retracted once; back again, it is a new revision; others' messages stay")
    func removed() {
        let mine = Self.goal("f-1", .home, "X")
        let theirs = Self.goal("webhook-7", .away, "Q")
        let stored = [Self.scheduled, mine, theirs]
        let outcome = PollDiff.diff(stored: stored, converted: [Self.scheduled], owner: "f-")
        #expect(outcome.messages.map(\.id) == ["f-1-retracted"])
        #expect(outcome.messages[0].event == .retracted(id: "f-1", reason: "removed by the provider"))
        let after = stored + outcome.messages
        #expect(PollDiff.diff(stored: after, converted: [Self.scheduled], owner: "f-").messages.isEmpty)
        #expect(
            PollDiff.diff(stored: after, converted: [Self.scheduled, mine], owner: "f-").messages.map(\.id) == ["f-1~1"]
        )
    }

    @Test("a changed schedule is a revision without a retraction; a changed period start is kept with a note")
    func notRetractable() {
        var later = Self.scheduled
        later.at += 60
        let period = FeedMessage(id: "f-p1", gameId: "g", at: Self.start, event: .periodStarted(period: 1, kind: nil))
        var moved = period
        moved.at += 5
        let outcome = PollDiff.diff(stored: [Self.scheduled, period], converted: [later, moved], owner: "f-")
        #expect(outcome.messages.map(\.id) == ["f-scheduled~1"])
        #expect(outcome.notes.count == 1)
    }
}
