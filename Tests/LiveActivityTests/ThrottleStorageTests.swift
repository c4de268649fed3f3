import Foundation
import LiveActivity
import ScoreDomain
import Testing

@Suite("ActivityThrottle storage text")
struct ThrottleStorageTests {
    /// A throttle after `steps` (second offsets from 19:00:00.25; `nil` = only a tick).
    static func throttle(frequent: Bool = false, _ steps: [(Double, ScoreEvent?)]) -> ActivityThrottle {
        let start = T.date("2019-04-01T19:00:00Z").addingTimeInterval(0.25)
        var throttle = ActivityThrottle(registeredAt: start, frequentUpdates: frequent)
        var state = T.state(.inprogress, 1, .top)
        for (offset, event) in steps {
            let now = start.addingTimeInterval(offset)
            if let event {
                let next = T.fold(state, event, at: "2019-04-01T19:00:00Z")
                _ = throttle.receive(previous: state, next: next, event: event, at: now, policy: ThrottlePolicy())
                state = next
            } else {
                _ = throttle.tick(at: now, policy: ThrottlePolicy())
            }
        }
        return throttle
    }

    static let cases: KeyValuePairs<String, ActivityThrottle> = [
        "fresh": throttle([]),
        "frequent, one run sent": throttle(frequent: true, [(1, .runScored(team: .home, runs: 1))]),
        "a coalesced update waiting, with runners and an alert":
            throttle([
                (1, .runScored(team: .home, runs: 1)), (2.5, .basesChanged(Bases(first: true, third: true))),
                (3, .runScored(team: .away, runs: 2)),
            ]),
        "the pending update sent by a tick":
            throttle([(1, .runScored(team: .home, runs: 1)), (2, .outRecorded(outs: 1)), (30, nil)]),
        "ended": throttle([(1, .runScored(team: .home, runs: 1)), (2, .gameEnded(.closed))]),
    ]

    @Test("reads back exactly what it wrote", arguments: cases.map(\.key))
    func roundTrip(name: String) throws {
        let throttle = try #require(Self.cases.first { $0.key == name }?.value)
        let text = throttle.storageText
        #expect(text.hasPrefix("t2 "))
        #expect(try ActivityThrottle(storageText: text) == throttle)
        #expect(text.utf8.count < (try JSONEncoder().encode(throttle)).count)
    }

    @Test("team names with spaces, colons, digits and non-ASCII survive")
    func awkwardStrings() throws {
        let odd = Team(code: "N 1", name: "São Paulo: 12 \"Reds\"", logo: "")
        var throttle = ActivityThrottle(registeredAt: T.date("2019-04-01T19:00:00Z"), frequentUpdates: false)
        let state = ScoreState(
            gameId: "g1", home: odd, away: T.tex, startsAt: T.date("2019-04-01T19:05:00Z"), inningNumber: 1,
            status: .inprogress,
            updatedAt: T.date("2019-04-01T19:05:00Z").addingTimeInterval(0.123456))
        let next = T.fold(state, .runScored(team: .home, runs: 1), at: "2019-04-01T19:06:00Z")
        _ = throttle.receive(
            previous: state, next: next, event: .runScored(team: .home, runs: 1),
            at: T.date("2019-04-01T19:06:00Z"), policy: ThrottlePolicy())
        #expect(try ActivityThrottle(storageText: throttle.storageText) == throttle)
    }

    @Test(
        "refuses what it did not write",
        arguments: [
            "", "{}", "t3 0 0 0 - - - - - 0", "t1 x 0 0 - - - - - 0", "t1 0 0 0 - - - - - 0 extra", "t1 0 0",
            "t2 0 0 0 - - - 5:{\"a\"} - 0", "t2 0 0 0 - - - 2:{} - 0",
        ])
    func refuses(text: String) {
        #expect(throws: ThrottleStorageError.self) { try ActivityThrottle(storageText: text) }
    }

    /// A throttle as an earlier build stored it (`t1`: states field by field), taken from a database.
    static let legacy =
        "t1 800322900.0 0 1 800337273.0 1778644473 5 4 11 1 bottom 0 closed 18:2026-05-12-SEA-HOU 3:HOU "
        + "14:Houston Astros 33:https://example.com/logos/hou.png 3:SEA 16:Seattle Mariners "
        + "33:https://example.com/logos/sea.png 800323800.0 5 4 11 bottom 1 0 closed 93 800337273.0 - 4 "
        + "800335229.0 800335952.0 800337170.0 800337273.0"

    @Test("the t1 form of earlier builds is read, and written back as t2 that reads the same")
    func legacyForm() throws {
        let throttle = try ActivityThrottle(storageText: Self.legacy)
        #expect(throttle.ended)
        #expect(throttle.registeredAt == Date(timeIntervalSinceReferenceDate: 800_322_900))
        let text = throttle.storageText
        #expect(text.hasPrefix("t2 "))
        #expect(text.contains(#""gameId":"2026-05-12-SEA-HOU""#))
        #expect(try ActivityThrottle(storageText: text) == throttle)
    }

    @Test("what the phone shows is compared by its content state: the same scores push nothing")
    func shownDigest() throws {
        var throttle = ActivityThrottle(registeredAt: T.date("2019-04-01T18:00:00Z"), frequentUpdates: false)
        let state = T.state(.inprogress, 4, .top, outs: 1, home: 2, away: 2)
        let run = T.fold(state, .runScored(team: .home, runs: 1))
        #expect(
            throttle.receive(
                previous: state, next: run, event: .runScored(team: .home, runs: 1),
                at: T.date("2019-04-01T19:05:00Z"), policy: ThrottlePolicy()
            ).count == 1)
        // Read back from storage, a change the lock screen does not show (a new start time) pushes nothing.
        var stored = try ActivityThrottle(storageText: throttle.storageText)
        var later = run
        later.startsAt = T.date("2019-04-02T19:05:00Z")
        later.version += 1
        #expect(
            stored.receive(
                previous: run, next: later, event: .gameScheduled(home: T.ana, away: T.tex, startsAt: later.startsAt),
                at: T.date("2019-04-01T19:30:00Z"), policy: ThrottlePolicy()
            ).isEmpty)
    }
}
