import Foundation
import ScoreDomain
import Testing

@Suite("FeedParser: rejected messages")
struct FeedParserErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var json: String
        var description: String
        var code: String
        var testDescription: String { json.count > 90 ? String(json.prefix(87)) + "..." : json }
    }

    static func check(_ testCase: Case) {
        do throws(FeedError) {
            _ = try FeedParser.parse(testCase.json, line: 12)
            Issue.record("accepted \(testCase.json)")
        } catch {
            #expect(error.description == testCase.description)
            #expect(error.code == testCase.code)
            #expect(error.line == 12)
        }
    }

    /// A valid header; `m(…)` appends the type-specific members.
    static func m(_ rest: String) -> String {
        #"{"id":"m1","gameId":"g1","at":"2019-04-01T20:00:00Z","# + rest + "}"
    }

    static let team = #"{"code":"BOS","name":"Boston Red Sox","logo":""}"#
    static func scheduled(home: String = team, away: String = team, startsAt: String = #""2019-04-01T19:05:00Z""#)
        -> String
    {
        m(#""type":"game.scheduled","home":"# + home + #","away":"# + away + #","startsAt":"# + startsAt)
    }

    @Test(
        "envelope: not JSON, not an object, id, gameId, at, type",
        arguments: [
            Case(
                json: "", description: "line 12: invalid JSON: unexpected end of input at column 1",
                code: "invalid-json"),
            Case(json: "hello", description: "line 12: invalid JSON: unexpected 'h' at column 1", code: "invalid-json"),
            Case(
                json: "[1]", description: "line 12: a message must be a JSON object, found an array",
                code: "not-an-object"),
            Case(
                json: "null", description: "line 12: a message must be a JSON object, found null", code: "not-an-object"
            ),
            Case(
                json: "42", description: "line 12: a message must be a JSON object, found a number",
                code: "not-an-object"),
            Case(
                json: #"{"gameId":"g1","at":"2019-04-01T20:00:00Z","type":"game.started"}"#,
                description: #"line 12: field "id": is required"#, code: "missing-field"),
            Case(
                json: #"{"id":"","gameId":"g1","at":"2019-04-01T20:00:00Z","type":"game.started"}"#,
                description: #"line 12: field "id": must be a string of 1 to 200 characters"#, code: "invalid-field"),
            Case(
                json: #"{"id":""# + String(repeating: "x", count: 201) + #"","gameId":"g1","type":"game.started"}"#,
                description: #"line 12: field "id": must be a string of 1 to 200 characters"#, code: "invalid-field"),
            Case(
                json: #"{"id":7,"gameId":"g1","at":"2019-04-01T20:00:00Z","type":"game.started"}"#,
                description: #"line 12: field "id": must be a string of 1 to 200 characters"#, code: "invalid-field"),
            Case(
                json: #"{"id":"m1","at":"2019-04-01T20:00:00Z","type":"game.started"}"#,
                description: #"line 12: field "gameId": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: #"{"id":"m1","gameId":"g 1","at":"2019-04-01T20:00:00Z","type":"game.started"}"#,
                description:
                    #"line 12: field "gameId": must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-' (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":"g/1","at":"2019-04-01T20:00:00Z","type":"game.started"}"#,
                description:
                    #"line 12: field "gameId": must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-' (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":""# + String(repeating: "g", count: 65) + #"","type":"game.started"}"#,
                description:
                    #"line 12: field "gameId": must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-' (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":"g1","type":"game.started"}"#,
                description: #"line 12: field "at": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: #"{"id":"m1","gameId":"g1","at":1554148800,"type":"game.started"}"#,
                description:
                    #"line 12: field "at": must be an RFC 3339 timestamp like 2026-04-01T19:05:00Z (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":"g1","at":"2026-02-30T19:05:00Z","type":"game.started"}"#,
                description:
                    #"line 12: field "at": must be an RFC 3339 timestamp like 2026-04-01T19:05:00Z (day 30 does not exist in 2026-02) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: m(#""kind":"game.started""#), description: #"line 12: field "type": is required (message "m1")"#,
                code: "missing-field"),
            Case(
                json: m(#""type":3"#),
                description: #"line 12: field "type": must be a string such as "run.scored" (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: m(#""type":"run.scord","team":"home""#),
                description:
                    #"line 12: field "type": unknown message type "run.scord" (known: game.scheduled, game.started, inning.changed, run.scored, out.recorded, bases.changed, score.corrected, status.changed, game.ended, period.started, period.ended, clock.set, clock.started, clock.stopped, points.scored, shootout.attempt, card.shown, situation.changed, event.retracted) (message "m1")"#,
                code: "unknown-type"),
            Case(
                json: #"{"id":"","gameId":"g 1","at":"x","type":"run.scored","runs":true}"#,
                description: #"line 12: field "id": must be a string of 1 to 200 characters"#, code: "invalid-field"),
        ])
    func envelope(_ testCase: Case) { Self.check(testCase) }

    @Test(
        "game.scheduled fields",
        arguments: [
            Case(
                json: m(#""type":"game.scheduled","away":{},"startsAt":"2019-04-01T19:05:00Z""#),
                description: #"line 12: field "home": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: scheduled(home: #""BOS""#),
                description: #"line 12: field "home": must be an object with code, name and logo (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(home: #"{"name":"Boston Red Sox","logo":""}"#),
                description: #"line 12: field "home.code": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: scheduled(home: #"{"code":"ABCDEFGHI","name":"x","logo":""}"#),
                description:
                    #"line 12: field "home.code": must be 1 to 8 letters or digits (A-Z, a-z, 0-9) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(home: #"{"code":"B-S","name":"x","logo":""}"#),
                description:
                    #"line 12: field "home.code": must be 1 to 8 letters or digits (A-Z, a-z, 0-9) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(home: #"{"code":"BÖS","name":"x","logo":""}"#),
                description:
                    #"line 12: field "home.code": must be 1 to 8 letters or digits (A-Z, a-z, 0-9) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(home: #"{"code":"","name":"x","logo":""}"#),
                description:
                    #"line 12: field "home.code": must be 1 to 8 letters or digits (A-Z, a-z, 0-9) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(home: #"{"code":"BOS","name":"","logo":""}"#),
                description: #"line 12: field "home.name": must be a string of 1 to 64 characters (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(
                    home: #"{"code":"BOS","name":""# + String(repeating: "n", count: 65) + #"","logo":""}"#),
                description: #"line 12: field "home.name": must be a string of 1 to 64 characters (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(home: #"{"code":"BOS","name":"Boston Red Sox"}"#),
                description: #"line 12: field "home.logo": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: scheduled(home: #"{"code":"BOS","name":"Boston Red Sox","logo":null}"#),
                description: #"line 12: field "home.logo": must be a string of at most 512 characters (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(
                    home: #"{"code":"BOS","name":"x","logo":""# + String(repeating: "l", count: 513) + #""}"#),
                description: #"line 12: field "home.logo": must be a string of at most 512 characters (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(away: #"{"code":"NY Y","name":"x","logo":""}"#),
                description:
                    #"line 12: field "away.code": must be 1 to 8 letters or digits (A-Z, a-z, 0-9) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(home: #"{"code":"","name":"x","logo":""}"#, away: #"{"code":"","name":"x","logo":""}"#),
                description:
                    #"line 12: field "home.code": must be 1 to 8 letters or digits (A-Z, a-z, 0-9) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(startsAt: #""2019-04-01T19:05:00""#),
                description:
                    #"line 12: field "startsAt": must be an RFC 3339 timestamp like 2026-04-01T19:05:00Z (expected YYYY-MM-DDThh:mm:ss with Z or an offset like -04:00) (message "m1")"#,
                code: "invalid-field"),
        ])
    func gameScheduled(_ testCase: Case) { Self.check(testCase) }

    static let inning = #"line 12: field "inning": must be an integer between 1 and 99 (message "m1")"#
    static let half = #"line 12: field "half": must be "top" or "bottom" (message "m1")"#
    static let runs = #"line 12: field "runs": must be an integer between 1 and 4 (message "m1")"#
    static let outs = #"line 12: field "outs": must be an integer between 1 and 3 (message "m1")"#
    static let homeScore = #"line 12: field "homeScore": must be an integer between 0 and 999 (message "m1")"#
    static let awayScore = #"line 12: field "awayScore": must be an integer between 0 and 999 (message "m1")"#

    @Test(
        "integers: booleans, fractions, strings and null are not integers; ranges are inclusive",
        arguments: [
            Case(
                json: m(#""type":"inning.changed","half":"top""#),
                description: #"line 12: field "inning": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: m(#""type":"inning.changed","inning":0,"half":"top""#), description: inning, code: "invalid-field"
            ),
            Case(
                json: m(#""type":"inning.changed","inning":100,"half":"top""#), description: inning,
                code: "invalid-field"),
            Case(
                json: m(#""type":"inning.changed","inning":-1,"half":"top""#), description: inning,
                code: "invalid-field"),
            Case(
                json: m(#""type":"inning.changed","inning":"4","half":"top""#), description: inning,
                code: "invalid-field"),
            Case(
                json: m(#""type":"inning.changed","inning":4.0,"half":"top""#), description: inning,
                code: "invalid-field"),
            Case(
                json: m(#""type":"inning.changed","inning":4e0,"half":"top""#), description: inning,
                code: "invalid-field"),
            Case(
                json: m(#""type":"inning.changed","inning":true,"half":"top""#), description: inning,
                code: "invalid-field"),
            Case(
                json: m(#""type":"inning.changed","inning":4"#),
                description: #"line 12: field "half": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: m(#""type":"inning.changed","inning":4,"half":"middle""#), description: half,
                code: "invalid-field"),
            Case(
                json: m(#""type":"inning.changed","inning":4,"half":"Top""#), description: half, code: "invalid-field"),
            Case(json: m(#""type":"inning.changed","inning":4,"half":0"#), description: half, code: "invalid-field"),
            Case(json: m(#""type":"run.scored","team":"home","runs":true"#), description: runs, code: "invalid-field"),
            Case(json: m(#""type":"run.scored","team":"home","runs":false"#), description: runs, code: "invalid-field"),
            Case(json: m(#""type":"run.scored","team":"home","runs":1.5"#), description: runs, code: "invalid-field"),
            Case(json: m(#""type":"run.scored","team":"home","runs":"1""#), description: runs, code: "invalid-field"),
            Case(json: m(#""type":"run.scored","team":"home","runs":null"#), description: runs, code: "invalid-field"),
            Case(json: m(#""type":"run.scored","team":"home","runs":0"#), description: runs, code: "invalid-field"),
            Case(json: m(#""type":"run.scored","team":"home","runs":5"#), description: runs, code: "invalid-field"),
            Case(
                json: m(#""type":"run.scored","team":"home","runs":99999999999999999999"#), description: runs,
                code: "invalid-field"),
            Case(
                json: m(#""type":"run.scored","runs":1"#),
                description: #"line 12: field "team": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: m(#""type":"run.scored","team":"visitor""#),
                description: #"line 12: field "team": must be "home" or "away" (message "m1")"#, code: "invalid-field"),
            Case(json: m(#""type":"out.recorded","outs":0"#), description: outs, code: "invalid-field"),
            Case(json: m(#""type":"out.recorded","outs":4"#), description: outs, code: "invalid-field"),
            Case(json: m(#""type":"out.recorded","outs":true"#), description: outs, code: "invalid-field"),
            Case(json: m(#""type":"out.recorded","outs":[1]"#), description: outs, code: "invalid-field"),
            Case(
                json: m(#""type":"score.corrected","awayScore":1"#),
                description: #"line 12: field "homeScore": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: m(#""type":"score.corrected","homeScore":1"#),
                description: #"line 12: field "awayScore": is required (message "m1")"#, code: "missing-field"),
            Case(
                json: m(#""type":"score.corrected","homeScore":-1,"awayScore":0"#), description: homeScore,
                code: "invalid-field"),
            Case(
                json: m(#""type":"score.corrected","homeScore":1000,"awayScore":0"#), description: homeScore,
                code: "invalid-field"),
            Case(
                json: m(#""type":"score.corrected","homeScore":0,"awayScore":1e3"#), description: awayScore,
                code: "invalid-field"),
        ])
    func integers(_ testCase: Case) { Self.check(testCase) }

    static let interim = #"line 12: field "status": must be "inprogress", "delayed" or "suspended" (message "m1")"#
    static let final = #"line 12: field "status": must be "closed", "cancelled" or "postponed" (message "m1")"#

    @Test(
        "statuses: each message type takes only its own subset",
        arguments: [
            Case(
                json: m(#""type":"status.changed""#),
                description: #"line 12: field "status": is required (message "m1")"#, code: "missing-field"),
            Case(json: m(#""type":"status.changed","status":"closed""#), description: interim, code: "invalid-field"),
            Case(
                json: m(#""type":"status.changed","status":"scheduled""#), description: interim, code: "invalid-field"),
            Case(json: m(#""type":"status.changed","status":"Delayed""#), description: interim, code: "invalid-field"),
            Case(json: m(#""type":"game.ended","status":"delayed""#), description: final, code: "invalid-field"),
            Case(json: m(#""type":"game.ended","status":"inprogress""#), description: final, code: "invalid-field"),
            Case(json: m(#""type":"game.ended","status":"canceled""#), description: final, code: "invalid-field"),
            Case(
                json: m(#""type":"game.ended""#), description: #"line 12: field "status": is required (message "m1")"#,
                code: "missing-field"),
        ])
    func statuses(_ testCase: Case) { Self.check(testCase) }

    @Test(
        "invalid JSON is reported with a column",
        arguments: [
            Case(
                json: "{",
                description: "line 12: invalid JSON: expected a string key but found end of input at column 2",
                code: "invalid-json"),
            Case(
                json: #"{"id":"a",}"#,
                description: "line 12: invalid JSON: expected a string key but found '}' at column 11",
                code: "invalid-json"),
            Case(
                json: #"{'id':1}"#,
                description: "line 12: invalid JSON: expected a string key but found ''' at column 2",
                code: "invalid-json"),
            Case(
                json: #"{"id" 1}"#, description: "line 12: invalid JSON: expected ':' but found '1' at column 7",
                code: "invalid-json"),
            Case(
                json: #"{"a":1 "b":2}"#,
                description: "line 12: invalid JSON: expected ',' or '}' but found '\"' at column 8",
                code: "invalid-json"),
            Case(
                json: #"{"a":[1,]}"#, description: "line 12: invalid JSON: unexpected ']' at column 9",
                code: "invalid-json"),
            Case(
                json: #"{"a":[1 2]}"#,
                description: "line 12: invalid JSON: expected ',' or ']' but found '2' at column 9",
                code: "invalid-json"),
            Case(
                json: #"{"a":1}{"#,
                description: "line 12: invalid JSON: unexpected '{' after the JSON value at column 8",
                code: "invalid-json"),
            Case(
                json: #"{"a":01}"#,
                description: "line 12: invalid JSON: leading zeros are not allowed in numbers at column 7",
                code: "invalid-json"),
            Case(
                json: #"{"a":1.}"#, description: "line 12: invalid JSON: expected a digit after '.' at column 8",
                code: "invalid-json"),
            Case(
                json: #"{"a":-}"#, description: "line 12: invalid JSON: expected a digit but found '}' at column 7",
                code: "invalid-json"),
            Case(
                json: #"{"a":1e}"#, description: "line 12: invalid JSON: expected a digit in the exponent at column 8",
                code: "invalid-json"),
            Case(
                json: #"{"a":+1}"#, description: "line 12: invalid JSON: unexpected '+' at column 6",
                code: "invalid-json"),
            Case(
                json: #"{"a":1e999}"#, description: "line 12: invalid JSON: number 1e999 is out of range at column 6",
                code: "invalid-json"),
            Case(
                json: #"{"a":tru}"#, description: "line 12: invalid JSON: invalid literal, expected true at column 6",
                code: "invalid-json"),
            Case(
                json: #"{"a":nul}"#, description: "line 12: invalid JSON: invalid literal, expected null at column 6",
                code: "invalid-json"),
            Case(
                json: #"{"a":"x}"#, description: "line 12: invalid JSON: unterminated string at column 6",
                code: "invalid-json"),
            Case(
                json: #"{"a":"\x"}"#, description: #"line 12: invalid JSON: invalid escape sequence \'x' at column 8"#,
                code: "invalid-json"),
            Case(
                json: #"{"a":"\u12"}"#,
                description: #"line 12: invalid JSON: expected 4 hex digits after \u at column 11"#,
                code: "invalid-json"),
            Case(
                json: #"{"a":"\ud800"}"#, description: #"line 12: invalid JSON: lone surrogate \uD800 at column 7"#,
                code: "invalid-json"),
            Case(
                json: #"{"a":"\ud800\u0041"}"#,
                description: #"line 12: invalid JSON: lone surrogate \uD800 at column 7"#, code: "invalid-json"),
            Case(
                json: #"{"a":"\udc00"}"#, description: #"line 12: invalid JSON: lone surrogate \uDC00 at column 7"#,
                code: "invalid-json"),
            Case(
                json: "{\"a\":\"tab\there\"}",
                description: "line 12: invalid JSON: control character U+0009 must be escaped in a string at column 10",
                code: "invalid-json"),
            Case(
                json: #"{"id":"a","id":"b"}"#, description: #"line 12: invalid JSON: duplicate key "id" at column 11"#,
                code: "invalid-json"),
            Case(
                json: String(repeating: "[", count: 33) + String(repeating: "]", count: 33),
                description: "line 12: invalid JSON: nesting deeper than 32 levels at column 33", code: "invalid-json"),
        ])
    func invalidJSON(_ testCase: Case) { Self.check(testCase) }

    @Test(
        "invalid UTF-8 inside a string is rejected, not replaced",
        arguments: [
            [0xC3, 0x28],  // broken 2-byte sequence
            [0xC0, 0xAF],  // overlong "/"
            [0xED, 0xA0, 0x80],  // UTF-16 surrogate encoded in UTF-8
            [0xE2, 0x80],  // truncated en dash
            [0xFF],
        ] as [[UInt8]])
    func invalidUTF8(_ bad: [UInt8]) {
        var bytes = Array(#"{"id":"m"#.utf8)
        bytes += bad
        bytes += Array(#"","gameId":"g1","at":"2019-04-01T20:00:00Z","type":"game.started"}"#.utf8)
        #expect(
            throws: FeedError(
                line: 2, reason: "invalid JSON: string is not valid UTF-8 at column 7", code: "invalid-json")
        ) {
            try FeedParser.parse(Data(bytes), line: 2)
        }
    }

    @Test(
        "what PostgreSQL cannot store is refused at parse time: NUL in any string, dates outside 1850-2200",
        arguments: [
            Case(
                json: #"{"id":"m\u00001","gameId":"g1","at":"2019-04-01T20:00:00Z","type":"game.started"}"#,
                description: #"line 12: field "id": must not contain NUL (\u0000)"#, code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":"g\u0000","at":"2019-04-01T20:00:00Z","type":"game.started"}"#,
                description: #"line 12: field "gameId": must not contain NUL (\u0000) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(home: #"{"code":"BOS","name":"Boston\u0000","logo":""}"#),
                description: #"line 12: field "home.name": must not contain NUL (\u0000) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(away: #"{"code":"BOS","name":"Boston","logo":"https://x/\u0000.png"}"#),
                description: #"line 12: field "away.logo": must not contain NUL (\u0000) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":"g1","at":"0000-01-01T00:00:00+23:59","type":"game.started"}"#,
                description: #"line 12: field "at": must be between 1850-01-01 and 2200-12-31 (UTC) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":"g1","at":"9999-12-31T23:59:59-23:59","type":"game.started"}"#,
                description: #"line 12: field "at": must be between 1850-01-01 and 2200-12-31 (UTC) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":"g1","at":"1850-01-01T00:00:00+00:01","type":"game.started"}"#,
                description: #"line 12: field "at": must be between 1850-01-01 and 2200-12-31 (UTC) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: #"{"id":"m1","gameId":"g1","at":"2200-12-31T23:59:59.999-00:01","type":"game.started"}"#,
                description: #"line 12: field "at": must be between 1850-01-01 and 2200-12-31 (UTC) (message "m1")"#,
                code: "invalid-field"),
            Case(
                json: scheduled(startsAt: #""0001-01-01T00:00:00Z""#),
                description:
                    #"line 12: field "startsAt": must be between 1850-01-01 and 2200-12-31 (UTC) (message "m1")"#,
                code: "invalid-field"),
        ])
    func storable(_ testCase: Case) { Self.check(testCase) }

    @Test("the date limits keep historical games: 1850-01-01 to 2200-12-31 inclusive, in UTC")
    func dateLimits() throws {
        for at in ["1850-01-01T00:00:00Z", "1871-05-04T15:00:00-05:00", "2200-12-31T23:59:59.999Z"] {
            let message = try FeedParser.parse(
                #"{"id":"m1","gameId":"g1","at":"\#(at)","type":"game.started"}"#)
            #expect(parseRFC3339(at) == message.at)
        }
    }

    @Test("an event the log stored before the date limits stays readable")
    func storedDates() throws {
        let stored = Self.scheduled(startsAt: #""0001-01-01T00:00:00Z""#)
        let message = try FeedParser.parse(stored: stored)
        #expect(rfc3339(message.at) == "2019-04-01T20:00:00Z")
        guard case .gameScheduled(_, _, let startsAt, _) = message.event else {
            Issue.record("not a game.scheduled: \(message.event)")
            return
        }
        #expect(rfc3339(startsAt) == "0001-01-01T00:00:00Z")
    }

    @Test("the error value carries line, dotted field, reason, code and message id")
    func errorValue() {
        let json = Self.scheduled(away: #"{"code":"NY-Y","name":"x","logo":""}"#)
        #expect(
            throws: FeedError(
                line: 7, field: "away.code", reason: "must be 1 to 8 letters or digits (A-Z, a-z, 0-9)",
                code: "invalid-field", messageId: "m1")
        ) { try FeedParser.parse(json, line: 7) }
        #expect(
            FeedError(field: "runs", reason: "must be an integer between 1 and 4", code: "invalid-field").description
                == #"field "runs": must be an integer between 1 and 4"#)
    }
}
