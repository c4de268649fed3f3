import Retrosheet
import ScoreDomain
import Testing

/// Game-level rules: half-inning changes, `radj`, `htbf`, substitutions, records without effect.
@Suite("Game rules")
struct GameRuleTests {
    @Test func aNewHalfInningClearsOutsAndBasesEvenOnNP() throws {
        let game = try Snippet.game(
            Snippet.header() + [
                "play,1,0,a,00,,S8", "play,1,0,b,00,,K", "play,1,0,c,00,,W.1-2",
                "play,1,1,d,00,,NP",  // the half-inning changes on NP (two outs, two on: no third out recorded)
                "sub,x,\"X\",0,1,1",
                "play,1,1,d,00,,8/F",
            ])
        let noPlay = game.plays[3]
        #expect(noPlay.isNoPlay)
        #expect(noPlay.before == RetrosheetState(inning: 1, batting: .home, half: .bottom))
        #expect(noPlay.after == noPlay.before)
        #expect(game.plays[4].before.outs == 0 && game.plays[4].before.diagram == "- - -")
        #expect(game.final.outs == 1)
    }

    @Test func radjPlacesTheAutomaticRunnerAfterTheFirstNPOfTheHalf() throws {
        let game = try Snippet.game(
            Snippet.header(extra: ["info,tiebreaker,2"]) + [
                "play,9,1,a,00,,K", "play,9,1,b,00,,K", "play,9,1,c,00,,K",
                "play,10,0,d,00,,NP", "radj,autor001,2", "play,10,0,d,00,,S8/G.2-H",
            ])
        let single = game.plays.last!
        #expect(single.before.second == "autor001")
        #expect(single.before.outs == 0)
        #expect(single.runs == 1)
        #expect(game.final.awayScore == 1)
        #expect(game.lineScore.away == [nil, nil, nil, nil, nil, nil, nil, nil, nil, 1])
        // In the feed the automatic runner shows at the start of the play, before its run.
        let events = game.messages().map(\.event)
        let tenth = try #require(events.firstIndex(of: .inningChanged(inning: 10, half: .top)))
        #expect(
            Array(events[tenth...]) == [
                .inningChanged(inning: 10, half: .top), .basesChanged(Bases(second: true)),
                .runScored(team: .away, runs: 1), .basesChanged(Bases(first: true)), .gameEnded(.closed),
            ])
        var state: ScoreState?
        for message in game.messages() { state = try ScoreFold.apply(message, to: state) }
        #expect(state?.awayScore == 1 && state?.bases == Bases(first: true))
    }

    /// With `info,htbf,true` the home team bats first: `half` 1 (home at bat) is the first half of the
    /// inning, its runs go to the home team, and the canonical half is `.top`.
    @Test func homeTeamBatsFirst() throws {
        let game = try Snippet.game(
            Snippet.header(extra: ["info,htbf,true"]) + [
                "play,1,1,h1,00,,HR/7/F", "play,1,1,h2,00,,K", "play,1,1,h3,00,,K", "play,1,1,h4,00,,K",
                "play,1,0,v1,00,,D7.B-H", "play,1,0,v2,00,,K",
            ])
        #expect(game.homeBatsFirst)
        #expect(game.plays[0].before.half == .top && game.plays[0].before.batting == .home)
        #expect(game.plays[4].before.half == .bottom && game.plays[4].before.batting == .away)
        #expect(game.final.homeScore == 1 && game.final.awayScore == 1)
        #expect(game.lineScore == RetrosheetLineScore(away: [1], home: [1]))
        let events = game.messages().map(\.event)
        #expect(events[2] == .runScored(team: .home, runs: 1))  // Top 1st: game.started implies it
        #expect(events.contains(.inningChanged(inning: 1, half: .bottom)))
        var state: ScoreState?
        for message in game.messages() { state = try ScoreFold.apply(message, to: state) }
        #expect(state?.homeScore == 1 && state?.awayScore == 1)
    }

    @Test func playsMayNotGoBackToAnEarlierHalfInning() throws {
        let error = try Snippet.error(Snippet.header() + ["play,1,1,a,00,,K", "play,1,0,b,00,,K"])
        #expect(error.kind == .invalidValue)
        #expect(error.line == 9)
    }

    @Test func aPinchRunnerTakesOverTheRunnerOnBase() throws {
        let game = try Snippet.game(
            Snippet.header() + [
                "start,slow001,\"Slow Guy\",0,4,3", "play,1,0,slow001,00,,S8", "sub,fast001,\"Fast Guy\",0,4,12",
                "play,1,0,next001,00,,SB2",
            ])
        #expect(game.plays[1].before.first == "fast001")
        #expect(game.final.second == "fast001")
    }

    @Test func recordsWithoutEffectAndQuotedCommas() throws {
        let game = try Snippet.game(
            Snippet.header() + [
                "start,griff002,\"Griffey, Jr.\",0,1,8",
                "com,\"challenged (play at 1st), call stands\"",
                "badj,bondb001,R", "padj,harrg001,L", "ladj,0,9", "presadj,pitcher1,3",
                "com,\"Suspend=20190821,,4,4,54\"",
                "play,1,0,griff002,12,CBFX,S8",
                "data,er,volqe001,0",
            ])
        #expect(game.plays.count == 1)
        #expect(game.final.first == "griff002")
    }

    @Test func crlfAndLFGiveTheSameGame() throws {
        let lines = Snippet.header() + ["com,\"a, b\"", "play,1,0,a,01,CX,S8", "play,1,0,b,00,X,64(1)3/GDP"]
        let lf = try Snippet.parse(lines, ending: "\n").map { try $0.get() }
        let crlf = try Snippet.parse(lines, ending: "\r\n").map { try $0.get() }
        #expect(lf == crlf)
        #expect(lf.first?.plays.last?.event == "64(1)3/GDP")
        #expect(lf.first?.info["starttime"] == "7:07PM")
    }

    @Test func aDoubleheaderIsTwoIndependentGames() throws {
        let first =
            Snippet.header(id: "NYA201908031", extra: ["info,starttime,1:08PM"]) + [
                "play,1,0,a,00,,HR", "play,1,0,b,00,,S8",
            ]
        let second = Snippet.header(id: "NYA201908032", extra: ["info,starttime,7:09PM"]) + ["play,1,0,a,00,,K"]
        let games = try Snippet.parse(first + second).map { try $0.get() }
        #expect(games.map(\.id) == ["NYA201908031", "NYA201908032"])
        #expect(games.map(\.gameNumber) == [1, 2])
        #expect(games[1].final == RetrosheetState(inning: 1, outs: 1))
        #expect(games[1].line == 11)
        #expect(games[0].startsAt < games[1].startsAt)
        #expect(games[1].messages().allSatisfy { $0.id.hasPrefix("NYA201908032-") })
    }

    @Test func lineScoreFormat() {
        #expect(RetrosheetLineScore.format([0, 0, 1, 3, 0, 10, 2, 0, nil]) == "00130(10)20x")
        #expect(RetrosheetLineScore.format([]) == "")
    }

    @Test func aWalkOffEndsTheGameBeforeThreeOuts() throws {
        let game = try Snippet.game(
            Snippet.header() + [
                "play,1,0,a,00,,K", "play,1,0,b,00,,K", "play,1,0,c,00,,K",
                "play,1,1,d,00,,K", "play,1,1,e,00,,HR",
            ])
        #expect(game.final.homeScore == 1 && game.final.outs == 1)
        #expect(game.totalOuts == 4)
        #expect(game.lineScore == RetrosheetLineScore(away: [0], home: [1]))
    }

    @Test func teamsFile() throws {
        let teams = try RetrosheetTeams.parse(bytes: Array("TEX,A,Texas,Rangers\r\nTOR,A,Toronto,Blue Jays\r\n".utf8))
        #expect(teams.team(code: "TOR") == Team(code: "TOR", name: "Toronto Blue Jays", logo: ""))
        #expect(teams.team(code: "XYZ") == Team(code: "XYZ", name: "XYZ", logo: ""))
        #expect(throws: RetrosheetError.self) { try RetrosheetTeams.parse(bytes: Array("TEX,A\n".utf8)) }
    }
}
