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
        #expect(text.hasPrefix("t1 "))
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
        arguments: ["", "{}", "t2 0 0 0 - - - - - 0", "t1 x 0 0 - - - - - 0", "t1 0 0 0 - - - - - 0 extra", "t1 0 0"])
    func refuses(text: String) {
        #expect(throws: ThrottleStorageError.self) { try ActivityThrottle(storageText: text) }
    }
}
