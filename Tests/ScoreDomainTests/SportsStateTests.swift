import Foundation
import ScoreDomain
import Testing

/// What a clock-sport game shows: period labels per preset, the state's JSON (exact for one game,
/// read back equal for every kind of game).
@Suite("ScoreState of the clock sports: labels and JSON")
struct SportsStateTests {
    @Test(
        "label(ofPeriod:) per preset: regulation, overtime or extra time, shoot-out",
        arguments: [
            ("nba", "Q1 Q2 Q3 Q4 OT 2OT 3OT"), ("wnba", "Q1 Q2 Q3 Q4 OT 2OT 3OT"), ("fiba", "Q1 Q2 Q3 Q4 OT 2OT 3OT"),
            ("ncaa-women", "Q1 Q2 Q3 Q4 OT 2OT 3OT"), ("ncaa-men", "1st Half|2nd Half|OT|2OT|3OT"),
            ("knockout-soccer", "1st Half|2nd Half|ET1|ET2|Pens"), ("nhl", "1st 2nd 3rd OT SO"),
            ("nhl-playoffs", "1st 2nd 3rd OT 2OT"), ("nfl", "Q1 Q2 Q3 Q4 OT"), ("nfl-playoffs", "Q1 Q2 Q3 Q4 OT 2OT"),
            ("ncaa-football", "Q1 Q2 Q3 Q4 OT 2OT"), ("league-soccer", "1st Half|2nd Half"),
        ])
    func labels(_ competition: String, _ labels: String) {
        let separator: Character = labels.contains("|") ? "|" : " "
        let expected = labels.split(separator: separator).map(String.init)
        let state = Match(competition).state
        #expect((1...expected.count).map { state.label(ofPeriod: $0) } == expected)
    }

    @Test("the JSON of a soccer game in the second half, exactly")
    func soccerJSON() throws {
        var game = Match("league-soccer")
        try game.send(.gameStarted, at: 0)
        try game.send(.clockStarted(ms: nil), at: 0)
        try game.send(.end(1), at: 2_760)
        try game.send(.start(2), at: 3_600)
        try game.send(.clockStarted(ms: nil), at: 3_600)
        try game.send(.score(.away, .ownGoal, clock: "52:12", player: "A. Player"), at: 4_032)
        try game.send(.cardShown(team: .home, card: .red, player: nil, clockMs: nil), at: 4_100)
        #expect(
            game.state.canonicalJSON()
                == #"{"away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","name":"New York Yankees"},"#
                + #""awayScore":1,"cards":[{"card":"red","clock":"54'","id":"m7","period":2,"side":"home"}],"#
                + #""clock":{"at":"2026-07-19T16:00:00Z","countsDown":false,"ms":2700000,"running":true,"#
                + #""value":"45:00"},"gameId":"g1","#
                + #""home":{"code":"BOS","logo":"https://example.com/logos/bos.png","name":"Boston Red Sox"},"#
                + #""homeScore":0,"period":"2nd Half","periodEnded":false,"periodNumber":2,"#
                + #""periods":[{"away":0,"home":0,"label":"1st Half"},{"away":1,"home":0,"label":"2nd Half"}],"#
                + #""redCards":{"away":0,"home":1},"rules":{"clockToleranceSeconds":2,"competition":"league-soccer","#
                + #""overtimeMinutes":0,"overtimes":0,"periodMinutes":45,"periods":2,"shootout":false,"#
                + #""tieStands":true},"scoring":[{"awayScore":1,"clock":"53'","homeScore":0,"id":"m6","#
                + #""kind":"ownGoal","period":2,"player":"A. Player","points":1,"side":"away"}],"sport":"soccer","#
                + #""startsAt":"2026-07-19T15:00:00Z","status":"inprogress","updatedAt":"2026-07-19T16:08:20Z","#
                + #""version":8}"#)
    }

    @Test("a state's JSON reads back equal: soccer, NHL after a shoot-out, football with a situation, baseball")
    func roundTrip() throws {
        var soccer = try RetractionTests.soccerGame()
        try soccer.send(.cardShown(team: .home, card: .secondYellow, player: "P", clockMs: ms("80:00")))
        try soccer.send(.retracted(id: "a", reason: nil))
        try soccer.send(.scoreCorrected(homeScore: 3, awayScore: 2))
        var nhl = try RetractionTests.nhlShootout()
        try nhl.send(.gameEnded(.closed))
        var nfl = Match("nfl")
        try nfl.send(.gameStarted, at: 0)
        try nfl.send(.clockStarted(ms: nil), at: 10)
        try nfl.send(
            .situationChanged(
                Situation(possession: .away, down: 3, distance: 7, yardLine: 65), turnover: false,
                clockMs: ms("0:04.3")))
        try nfl.send(.score(.away, .touchdown))
        var pregame = Match("knockout-soccer")
        try pregame.send(.statusChanged(.delayed))
        var baseball = T.state(.inprogress, 5, .bottom, outs: 2, home: 3, away: 1)
        baseball = try ScoreFold.apply(T.message(.runScored(team: .home, runs: 2), id: "r1"), to: baseball)
        for state in [soccer.state, nhl.state, nfl.state, pregame.state, Match("nba").state, baseball] {
            let json = state.jsonValue
            #expect(try ScoreState(json: json) == state, "\(state.canonicalJSON())")
            #expect(try ScoreState(json: JSONValue.parse(Data(state.canonicalJSON().utf8))) == state)
            let decoded = try JSONDecoder().decode(ScoreState.self, from: JSONEncoder().encode(state))
            #expect(decoded == state)
        }
        #expect(nfl.state.situation == Situation(possession: .away, down: 3, distance: 7, yardLine: 65))
    }

    @Test("baseball's JSON keeps its fields and gains period, periods and scoring, no clock-sport keys")
    func baseballJSON() throws {
        var state = T.state(.inprogress, 2, .top, outs: 1)
        state = try ScoreFold.apply(T.message(.runScored(team: .away, runs: 2), id: "r1"), to: state)
        guard case .object(let members) = state.jsonValue else {
            Issue.record("not an object")
            return
        }
        #expect(
            members.keys.sorted() == [
                "away", "awayScore", "bases", "gameId", "half", "home", "homeScore", "inning", "inningNumber", "outs",
                "period", "periods", "scoring", "sport", "startsAt", "status", "updatedAt", "version",
            ])
        #expect(members["period"] == .string("Top 2nd"))
        #expect(
            members["periods"]
                == .array([
                    .object(["label": .string("1st"), "home": .int(0), "away": .int(0)]),
                    .object(["label": .string("2nd"), "home": .int(0), "away": .int(2)]),
                ]))
    }
}
