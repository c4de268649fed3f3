import Foundation
import ScoreDomain
import Testing

@Suite("FeedParser: valid messages")
struct FeedParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var event: ScoreEvent
        var testDescription: String { name }
    }

    static let head = #""id":"m1","gameId":"g1","at":"2019-04-01T20:00:00Z""#

    @Test(arguments: [
        Case(
            name: "game.scheduled",
            json: #"{"# + head + #","type":"game.scheduled","home":{"code":"BOS","name":"Boston Red Sox","#
                + #""logo":"https://example.com/logos/bos.png"},"away":{"code":"NYY","name":"New York Yankees","#
                + #""logo":"https://example.com/logos/nyy.png"},"startsAt":"2019-04-01T19:05:00Z"}"#,
            event: .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt)),
        Case(
            name: "game.scheduled with empty logo and escapes in the name",
            json: #"{"# + head + #","type":"game.scheduled","home":{"code":"TEX","name":"Texas Rangers","logo":""},"#
                + #""away":{"code":"a1","name":"The \"A\" Team \u00e9\ud83d\ude00 \/","logo":"x"},"#
                + #""startsAt":"2019-04-01T15:05:00-04:00"}"#,
            event: .gameScheduled(
                home: T.tex, away: Team(code: "a1", name: "The \"A\" Team é😀 /", logo: "x"), startsAt: T.startsAt)),
        Case(name: "game.started", json: #"{"# + head + #","type":"game.started"}"#, event: .gameStarted),
        Case(
            name: "inning.changed top", json: #"{"# + head + #","type":"inning.changed","inning":4,"half":"top"}"#,
            event: .inningChanged(inning: 4, half: .top)),
        Case(
            name: "inning.changed 99 bottom",
            json: #"{"# + head + #","type":"inning.changed","inning":99,"half":"bottom"}"#,
            event: .inningChanged(inning: 99, half: .bottom)),
        Case(
            name: "run.scored defaults to 1 run", json: #"{"# + head + #","type":"run.scored","team":"home"}"#,
            event: .runScored(team: .home, runs: 1)),
        Case(
            name: "run.scored grand slam", json: #"{"# + head + #","type":"run.scored","team":"away","runs":4}"#,
            event: .runScored(team: .away, runs: 4)),
        Case(
            name: "out.recorded defaults to 1 out", json: #"{"# + head + #","type":"out.recorded"}"#,
            event: .outRecorded(outs: 1)),
        Case(
            name: "out.recorded triple play", json: #"{"# + head + #","type":"out.recorded","outs":3}"#,
            event: .outRecorded(outs: 3)),
        Case(
            name: "score.corrected bounds",
            json: #"{"# + head + #","type":"score.corrected","homeScore":0,"awayScore":999}"#,
            event: .scoreCorrected(homeScore: 0, awayScore: 999)),
        Case(
            name: "status.changed delayed", json: #"{"# + head + #","type":"status.changed","status":"delayed"}"#,
            event: .statusChanged(.delayed)),
        Case(
            name: "status.changed inprogress",
            json: #"{"# + head + #","type":"status.changed","status":"inprogress"}"#,
            event: .statusChanged(.inprogress)),
        Case(
            name: "status.changed suspended",
            json: #"{"# + head + #","type":"status.changed","status":"suspended"}"#,
            event: .statusChanged(.suspended)),
        Case(
            name: "game.ended closed", json: #"{"# + head + #","type":"game.ended","status":"closed"}"#,
            event: .gameEnded(.closed)),
        Case(
            name: "game.ended cancelled", json: #"{"# + head + #","type":"game.ended","status":"cancelled"}"#,
            event: .gameEnded(.cancelled)),
        Case(
            name: "game.ended postponed", json: #"{"# + head + #","type":"game.ended","status":"postponed"}"#,
            event: .gameEnded(.postponed)),
        Case(
            name: "unknown keys ignored, any key order, whitespace",
            json:
                " {\"type\" : \"run.scored\", \"team\":\"home\",\t\"runs\": 2, \"extra\": {\"a\": [1, 2.5, null, true]},"
                + " \"id\":\"m1\", \"at\":\"2019-04-01T20:00:00Z\", \"gameId\":\"g1\"}\r\n",
            event: .runScored(team: .home, runs: 2)),
        Case(
            name: "UTF-8 byte order mark", json: "\u{FEFF}{" + head + #","type":"game.started"}"#,
            event: .gameStarted),
    ])
    func parses(_ testCase: Case) throws {
        let expected = FeedMessage(id: "m1", gameId: "g1", at: T.messageAt, event: testCase.event)
        #expect(try FeedParser.parse(testCase.json) == expected)
        #expect(try FeedParser.parse(Data(testCase.json.utf8), line: 3) == expected)
    }

    @Test("id and gameId at their length and alphabet limits")
    func identifierLimits() throws {
        let id = String(repeating: "é", count: 200)
        let gameId = "A-z_0." + String(repeating: "9", count: 58)
        let json =
            #"{"id":""# + id + #"","gameId":""# + gameId + #"","at":"2019-04-01T20:00:00Z","type":"game.started"}"#
        let message = try FeedParser.parse(json)
        #expect(message.id.unicodeScalars.count == 200)
        #expect(message.gameId == gameId)
    }

    @Test("team fields at their limits")
    func teamLimits() throws {
        let name = String(repeating: "n", count: 64)
        let logo = String(repeating: "l", count: 512)
        let team = #"{"code":"Ab3De6Gh","name":""# + name + #"","logo":""# + logo + #""}"#
        let json =
            #"{"id":"m","gameId":"g","at":"2019-04-01T20:00:00Z","type":"game.scheduled","home":"# + team
            + #","away":"# + team + #","startsAt":"2019-04-01T19:05:00Z"}"#
        let message = try FeedParser.parse(json)
        #expect(
            message.event
                == .gameScheduled(
                    home: Team(code: "Ab3De6Gh", name: name, logo: logo),
                    away: Team(code: "Ab3De6Gh", name: name, logo: logo),
                    startsAt: T.startsAt))
    }

    @Test("JSON Lines: blank lines skipped, CRLF accepted, line numbers kept")
    func parsesLines() throws {
        let text =
            #"{"id":"a","gameId":"g1","at":"2019-04-01T20:00:00Z","type":"game.started"}"# + "\r\n"
            + "\n   \n"
            + #"{"id":"b","gameId":"g1","at":"2019-04-01T20:00:00Z","type":"out.recorded","outs":4}"# + "\n"
            + #"{"id":"c","gameId":"g1","at":"2019-04-01T20:00:00Z","type":"out.recorded"}"#
        let results = FeedParser.parseLines(Data(text.utf8))
        #expect(results.map(\.line) == [1, 4, 5])
        #expect(try results[0].result.get() == FeedMessage(id: "a", gameId: "g1", at: T.messageAt, event: .gameStarted))
        #expect(
            results[1].result
                == .failure(
                    FeedError(
                        line: 4, field: "outs", reason: "must be an integer between 1 and 3", code: "invalid-field",
                        messageId: "b")))
        #expect(
            try results[2].result.get()
                == FeedMessage(id: "c", gameId: "g1", at: T.messageAt, event: .outRecorded(outs: 1)))
    }
}
