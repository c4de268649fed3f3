import Foundation
import LiveActivity
import ScoreDomain
import Testing

@Suite("PushPlanner: exact APNs payloads")
struct PayloadTests {
    @Test("a run: priority 10, alert with the score line, stale-date 900 s later")
    func runScored() throws {
        let previous = T.state(.inprogress, 4, .top, outs: 1, home: 2, away: 2, version: 6)
        let event = ScoreEvent.runScored(team: .away, runs: 1)
        let next = T.fold(previous, event, at: "2019-04-01T19:05:00Z")
        #expect(next.version == 7)
        let command = try #require(T.push(previous: previous, event: event, at: "2019-04-01T19:05:00Z"))
        let payload =
            #"{"aps":{"alert":{"body":"TEX 3 – 2 ANA, Top 4th","sound":"default","title":"Run scored"},"#
            + #""content-state":{"status":{"awayScore":3,"bases":{"first":false,"second":false,"third":false},"homeScore":2,"inning":"Top 4th","outs":1,"#
            + #""status":"inprogress"}},"#
            + #""event":"update","relevance-score":70,"stale-date":1554146400,"timestamp":1554145500}}"#
        #expect(
            command
                == PlannedMessage(
                    event: .update, priority: 10, timestamp: 1_554_145_500, sendAt: T.date("2019-04-01T19:05:00Z"),
                    expiration: 1_554_146_400, reason: .immediate, version: 7, payload: payload))
        #expect(
            command.jsonLine(gameId: "g1")
                == #"{"gameId":"g1","event":"update","expiration":1554146400,"payload":"# + payload
                + #","priority":10,"reason":"immediate","timestamp":1554145500}"#)
        #expect(Array(command.payload.utf8).contains(0xE2))  // the en dash as raw UTF-8 (E2 80 93)
        #expect(!command.payload.contains(#"\u2013"#))
    }

    @Test("an out: priority 5, no alert")
    func outRecorded() throws {
        let previous = T.state(.inprogress, 7, .bottom, outs: 0, home: 1, away: 0, version: 40)
        let event = ScoreEvent.outRecorded(outs: 1)
        let next = T.fold(previous, event, at: "2019-04-01T21:10:30.750Z")
        #expect(next.version == 41)
        let command = try #require(
            T.push(previous: previous, event: event, at: "2019-04-01T21:10:30.750Z", lastTimestamp: 1_554_153_000))
        #expect(
            command.jsonLine(gameId: "g1")
                == #"{"gameId":"g1","event":"update","expiration":1554153930,"payload":{"aps":{"content-state":{"status":{"awayScore":0,"#
                + #""bases":{"first":false,"second":false,"third":false},"homeScore":1,"inning":"Bottom 7th","outs":1,"#
                + #""status":"inprogress"}},"event":"update","relevance-score":85,"#
                + #""stale-date":1554153930,"timestamp":1554153030}},"priority":5,"reason":"immediate","timestamp":1554153030}"#
        )
    }

    @Test("the final: event end, dismissal-date instead of stale-date, configurable delays")
    func final() throws {
        let previous = T.state(.inprogress, 9, .bottom, outs: 2, home: 5, away: 4, version: 80)
        let event = ScoreEvent.gameEnded(.closed)
        let next = T.fold(previous, event, at: "2019-04-01T22:01:00Z")
        #expect(next.status == .closed)
        let policy = ThrottlePolicy(minInterval: 0, staleAfter: 60, dismissAfter: 120)
        let command = try #require(T.push(previous: previous, event: event, at: "2019-04-01T22:01:00Z", policy: policy))
        #expect(
            command.payload
                == #"{"aps":{"alert":{"body":"TEX 4 – 5 ANA, Bottom 9th","sound":"default","title":"Final"},"#
                + #""content-state":{"status":{"awayScore":4,"bases":{"first":false,"second":false,"third":false},"homeScore":5,"inning":"Bottom 9th","outs":2,"#
                + #""status":"closed"}},"#
                + #""dismissal-date":1554156180,"event":"end","relevance-score":0,"timestamp":1554156060}}"#)
    }

    struct Dates: Sendable, CustomTestStringConvertible {
        var event: ScoreEvent
        var config: ThrottlePolicy
        var stale: Int?
        var dismissal: Int?
        var testDescription: String { "\(event.type) \(config.staleAfter)/\(config.dismissAfter)" }
    }

    @Test(
        "stale-date only on updates, dismissal-date only on the end",
        arguments: [
            Dates(
                event: .outRecorded(outs: 1), config: ThrottlePolicy(minInterval: 0), stale: 1_554_146_400,
                dismissal: nil),
            Dates(
                event: .statusChanged(.delayed), config: ThrottlePolicy(minInterval: 0, staleAfter: 30),
                stale: 1_554_145_530,
                dismissal: nil),
            Dates(
                event: .gameEnded(.postponed), config: ThrottlePolicy(minInterval: 0), stale: nil,
                dismissal: 1_554_149_100),
            Dates(
                event: .gameEnded(.cancelled), config: ThrottlePolicy(minInterval: 0, dismissAfter: 0), stale: nil,
                dismissal: 1_554_145_500),
        ])
    func dates(_ dates: Dates) throws {
        let previous = T.state(.inprogress, 3, .top)
        let command = try #require(
            T.push(previous: previous, event: dates.event, at: "2019-04-01T19:05:00Z", policy: dates.config))
        #expect(command.payload.contains(#""stale-date":\#(dates.stale ?? 0)"#) == (dates.stale != nil))
        #expect(command.payload.contains("stale-date") == (dates.stale != nil))
        #expect(command.payload.contains(#""dismissal-date":\#(dates.dismissal ?? 0)"#) == (dates.dismissal != nil))
        #expect(command.payload.contains("dismissal-date") == (dates.dismissal != nil))
        #expect(!command.payload.contains("null"))
    }

    @Test("the largest possible state stays far below the 4096-byte APNs limit")
    func largestPayload() throws {
        let longest = Team(
            code: "ABCDEFGH", name: String(repeating: "N", count: 64), logo: String(repeating: "L", count: 512))
        func state(_ status: GameStatus, home: Int, version: Int) -> ScoreState {
            ScoreState(
                gameId: String(repeating: "g", count: 64), home: longest, away: longest,
                startsAt: T.date("9999-12-31T23:59:59Z"), homeScore: home, awayScore: 999, inningNumber: 99,
                half: .bottom, outs: 3, status: status, version: version, updatedAt: T.date("9999-12-31T23:59:59Z"))
        }
        let policy = ThrottlePolicy(minInterval: 0, staleAfter: Int(Int32.max), dismissAfter: Int(Int32.max))
        let planner = PushPlanner(policy: policy)
        let cases: [(ScoreState, ScoreState, ScoreEvent)] = [
            (
                state(.inprogress, home: 995, version: 1), state(.inprogress, home: 999, version: 2),
                .runScored(team: .home, runs: 4)
            ),
            (
                state(.inprogress, home: 0, version: 1), state(.inprogress, home: 999, version: 2),
                .scoreCorrected(homeScore: 999, awayScore: 999)
            ),
            (
                state(.inprogress, home: 999, version: 1), state(.suspended, home: 999, version: 2),
                .statusChanged(.suspended)
            ),
            (
                state(.suspended, home: 999, version: 1), state(.postponed, home: 999, version: 2),
                .gameEnded(.postponed)
            ),
            (
                state(.suspended, home: 999, version: 1), state(.inprogress, home: 999, version: 2),
                .statusChanged(.inprogress)
            ),
        ]
        for (previous, next, event) in cases {
            var target = PushTarget.liveActivity(
                ActivityThrottle(registeredAt: previous.updatedAt.addingTimeInterval(-60), frequentUpdates: true))
            let command = try #require(
                planner.receive(
                    GameChange(previous: previous, next: next, event: event), for: &target, at: next.updatedAt
                )
                .last)
            #expect(command.payload.utf8.count <= 4096)
            #expect(command.payload.utf8.count < 400, "\(command.payload.utf8.count) bytes: \(command.payload)")
        }
    }
}
