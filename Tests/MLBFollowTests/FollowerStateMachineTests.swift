import Foundation
import LiveFollow
import MLBFeed
import MLBFollow
import Retry
import ScoreFeedTesting
import Testing

/// The follower's decisions, input by input, without a socket, a database or a clock.
@Suite("the MLB follower's state machine")
struct FollowerStateMachineTests {
    static let url = "http://feed.test/api/v1.1/game/746001/feed/live"

    static func document(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: fixture("mlb/full-game/\(name).json")))
    }

    static func machine(
        interval: Duration? = nil, maximumFailures: Int? = nil, view: MLBGameView = MLBGameView(gamePk: 746001)
    ) -> FollowerStateMachine {
        FollowerStateMachine(
            configuration: .init(
                gamePk: 746001, interval: interval, backoff: Backoff(base: .seconds(1), cap: .seconds(8)),
                maximumFailures: maximumFailures),
            view: view, liveURL: url)
    }

    @Test("a whole document, its messages stored, then the wait it asks for, then patches from its timecode")
    func firstDocument() throws {
        var machine = Self.machine()
        #expect(machine.start().action == .fetchDocument)
        let step = machine.received(try Self.document("01-scheduled"))
        guard case .store(let diff) = step.action else {
            Issue.record("expected a store, got \(step.action)")
            return
        }
        #expect(diff.messages.map(\.event.type) == ["game.scheduled"])
        #expect(machine.view.state == nil)  // the view moves on only once the store returns
        let stored = machine.stored()
        #expect(stored.action == .sleep(.seconds(60)))  // metaData.wait
        #expect(stored.notes.map(\.message) == ["feed document applied"])
        #expect(machine.view.state?.status == .scheduled)
        guard case .fetchPatches(let since) = machine.woke().action else {
            Issue.record("expected patches")
            return
        }
        #expect(since.text == "20260401_140000")
        #expect(machine.summary.applied == 1 && machine.summary.messages == 1)
    }

    @Test("a game already ended in the log is not followed")
    func alreadyEnded() throws {
        var reader = Self.machine()
        for name in ["01-scheduled", "04-top-1st", "13-final"] {
            if case .store = reader.received(try Self.document(name)).action { _ = reader.stored() }
        }
        #expect(reader.view.state?.status.isEnded == true)
        var machine = Self.machine(view: reader.view)
        #expect(machine.start().action == .finish)
    }

    @Test("the official final stops the follow")
    func finalStops() throws {
        var machine = Self.machine(interval: .seconds(1))
        _ = machine.start()
        var last: FollowerStateMachine.Action = .fetchDocument
        for name in ["01-scheduled", "04-top-1st", "12-game-over", "13-final"] {
            var step = machine.received(try Self.document(name))
            if case .store = step.action { step = machine.stored() }
            last = step.action
            if name == "12-game-over" {
                #expect(step.notes.contains { $0.message.hasPrefix("game over; following until the feed says Final") })
                #expect(last == .sleep(.seconds(1)))
            }
        }
        #expect(last == .finish)
    }

    @Test("not JSON: counted, the last good state kept, a pause, then the same kind of fetch")
    func notJSON() {
        var machine = Self.machine()
        _ = machine.start()
        let step = machine.received(Data("<html>".utf8))
        #expect(step.action == .sleep(.seconds(10)))
        #expect(step.notes.first?.level == .error)
        #expect(machine.summary.malformed == 1)
        #expect(machine.woke().action == .fetchDocument)
    }

    @Test("404 before anything was fetched: the game is unknown; later failures back off and retry")
    func failures() throws {
        var machine = Self.machine()
        _ = machine.start()
        let notFound = FetchError(.status, status: 404, "Not Found")
        #expect(
            machine.failed(notFound, unitRandom: 1).action == .fail("game 746001 not found at \(Self.url) (HTTP 404)"))
        var fresh = Self.machine(maximumFailures: 4)
        _ = fresh.start()
        let unavailable = FetchError(.status, status: 503, "Service Unavailable")
        #expect(fresh.failed(unavailable, unitRandom: 1).action == .sleep(.seconds(1)))
        #expect(fresh.failed(unavailable, unitRandom: 1).action == .sleep(.seconds(2)))
        #expect(fresh.failed(unavailable, unitRandom: 0.5).action == .sleep(.seconds(2)))
        #expect(fresh.woke().action == .fetchDocument)
        #expect(
            fresh.failed(unavailable, unitRandom: 1).action
                == .fail(
                    "giving up on game 746001 after 4 failed requests: \(unavailable)"))
        #expect(fresh.summary.retries == 4)
    }

    @Test("patching: a failing timecode (a 4xx, or three failures) falls back to the whole document")
    func patchFallbacks() throws {
        var machine = Self.machine()
        _ = machine.start()
        _ = machine.received(try Self.document("01-scheduled"))
        _ = machine.stored()
        guard case .fetchPatches = machine.woke().action else {
            Issue.record("expected patches")
            return
        }
        let gone = FetchError(.status, status: 410, "Gone")
        #expect(machine.failed(gone, unitRandom: 0).action == .sleep(.zero))
        #expect(machine.woke().action == .fetchDocument)
        #expect(machine.summary.refetches == 1)
        // A patch that does not apply: the whole document at once, without a pause.
        _ = machine.received(try Self.document("01-scheduled"))
        _ = machine.woke()
        let broken = Data(#"[{"diff":[{"op":"replace","path":"/no/such/member","value":1}]}]"#.utf8)
        #expect(machine.received(broken).action == .fetchDocument)
        #expect(machine.summary.refetches == 2)
        // No change since the timecode: an empty list of patches waits for the held document's time.
        _ = machine.received(try Self.document("01-scheduled"))
        _ = machine.woke()
        #expect(machine.received(Data("[]".utf8)).action == .sleep(.seconds(60)))
    }

    @Test("an older document than the one applied is ignored and counted")
    func staleDocument() throws {
        var machine = Self.machine(interval: .seconds(2))
        _ = machine.start()
        for name in ["01-scheduled", "04-top-1st"] {
            if case .store = machine.received(try Self.document(name)).action { _ = machine.stored() }
        }
        // A whole document older than the one held, as a patch answer may carry.
        let step = machine.received(try Self.document("01-scheduled"))
        #expect(step.action == .sleep(.seconds(2)))
        #expect(machine.summary.stale == 1)
        #expect(step.notes.first?.message == "older document than the last applied; ignored")
    }
}
