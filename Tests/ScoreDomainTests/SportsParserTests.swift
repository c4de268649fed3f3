import Foundation
import ScoreDomain
import Testing

/// The clock sports' message types and `game.scheduled`'s sport and rules (docs/sports.md): what
/// parses, its exact canonical form (which parses back to an equal message), and what is refused.
@Suite("FeedParser: the clock sports")
struct SportsParserTests {
    struct Valid: Sendable, CustomTestStringConvertible {
        var name: String
        /// The members after the envelope `{"id":"m1","gameId":"g1","at":"2019-04-01T20:00:00Z",`.
        var json: String
        var event: ScoreEvent
        /// The exact canonical JSON.
        var canonical: String
        var testDescription: String { name }
    }

    static func m(_ rest: String) -> String { #"{"id":"m1","gameId":"g1","at":"2019-04-01T20:00:00Z","# + rest + "}" }

    static let teams =
        #""home":{"code":"BOS","name":"Boston Red Sox","logo":"https://example.com/logos/bos.png"},"#
        + #""away":{"code":"NYY","name":"New York Yankees","logo":"https://example.com/logos/nyy.png"},"#
        + #""startsAt":"2019-04-01T19:05:00Z""#

    static func setupEvent(_ sport: Sport, _ rules: GameRules) -> ScoreEvent {
        .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt, setup: GameSetup(sport: sport, rules: rules))
    }

    static func preset(_ name: String, _ change: (inout GameRules) -> Void = { _ in }) -> GameRules {
        var rules = GameRules.preset(name)!.rules
        change(&rules)
        return rules
    }

    @Test(
        "game.scheduled: sport, competition, rules; baseball's canonical form has none of them",
        arguments: [
            Valid(
                name: "baseball by default", json: #""type":"game.scheduled","# + teams,
                event: .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "baseball named, mlb named",
                json: #""type":"game.scheduled","sport":"baseball","#
                    + #""competition":"mlb","# + teams,
                event: .gameScheduled(home: T.bos, away: T.nyy, startsAt: T.startsAt),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "soccer: league-soccer by default", json: #""type":"game.scheduled","sport":"soccer","# + teams,
                event: setupEvent(.soccer, preset("league-soccer")),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"competition":"league-soccer","gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""rules":{"clockToleranceSeconds":2,"overtimeMinutes":0,"overtimes":0,"periodMinutes":45,"#
                    + #""periods":2,"shootout":false,"tieStands":true},"sport":"soccer","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "knockout soccer",
                json: #""type":"game.scheduled","sport":"soccer","#
                    + #""competition":"knockout-soccer","# + teams,
                event: setupEvent(.soccer, preset("knockout-soccer")),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"competition":"knockout-soccer","gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""rules":{"clockToleranceSeconds":2,"overtimeMinutes":15,"overtimes":2,"periodMinutes":45,"#
                    + #""periods":2,"shootout":true,"tieStands":false},"sport":"soccer","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "basketball: nba, unlimited overtime",
                json: #""type":"game.scheduled","sport":"basketball","#
                    + teams,
                event: setupEvent(.basketball, preset("nba")),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"competition":"nba","gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""rules":{"clockToleranceSeconds":2,"overtimeMinutes":5,"overtimes":"unlimited","#
                    + #""periodMinutes":12,"periods":4,"shootout":false,"tieStands":false},"sport":"basketball","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "hockey: nhl", json: #""type":"game.scheduled","sport":"hockey","competition":"nhl","# + teams,
                event: setupEvent(.hockey, preset("nhl")),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"competition":"nhl","gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""rules":{"clockToleranceSeconds":2,"overtimeMinutes":5,"overtimes":1,"periodMinutes":20,"#
                    + #""periods":3,"shootout":true,"tieStands":false},"sport":"hockey","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "football: ncaa-football, untimed overtime",
                json: #""type":"game.scheduled","sport":"football","competition":"ncaa-football","# + teams,
                event: setupEvent(.football, preset("ncaa-football")),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"competition":"ncaa-football","gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""rules":{"clockToleranceSeconds":2,"overtimeMinutes":0,"overtimes":"unlimited","#
                    + #""periodMinutes":15,"periods":4,"shootout":false,"tieStands":false},"sport":"football","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "every rule overridden at its bounds",
                json: #""type":"game.scheduled","sport":"hockey","competition":"nhl-playoffs","rules":{"periods":8,"#
                    + #""periodMinutes":1,"overtimes":20,"overtimeMinutes":0,"shootout":true,"tieStands":true,"#
                    + #""clockToleranceSeconds":60},"# + teams,
                event: setupEvent(
                    .hockey,
                    GameRules(
                        competition: "nhl-playoffs", periods: 8, periodMinutes: 1, overtimes: 20, overtimeMinutes: 0,
                        shootout: true, tieStands: true, clockToleranceMs: 60_000)),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"competition":"nhl-playoffs","gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""rules":{"clockToleranceSeconds":60,"overtimeMinutes":0,"overtimes":20,"periodMinutes":1,"#
                    + #""periods":8,"shootout":true,"tieStands":true},"sport":"hockey","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "overtimes unlimited, the other bounds",
                json: #""type":"game.scheduled","sport":"soccer","rules":{"periods":1,"periodMinutes":90,"#
                    + #""overtimes":"unlimited","overtimeMinutes":60,"clockToleranceSeconds":0},"# + teams,
                event: setupEvent(
                    .soccer,
                    preset("league-soccer") {
                        $0.periods = 1
                        $0.periodMinutes = 90
                        $0.overtimes = nil
                        $0.overtimeMinutes = 60
                        $0.clockToleranceMs = 0
                    }),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"competition":"league-soccer","gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""rules":{"clockToleranceSeconds":0,"overtimeMinutes":60,"overtimes":"unlimited","#
                    + #""periodMinutes":90,"periods":1,"shootout":false,"tieStands":true},"sport":"soccer","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
            Valid(
                name: "an empty rules object is the preset",
                json: #""type":"game.scheduled","sport":"basketball","competition":"ncaa-men","rules":{},"# + teams,
                event: setupEvent(.basketball, preset("ncaa-men")),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","#
                    + #""name":"New York Yankees"},"competition":"ncaa-men","gameId":"g1","home":{"code":"BOS","#
                    + #""logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"id":"m1","#
                    + #""rules":{"clockToleranceSeconds":2,"overtimeMinutes":5,"overtimes":"unlimited","#
                    + #""periodMinutes":20,"periods":2,"shootout":false,"tieStands":false},"sport":"basketball","#
                    + #""startsAt":"2019-04-01T19:05:00Z","type":"game.scheduled"}"#),
        ])
    func scheduled(_ row: Valid) throws { try Self.check(row) }

    @Test(
        "the ten clock-sport types",
        arguments: [
            Valid(
                name: "period.started", json: #""type":"period.started","period":2"#,
                event: .periodStarted(period: 2, kind: nil),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","period":2,"type":"period.started"}"#),
            Valid(
                name: "period.started with its kind", json: #""type":"period.started","period":99,"kind":"extraTime""#,
                event: .periodStarted(period: 99, kind: .extraTime),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","kind":"extraTime","period":99,"#
                    + #""type":"period.started"}"#),
            Valid(
                name: "period.started shoot-out", json: #""type":"period.started","period":5,"kind":"shootout""#,
                event: .periodStarted(period: 5, kind: .shootout),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","kind":"shootout","period":5,"#
                    + #""type":"period.started"}"#),
            Valid(
                name: "period.ended", json: #""type":"period.ended","period":1"#, event: .periodEnded(period: 1),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","period":1,"type":"period.ended"}"#),
            Valid(
                name: "clock.set", json: #""type":"clock.set","clock":"12:00""#, event: .clockSet(ms: 720_000),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","clock":"12:00","gameId":"g1","id":"m1","type":"clock.set"}"#),
            Valid(
                name: "clock.set with tenths", json: #""type":"clock.set","clock":"0:04.3""#,
                event: .clockSet(ms: 4_300),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","clock":"0:04.3","gameId":"g1","id":"m1","type":"clock.set"}"#),
            Valid(
                name: "clock.set largest", json: #""type":"clock.set","clock":"999:59.9""#,
                event: .clockSet(ms: 59_999_900),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","clock":"999:59.9","gameId":"g1","id":"m1","type":"clock.set"}"#),
            Valid(
                name: "clock.set leading zero and .0 are written short",
                json: #""type":"clock.set","clock":"093:12.0""#,
                event: .clockSet(ms: 5_592_000),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","clock":"93:12","gameId":"g1","id":"m1","type":"clock.set"}"#),
            Valid(
                name: "clock.started without a value", json: #""type":"clock.started""#,
                event: .clockStarted(ms: nil),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","type":"clock.started"}"#),
            Valid(
                name: "clock.started from a value", json: #""type":"clock.started","clock":"45:00""#,
                event: .clockStarted(ms: 2_700_000),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","clock":"45:00","gameId":"g1","id":"m1","type":"clock.started"}"#),
            Valid(
                name: "clock.stopped without a value", json: #""type":"clock.stopped""#,
                event: .clockStopped(ms: nil),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","type":"clock.stopped"}"#),
            Valid(
                name: "clock.stopped at a value", json: #""type":"clock.stopped","clock":"0:00""#,
                event: .clockStopped(ms: 0),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","clock":"0:00","gameId":"g1","id":"m1","type":"clock.stopped"}"#),
            Valid(
                name: "points.scored: points default to the kind's",
                json: #""type":"points.scored","team":"home","kind":"touchdown""#,
                event: .pointsScored(PointsScored(team: .home, points: 6, kind: .touchdown)),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","kind":"touchdown","points":6,"#
                    + #""team":"home","type":"points.scored"}"#),
            Valid(
                name: "points.scored with every field",
                json: #""type":"points.scored","team":"away","kind":"three","points":3,"player":"S. Curry","#
                    + #""clock":"4:32""#,
                event: .pointsScored(
                    PointsScored(team: .away, points: 3, kind: .three, player: "S. Curry", clockMs: 272_000)),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","clock":"4:32","gameId":"g1","id":"m1","kind":"three","#
                    + #""player":"S. Curry","points":3,"team":"away","type":"points.scored"}"#),
            Valid(
                name: "points.scored own goal",
                json: #""type":"points.scored","team":"away","kind":"ownGoal","points":1"#,
                event: .pointsScored(PointsScored(team: .away, points: 1, kind: .ownGoal)),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","kind":"ownGoal","points":1,"team":"away","#
                    + #""type":"points.scored"}"#),
            Valid(
                name: "points.scored safety", json: #""type":"points.scored","team":"home","kind":"safety""#,
                event: .pointsScored(PointsScored(team: .home, points: 2, kind: .safety)),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","kind":"safety","points":2,"team":"home","#
                    + #""type":"points.scored"}"#),
            Valid(
                name: "shootout.attempt missed", json: #""type":"shootout.attempt","team":"home","scored":false"#,
                event: .shootoutAttempt(team: .home, scored: false, player: nil),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","scored":false,"team":"home","#
                    + #""type":"shootout.attempt"}"#),
            Valid(
                name: "shootout.attempt scored by a player",
                json: #""type":"shootout.attempt","team":"away","scored":true,"player":"G. Montiel""#,
                event: .shootoutAttempt(team: .away, scored: true, player: "G. Montiel"),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","player":"G. Montiel","scored":true,"#
                    + #""team":"away","type":"shootout.attempt"}"#),
            Valid(
                name: "card.shown", json: #""type":"card.shown","team":"home","card":"yellow""#,
                event: .cardShown(team: .home, card: .yellow, player: nil, clockMs: nil),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","card":"yellow","gameId":"g1","id":"m1","team":"home","#
                    + #""type":"card.shown"}"#),
            Valid(
                name: "card.shown second yellow with player and clock",
                json: #""type":"card.shown","team":"away","card":"secondYellow","player":"X","clock":"47:12""#,
                event: .cardShown(team: .away, card: .secondYellow, player: "X", clockMs: 2_832_000),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","card":"secondYellow","clock":"47:12","gameId":"g1","id":"m1","#
                    + #""player":"X","team":"away","type":"card.shown"}"#),
            Valid(
                name: "situation.changed possession only", json: #""type":"situation.changed","possession":"away""#,
                event: .situationChanged(
                    Situation(possession: .away, down: nil, distance: nil, yardLine: nil), turnover: false,
                    clockMs: nil),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","possession":"away","turnover":false,"#
                    + #""type":"situation.changed"}"#),
            Valid(
                name: "situation.changed down, distance, yard line, turnover, clock",
                json: #""type":"situation.changed","possession":"home","down":3,"distance":7,"yardLine":65,"#
                    + #""turnover":true,"clock":"2:00""#,
                event: .situationChanged(
                    Situation(possession: .home, down: 3, distance: 7, yardLine: 65), turnover: true, clockMs: 120_000),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","clock":"2:00","distance":7,"down":3,"gameId":"g1","id":"m1","#
                    + #""possession":"home","turnover":true,"type":"situation.changed","yardLine":65}"#),
            Valid(
                name: "event.retracted", json: #""type":"event.retracted","retracts":"m31""#,
                event: .retracted(id: "m31", reason: nil),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","retracts":"m31","type":"event.retracted"}"#),
            Valid(
                name: "event.retracted with a reason, empty too",
                json: #""type":"event.retracted","retracts":"m31","reason":"""#,
                event: .retracted(id: "m31", reason: ""),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","reason":"","retracts":"m31","#
                    + #""type":"event.retracted"}"#),
            Valid(
                name: "event.retracted with a reason",
                json: #""type":"event.retracted","retracts":"m/31","reason":"VAR: offside""#,
                event: .retracted(id: "m/31", reason: "VAR: offside"),
                canonical:
                    #"{"at":"2019-04-01T20:00:00Z","gameId":"g1","id":"m1","reason":"VAR: offside","retracts":"m/31","#
                    + #""type":"event.retracted"}"#),
        ])
    func types(_ row: Valid) throws { try Self.check(row) }

    static func check(_ row: Valid) throws {
        let message = try FeedParser.parse(m(row.json))
        #expect(message == FeedMessage(id: "m1", gameId: "g1", at: T.messageAt, event: row.event))
        let canonical = message.canonicalJSON()
        #expect(canonical == row.canonical)
        #expect(try FeedParser.parse(canonical) == message)
    }

    @Test("every kind of every sport parses with its points and round-trips")
    func everyKind() throws {
        for sport in Sport.allCases {
            for kind in ScoringKind.scored(in: sport) {
                let message = try FeedParser.parse(
                    Self.m(#""type":"points.scored","team":"home","kind":""# + kind.rawValue + #"""#))
                #expect(message.event == .pointsScored(PointsScored(team: .home, points: kind.points, kind: kind)))
                #expect(try FeedParser.parse(message.canonicalJSON()) == message)
            }
        }
        #expect(
            Sport.allCases.map { ScoringKind.scored(in: $0).map { "\($0.rawValue) \($0.points)" } } == [
                [], ["goal 1", "penalty 1", "ownGoal 1"], ["freeThrow 1", "two 2", "three 3"], ["goal 1"],
                [
                    "touchdown 6", "extraPoint 1", "twoPointConversion 2", "fieldGoal 3", "safety 2",
                    "defensiveConversion 2",
                ],
            ])
    }

    @Test("every preset round-trips through the canonical form of game.scheduled")
    func everyPreset() throws {
        for (sport, rules) in GameRules.presets {
            let message = T.message(Self.setupEvent(sport, rules))
            #expect(try FeedParser.parse(message.canonicalJSON()) == message, "\(rules.competition)")
        }
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var json: String
        /// The description after `line 12: `, before ` (message "m1")`.
        var description: String
        var code = "invalid-field"
        var testDescription: String { json.count > 90 ? String(json.prefix(87)) + "..." : json }
    }

    static let clockRule = #"must be a clock like "12:00" or "0:04.3" (minutes 0-999, seconds 00-59)"#
    static let soccerCompetitions = #"must be a competition of soccer: "league-soccer", "knockout-soccer""#

    @Test(
        "bad fields are refused, naming the field",
        arguments: [
            // game.scheduled
            Invalid(
                json: #""type":"game.scheduled","sport":"cricket","# + teams,
                description: #"field "sport": must be "baseball", "soccer", "basketball", "hockey" or "football""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"Soccer","# + teams,
                description: #"field "sport": must be "baseball", "soccer", "basketball", "hockey" or "football""#),
            Invalid(
                json: #""type":"game.scheduled","sport":null,"# + teams,
                description: #"field "sport": must be "baseball", "soccer", "basketball", "hockey" or "football""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","competition":"premier-league","# + teams,
                description: #"field "competition": "# + soccerCompetitions),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","competition":"nhl","# + teams,
                description: #"field "competition": "# + soccerCompetitions),
            Invalid(
                json: #""type":"game.scheduled","competition":"nba","# + teams,
                description: #"field "competition": must be a competition of baseball: "mlb""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"hockey","competition":7,"# + teams,
                description: #"field "competition": must be a competition of hockey: "nhl", "nhl-playoffs""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"football","competition":""#
                    + String(repeating: "n", count: 40) + #"","# + teams,
                description: #"field "competition": must be a competition of football: "nfl", "nfl-playoffs", "#
                    + #""ncaa-football""#),
            Invalid(
                json: #""type":"game.scheduled","rules":{"periods":9},"# + teams,
                description: #"field "rules": baseball has no rules to override"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":[],"# + teams,
                description: #"field "rules": must be an object of rules (docs/sports.md)"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"periods":0},"# + teams,
                description: #"field "rules.periods": must be an integer between 1 and 8"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"periods":9},"# + teams,
                description: #"field "rules.periods": must be an integer between 1 and 8"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"periodMinutes":0},"# + teams,
                description: #"field "rules.periodMinutes": must be an integer between 1 and 90"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"periodMinutes":91},"# + teams,
                description: #"field "rules.periodMinutes": must be an integer between 1 and 90"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"overtimes":21},"# + teams,
                description: #"field "rules.overtimes": must be an integer between 0 and 20 or "unlimited""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"overtimes":-1},"# + teams,
                description: #"field "rules.overtimes": must be an integer between 0 and 20 or "unlimited""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"overtimes":"Unlimited"},"# + teams,
                description: #"field "rules.overtimes": must be an integer between 0 and 20 or "unlimited""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"overtimes":null},"# + teams,
                description: #"field "rules.overtimes": must be an integer between 0 and 20 or "unlimited""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"overtimes":2.0},"# + teams,
                description: #"field "rules.overtimes": must be an integer between 0 and 20 or "unlimited""#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"overtimeMinutes":61},"# + teams,
                description: #"field "rules.overtimeMinutes": must be an integer between 0 and 60"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"shootout":"yes"},"# + teams,
                description: #"field "rules.shootout": must be true or false"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"tieStands":1},"# + teams,
                description: #"field "rules.tieStands": must be true or false"#),
            Invalid(
                json: #""type":"game.scheduled","sport":"soccer","rules":{"clockToleranceSeconds":61},"# + teams,
                description: #"field "rules.clockToleranceSeconds": must be an integer between 0 and 60"#),
            // period.started / period.ended
            Invalid(
                json: #""type":"period.started""#, description: #"field "period": is required"#,
                code: "missing-field"),
            Invalid(
                json: #""type":"period.started","period":0"#,
                description: #"field "period": must be an integer between 1 and 99"#),
            Invalid(
                json: #""type":"period.started","period":100"#,
                description: #"field "period": must be an integer between 1 and 99"#),
            Invalid(
                json: #""type":"period.started","period":"2""#,
                description: #"field "period": must be an integer between 1 and 99"#),
            Invalid(
                json: #""type":"period.started","period":5,"kind":"penalties""#,
                description: #"field "kind": must be "regulation", "overtime", "extraTime" or "shootout""#),
            Invalid(
                json: #""type":"period.started","period":5,"kind":null"#,
                description: #"field "kind": must be "regulation", "overtime", "extraTime" or "shootout""#),
            Invalid(
                json: #""type":"period.ended","period":-1"#,
                description: #"field "period": must be an integer between 1 and 99"#),
            Invalid(
                json: #""type":"period.ended""#, description: #"field "period": is required"#, code: "missing-field"),
            // clocks
            Invalid(json: #""type":"clock.set""#, description: #"field "clock": is required"#, code: "missing-field"),
            Invalid(json: #""type":"clock.set","clock":"1:60""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"12""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"-1:00""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"1:5""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"1000:00""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"1:00.""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"1:00.25""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":":30""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"1:00:00""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"+1:00""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":"١:00""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.set","clock":720"#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.started","clock":"""#, description: #"field "clock": "# + clockRule),
            Invalid(json: #""type":"clock.stopped","clock":null"#, description: #"field "clock": "# + clockRule),
            // points.scored
            Invalid(
                json: #""type":"points.scored","team":"home","kind":"three","points":4"#,
                description: #"field "points": a three is worth 3, not 4"#),
            Invalid(
                json: #""type":"points.scored","team":"home","kind":"touchdown","points":7"#,
                description: #"field "points": must be an integer between 1 and 6"#),
            Invalid(
                json: #""type":"points.scored","team":"home","kind":"goal","points":2"#,
                description: #"field "points": a goal is worth 1, not 2"#),
            Invalid(
                json: #""type":"points.scored","team":"home","kind":"four""#,
                description: #"field "kind": must be "goal", "penalty", "ownGoal", "freeThrow", "two", "three", "#
                    + #""touchdown", "extraPoint", "twoPointConversion", "fieldGoal", "safety" or "defensiveConversion""#
            ),
            Invalid(
                json: #""type":"points.scored","team":"home","kind":"run""#,
                description: #"field "kind": must be "goal", "penalty", "ownGoal", "freeThrow", "two", "three", "#
                    + #""touchdown", "extraPoint", "twoPointConversion", "fieldGoal", "safety" or "defensiveConversion""#
            ),
            Invalid(
                json: #""type":"points.scored","team":"home""#, description: #"field "kind": is required"#,
                code: "missing-field"),
            Invalid(
                json: #""type":"points.scored","kind":"goal""#, description: #"field "team": is required"#,
                code: "missing-field"),
            Invalid(
                json: #""type":"points.scored","team":"visitors","kind":"goal""#,
                description: #"field "team": must be "home" or "away""#),
            Invalid(
                json: #""type":"points.scored","team":"home","kind":"goal","player":"""#,
                description: #"field "player": must be a string of 1 to 64 characters"#),
            Invalid(
                json: #""type":"points.scored","team":"home","kind":"goal","player":""#
                    + String(repeating: "p", count: 65) + #"""#,
                description: #"field "player": must be a string of 1 to 64 characters"#),
            Invalid(
                json: #""type":"points.scored","team":"home","kind":"two","clock":"4:61""#,
                description: #"field "clock": "# + clockRule),
            // shootout.attempt
            Invalid(
                json: #""type":"shootout.attempt","team":"home""#, description: #"field "scored": is required"#,
                code: "missing-field"),
            Invalid(
                json: #""type":"shootout.attempt","team":"home","scored":"yes""#,
                description: #"field "scored": must be true or false"#),
            Invalid(
                json: #""type":"shootout.attempt","scored":true"#, description: #"field "team": is required"#,
                code: "missing-field"),
            // card.shown
            Invalid(
                json: #""type":"card.shown","team":"home","card":"orange""#,
                description: #"field "card": must be "yellow", "secondYellow" or "red""#),
            Invalid(
                json: #""type":"card.shown","team":"home""#, description: #"field "card": is required"#,
                code: "missing-field"),
            Invalid(
                json: #""type":"card.shown","team":"home","card":"red","clock":"90+3""#,
                description: #"field "clock": "# + clockRule),
            // situation.changed
            Invalid(
                json: #""type":"situation.changed","down":3,"distance":7,"yardLine":65"#,
                description: #"field "possession": is required"#, code: "missing-field"),
            Invalid(
                json: #""type":"situation.changed","possession":"home","down":3"#,
                description: #"field "distance": is required"#, code: "missing-field"),
            Invalid(
                json: #""type":"situation.changed","possession":"home","down":3,"distance":7"#,
                description: #"field "yardLine": is required"#, code: "missing-field"),
            Invalid(
                json: #""type":"situation.changed","possession":"home","yardLine":20"#,
                description: #"field "down": is required"#, code: "missing-field"),
            Invalid(
                json: #""type":"situation.changed","possession":"home","down":5,"distance":7,"yardLine":65"#,
                description: #"field "down": must be an integer between 1 and 4"#),
            Invalid(
                json: #""type":"situation.changed","possession":"home","down":1,"distance":0,"yardLine":65"#,
                description: #"field "distance": must be an integer between 1 and 99"#),
            Invalid(
                json: #""type":"situation.changed","possession":"home","down":1,"distance":10,"yardLine":100"#,
                description: #"field "yardLine": must be an integer between 1 and 99"#),
            Invalid(
                json: #""type":"situation.changed","possession":"home","turnover":"no""#,
                description: #"field "turnover": must be true or false"#),
            // event.retracted
            Invalid(
                json: #""type":"event.retracted""#, description: #"field "retracts": is required"#,
                code: "missing-field"),
            Invalid(
                json: #""type":"event.retracted","retracts":"""#,
                description: #"field "retracts": must be a message id of 1 to 200 characters"#),
            Invalid(
                json: #""type":"event.retracted","retracts":31"#,
                description: #"field "retracts": must be a message id of 1 to 200 characters"#),
            Invalid(
                json: #""type":"event.retracted","retracts":"m31","reason":""#
                    + String(repeating: "r", count: 201) + #"""#,
                description: #"field "reason": must be a string of at most 200 characters"#),
        ])
    func invalid(_ row: Invalid) {
        do throws(FeedError) {
            let message = try FeedParser.parse(Self.m(row.json), line: 12)
            Issue.record("accepted \(message.canonicalJSON())")
        } catch {
            #expect(error.description == "line 12: " + row.description + #" (message "m1")"#)
            #expect(error.code == row.code)
        }
    }
}
