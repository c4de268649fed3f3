import Foundation
import ScoreDomain
import Testing

@Suite("Canonical JSON of messages")
struct CanonicalJSONTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var message: FeedMessage
        var json: String
        var testDescription: String { message.event.type }
    }

    @Test(
        "every type: exact bytes, and parse reads them back to an equal message",
        arguments: [
            Case(
                message: T.message(
                    .gameScheduled(home: T.bos, away: T.tex, startsAt: T.date("2019-04-01T19:05:00.5Z"))),
                json:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"TEX","logo":"","name":"Texas Rangers"},"gameId":"g1","#
                    + #""home":{"code":"BOS","logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"#
                    + #""id":"m1","startsAt":"2019-04-01T19:05:00.500Z","type":"game.scheduled"}"#),
            Case(
                message: T.message(.gameStarted),
                json: #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","type":"game.started"}"#),
            Case(
                message: T.message(.inningChanged(inning: 11, half: .bottom)),
                json:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","half":"bottom","id":"m1","inning":11,"type":"inning.changed"}"#
            ),
            Case(
                message: T.message(.runScored(team: .home, runs: 1)),
                json:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","runs":1,"team":"home","type":"run.scored"}"#
            ),
            Case(
                message: T.message(.outRecorded(outs: 2)),
                json: #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","outs":2,"type":"out.recorded"}"#),
            Case(
                message: T.message(.scoreCorrected(homeScore: 3, awayScore: 0)),
                json:
                    #"{"at":"2019-04-01T20:00:00Z","awayScore":0,"gameId":"g1","homeScore":3,"id":"m1","type":"score.corrected"}"#
            ),
            Case(
                message: T.message(.statusChanged(.suspended)),
                json:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","status":"suspended","type":"status.changed"}"#
            ),
            Case(
                message: T.message(.gameEnded(.postponed)),
                json: #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","status":"postponed","type":"game.ended"}"#
            ),
        ])
    func roundTrip(_ testCase: Case) throws {
        let json = testCase.message.canonicalJSON()
        #expect(json == testCase.json)
        #expect(try FeedParser.parse(json) == testCase.message)
    }

    @Test("strings: quotes, backslashes and control characters escaped; slashes and non-ASCII verbatim")
    func escaping() throws {
        let team = Team(code: "X1", name: "Quote \" back \\ tab \t nl \n bell \u{07} – é 😀", logo: "https://a/b.png")
        let message = FeedMessage(
            id: "id/1", gameId: "g1", at: T.messageAt,
            event: .gameScheduled(home: team, away: team, startsAt: T.startsAt))
        let json = message.canonicalJSON()
        let teamJSON =
            #"{"code":"X1","logo":"https://a/b.png","name":"Quote \" back \\ tab \t nl \n bell \u0007 – é 😀"}"#
        #expect(
            json == #"{"at":"2019-04-01T20:00:00Z","away":"# + teamJSON + #","gameId":"g1","home":"# + teamJSON
                + #","id":"id/1","startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#)
        #expect(try FeedParser.parse(json) == message)
    }

    @Test("sub-millisecond input is stored to the millisecond, so the stored form is stable")
    func millisecondPrecision() throws {
        let parsed = try FeedParser.parse(
            #"{"id":"m1","gameId":"g1","at":"2019-04-01T20:00:00.123456Z","type":"game.started"}"#)
        let stored = parsed.canonicalJSON()
        #expect(stored == #"{"at":"2019-04-01T20:00:00.123Z","gameId":"g1","id":"m1","type":"game.started"}"#)
        #expect(try FeedParser.parse(stored) == parsed)
        #expect(try FeedParser.parse(stored).canonicalJSON() == stored)
    }
}
