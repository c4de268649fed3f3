import Foundation
import LiveActivity
import ScoreDomain
import Testing

@Suite("PushPlanner: which pushes a Live Activity gets for a change")
struct PushPlannerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var previous: ScoreState?
        var event: ScoreEvent
        /// `nil`: no push. Else the event, priority and alert title (`nil` = no alert).
        var expected: (event: LiveActivityEvent, priority: Int, title: String?)?
        var testDescription: String { name }
    }

    static let playing = T.state(.inprogress, 4, .top, outs: 1, home: 2, away: 2)
    static let pregame = T.state(.scheduled)

    @Test(arguments: [
        Case(
            name: "first game.scheduled", previous: nil,
            event: .gameScheduled(home: T.ana, away: T.tex, startsAt: T.date("2019-04-01T19:05:00Z")),
            expected: (.update, 5, nil)),
        // The lock screen shows no start time (content-state has none): nothing to push.
        Case(
            name: "re-schedule with a new start time", previous: pregame,
            event: .gameScheduled(home: T.ana, away: T.tex, startsAt: T.date("2019-04-02T19:05:00Z")),
            expected: nil),
        Case(
            name: "re-schedule with nothing new", previous: pregame,
            event: .gameScheduled(home: T.ana, away: T.tex, startsAt: T.date("2019-04-01T19:05:00Z")), expected: nil),
        Case(name: "game.started", previous: pregame, event: .gameStarted, expected: (.update, 10, "Game started")),
        Case(
            name: "next half-inning", previous: T.state(.inprogress, 4, .top, outs: 3),
            event: .inningChanged(inning: 4, half: .bottom), expected: (.update, 5, nil)),
        Case(
            name: "same half-inning again", previous: playing, event: .inningChanged(inning: 4, half: .top),
            expected: nil),
        Case(
            name: "one run", previous: playing, event: .runScored(team: .away, runs: 1),
            expected: (.update, 10, "Run scored")),
        Case(
            name: "three runs", previous: playing, event: .runScored(team: .home, runs: 3),
            expected: (.update, 10, "3 runs scored")),
        Case(name: "an out", previous: playing, event: .outRecorded(outs: 1), expected: (.update, 5, nil)),
        Case(
            name: "score corrected to a new score", previous: playing,
            event: .scoreCorrected(homeScore: 1, awayScore: 2), expected: (.update, 10, "Score corrected")),
        Case(
            name: "score corrected to the same score", previous: playing,
            event: .scoreCorrected(homeScore: 2, awayScore: 2), expected: nil),
        Case(
            name: "rain delay", previous: playing, event: .statusChanged(.delayed),
            expected: (.update, 10, "Game delayed")),
        Case(
            name: "pre-game delay", previous: pregame, event: .statusChanged(.delayed),
            expected: (.update, 10, "Game delayed")),
        Case(
            name: "delayed again", previous: T.state(.delayed, 4, .top), event: .statusChanged(.delayed),
            expected: nil),
        Case(
            name: "suspension", previous: playing, event: .statusChanged(.suspended),
            expected: (.update, 10, "Game suspended")),
        Case(
            name: "resume after a delay", previous: T.state(.delayed, 4, .top), event: .statusChanged(.inprogress),
            expected: (.update, 5, nil)),
        Case(
            name: "inprogress while in progress", previous: playing, event: .statusChanged(.inprogress),
            expected: nil),
        Case(name: "final", previous: playing, event: .gameEnded(.closed), expected: (.end, 10, "Final")),
        Case(
            name: "postponed", previous: T.state(.delayed, 4, .top), event: .gameEnded(.postponed),
            expected: (.end, 10, "Postponed")),
        Case(name: "cancelled", previous: pregame, event: .gameEnded(.cancelled), expected: (.end, 10, "Cancelled")),
        Case(
            name: "score corrected after the final is not pushed", previous: T.state(.closed, 9, .top, outs: 3),
            event: .scoreCorrected(homeScore: 5, awayScore: 0), expected: nil),
        Case(
            name: "score corrected after a postponement is not pushed", previous: T.state(.postponed),
            event: .scoreCorrected(homeScore: 0, awayScore: 1), expected: nil),
    ])
    func plans(_ testCase: Case) throws {
        let next = T.fold(testCase.previous, testCase.event)
        let push = T.push(previous: testCase.previous, event: testCase.event)
        guard let expected = testCase.expected else {
            #expect(push == nil)
            return
        }
        let planned = try #require(push)
        #expect(planned.event == expected.event)
        #expect(planned.priority == expected.priority)
        #expect(planned.version == next.version)
        #expect(planned.reason == (expected.event == .end ? .final : .immediate))
        #expect(planned.payload.contains(#""event":"\#(expected.event.rawValue)""#))
        if let title = expected.title {
            #expect(planned.payload.contains(#""alert":{"body":"#))
            #expect(planned.payload.contains(#""title":"\#(title)""#))
        } else {
            #expect(!planned.payload.contains("alert"))
        }
    }

    @Test("a lead change is a moment of its own")
    func leadChange() throws {
        let previous = T.state(.inprogress, 7, .bottom, outs: 1, home: 2, away: 3)
        let push = try #require(T.push(previous: previous, event: .runScored(team: .home, runs: 2)))
        #expect(push.priority == 10)
        #expect(push.payload.contains(#""title":"Lead change""#))
    }

    @Test("every target kind answers the same questions: deadlines, pending, ended")
    func targetQuestions() {
        let planner = PushPlanner()
        let registered = T.date("2019-04-01T18:00:00Z")
        var target = PushTarget.liveActivity(ActivityThrottle(registeredAt: registered, frequentUpdates: false))
        #expect(planner.nextDeadline(target) == nil)
        let playing = T.state(.inprogress, 4, .top, outs: 1)
        let first = GameChange(previous: T.state(.scheduled), next: playing, event: .gameStarted)
        #expect(planner.receive(first, for: &target, at: T.date("2019-04-01T19:05:00Z")).count == 1)
        // Apple's 8 hours count from the registration; the end is planned 15 minutes before.
        #expect(planner.nextDeadline(target) == registered.addingTimeInterval(8 * 3600 - 15 * 60))
        let out = GameChange(
            previous: playing, next: T.fold(playing, .outRecorded(outs: 1)), event: .outRecorded(outs: 1))
        #expect(planner.receive(out, for: &target, at: T.date("2019-04-01T19:05:03Z")).isEmpty)
        #expect(planner.isHoldingBack(target))
        #expect(planner.pendingDue(target) == T.date("2019-04-01T19:05:10Z"))
        #expect(planner.nextDeadline(target) == T.date("2019-04-01T19:05:10Z"))
        #expect(planner.tick(&target, at: T.date("2019-04-01T19:05:09Z")).isEmpty)
        let due = planner.tick(&target, at: T.date("2019-04-01T19:05:10Z"))
        #expect(due.map(\.reason) == [.coalesced])
        #expect(!planner.isEnded(target))
        let end = GameChange(previous: playing, next: T.fold(playing, .gameEnded(.closed)), event: .gameEnded(.closed))
        #expect(planner.receive(end, for: &target, at: T.date("2019-04-01T22:00:00Z")).map(\.event) == [.end])
        #expect(planner.isEnded(target))
        #expect(planner.nextDeadline(target) == nil)
    }
}
