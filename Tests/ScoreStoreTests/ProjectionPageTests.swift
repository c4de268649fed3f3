import Foundation
import LiveActivity
import ScoreDomain
import ScoreStore
import Testing

/// The rules of folding one page, without a database: events, states and targets in, effects out.
@Suite("projection page: a pure function of events, states, targets and clock")
struct ProjectionPageTests {
    static let bos = Team(code: "BOS", name: "Boston Red Sox", logo: "")
    static let nyy = Team(code: "NYY", name: "New York Yankees", logo: "")
    static let start = Date(timeIntervalSince1970: 1_775_084_400)  // 2026-04-01T23:00:00Z

    static func event(_ position: Int, _ game: String, _ minute: Int, _ event: ScoreEvent, version: Int)
        -> RecordedEvent
    {
        RecordedEvent(
            position: position, version: version,
            message: FeedMessage(
                id: "\(game)-\(position)", gameId: game, at: start.addingTimeInterval(Double(minute * 60)), event: event
            ),
            recordedAt: start)
    }

    static func target(_ id: Int, _ game: String, registered minutes: Int = -15) -> StoredTarget {
        StoredTarget(
            id: id, gameId: game,
            target: .liveActivity(
                ActivityThrottle(registeredAt: start.addingTimeInterval(Double(minutes * 60)), frequentUpdates: false)))
    }

    static let scheduled = ScoreEvent.gameScheduled(home: bos, away: nyy, startsAt: start)
    static let planning = ProjectionPage.Planning(planner: PushPlanner(), clock: .eventTime)

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var events: [RecordedEvent]
        var targets: [StoredTarget]
        var planning: Bool
        /// Expected: (activity id, event, priority, reason) of each planned push, in order.
        var pushes: [String]
        var coalesced: Int
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(
            name: "no target: states and changes, no push", events: [event(1, "g1", -60, scheduled, version: 1)],
            targets: [], planning: true, pushes: [], coalesced: 0),
        Case(
            name: "a change before the registration pushes nothing",
            events: [event(1, "g1", -60, scheduled, version: 1)], targets: [target(7, "g1")], planning: true,
            pushes: [], coalesced: 0),
        Case(
            name: "the start at once with an alert, an out 2 s later coalesced",
            events: [
                event(1, "g1", -60, scheduled, version: 1), event(2, "g1", 5, .gameStarted, version: 2),
                event(3, "g1", 5, .outRecorded(outs: 1), version: 3),
            ],
            targets: [target(7, "g1")], planning: true, pushes: ["7 update 10 immediate"], coalesced: 1),
        Case(
            name: "every target of the game, in order; other games untouched",
            events: [
                event(1, "g1", -60, scheduled, version: 1), event(2, "g2", -60, scheduled, version: 1),
                event(3, "g1", 5, .gameStarted, version: 2),
            ],
            targets: [target(7, "g1"), target(8, "g1"), target(9, "g2")], planning: true,
            pushes: ["7 update 10 immediate", "8 update 10 immediate"], coalesced: 0),
        Case(
            name: "the end goes out at once, whatever the interval",
            events: [
                event(1, "g1", -60, scheduled, version: 1), event(2, "g1", 5, .gameStarted, version: 2),
                event(3, "g1", 5, .gameEnded(.cancelled), version: 3),
            ],
            targets: [target(7, "g1")], planning: true, pushes: ["7 update 10 immediate", "7 end 10 final"],
            coalesced: 0),
        Case(
            name: "a rebuild plans nothing",
            events: [event(1, "g1", -60, scheduled, version: 1), event(2, "g1", 5, .gameStarted, version: 2)],
            targets: [target(7, "g1")], planning: false, pushes: [], coalesced: 0),
    ])
    func rules(_ testCase: Case) throws {
        var audience: Audience?
        let effects = try #require(
            try ProjectionPage.apply(
                testCase.events, states: [:], targets: Dictionary(grouping: testCase.targets, by: \.gameId),
                planning: testCase.planning ? Self.planning : nil, audience: &audience))
        #expect(
            effects.pushes.map { "\($0.targetId) \($0.push.event.rawValue) \($0.push.priority) \($0.push.reason)" }
                == testCase.pushes)
        #expect(effects.pushes.allSatisfy { push in testCase.events.contains { $0.position == push.position } })
        #expect(effects.coalesced == testCase.coalesced)
        #expect(effects.checkpoint == testCase.events.last?.position)
        #expect(effects.positions == testCase.events.map(\.position))
        #expect(Set(effects.states.map(\.state.gameId)) == Set(testCase.events.map(\.message.gameId)))
        for (state, position) in effects.states {
            #expect(position == testCase.events.last { $0.message.gameId == state.gameId }?.position)
        }
        // Every stored target of a touched game comes back, stepped (and none when not planning).
        let touched = Set(testCase.events.map(\.message.gameId))
        #expect(
            effects.targets.map(\.id).sorted()
                == (testCase.planning ? testCase.targets.filter { touched.contains($0.gameId) }.map(\.id) : []))
    }

    @Test("an empty page has no effects; a stored event the fold refuses is a corrupt log")
    func emptyAndCorrupt() throws {
        var audience: Audience?
        #expect(
            try ProjectionPage.apply([], states: [:], targets: [:], planning: Self.planning, audience: &audience)
                == nil)
        let corrupt = [Self.event(4, "g1", 5, .gameStarted, version: 1)]
        #expect(throws: StoreError.self) {
            try ProjectionPage.apply(corrupt, states: [:], targets: [:], planning: Self.planning, audience: &audience)
        }
    }

    @Test("the audience gets the pushes a target registered 15 minutes before the first pitch gets")
    func audienceMatchesATarget() throws {
        let events = [
            Self.event(1, "g1", -60, Self.scheduled, version: 1), Self.event(2, "g1", 5, .gameStarted, version: 2),
            Self.event(3, "g1", 40, .runScored(team: .home, runs: 1), version: 3),
            Self.event(4, "g1", 41, .outRecorded(outs: 1), version: 4),
            Self.event(5, "g1", 180, .gameEnded(.closed), version: 5),
        ]
        var audience: Audience? = Audience()
        let effects = try #require(
            try ProjectionPage.apply(
                events, states: [:], targets: ["g1": [Self.target(7, "g1")]], planning: Self.planning,
                audience: &audience))
        let heard = audience?.take() ?? []
        #expect(heard.map(\.gameId) == Array(repeating: "g1", count: heard.count))
        #expect(heard.map(\.push) == effects.pushes.map(\.push))
        #expect(heard.last?.push.event == .end)
        // A page split in two, the second half met mid-game (its history planned silently): the same pushes.
        var split: Audience? = Audience()
        let first = try #require(
            try ProjectionPage.apply(
                Array(events.prefix(3)), states: [:], targets: [:], planning: Self.planning, audience: &split))
        var later: Audience? = Audience()
        later!.targets["g1"] = ProjectionPage.audienceTarget(history: Array(events.prefix(3)), planning: Self.planning)
        _ = try ProjectionPage.apply(
            Array(events.dropFirst(3)), states: ["g1": first.states[0].state], targets: [:], planning: Self.planning,
            audience: &later)
        #expect((split!.take() + later!.take()).map(\.push) == heard.map(\.push))
    }
}
