import Foundation
import Retrosheet
import ScoreDomain
import Testing

/// Conversion of a replayed game to canonical ScoreFeed messages.
@Suite("Canonical messages")
struct ConversionTests {
    static let teams = RetrosheetTeams([
        .init(code: "TEX", league: "A", city: "Texas", nickname: "Rangers"),
        .init(code: "ANA", league: "A", city: "Anaheim", nickname: "Angels"),
    ])

    /// A short game: a 3-run top 1st, a run and a double play in the bottom, walk-off in the 2nd.
    static let lines =
        Snippet.header() + [
            "play,1,0,a,22,FBBCH,HP", "play,1,0,b,12,BFSS,K", "play,1,0,c,12,CCBX,S9/L.1-2",
            "play,1,0,d,00,X,HR/8/F.2-H;1-H", "play,1,0,e,30,BBBB,W", "play,1,0,f,01,C1>B,SB2",
            "play,1,0,f,12,C1>B.FX,8(B)84(2)/LDP",
            "play,1,1,g,00,X,HR", "play,1,1,h,00,,NP", "play,1,1,h,00,X,8/F", "play,1,1,i,00,X,7/F",
            "play,1,1,j,00,X,9/F",
            "play,2,0,k,00,X,K", "play,2,0,l,00,X,K", "play,2,0,m,00,X,K",
            "play,2,1,n,00,X,S8", "play,2,1,o,00,X,HR.1-H", "play,2,1,p,00,X,HR",
        ]

    static func at(_ text: String) -> Date { parseRFC3339(text)! }

    @Test func messagesInOrderWithDeterministicIds() throws {
        let game = try Snippet.game(Self.lines)
        let messages = game.messages(teams: Self.teams)
        let texas = Team(code: "TEX", name: "Texas Rangers", logo: "")
        let anaheim = Team(code: "ANA", name: "Anaheim Angels", logo: "")
        #expect(game.startsAt == Self.at("2019-04-04T23:07:00Z"))
        let first = Bases(first: true)
        #expect(
            messages.map(\.event) == [
                .gameScheduled(home: anaheim, away: texas, startsAt: game.startsAt), .gameStarted,
                .basesChanged(first),  // HP
                .outRecorded(outs: 1),  // K
                .basesChanged(Bases(first: true, second: true)),  // S9/L.1-2
                .runScored(team: .away, runs: 3), .basesChanged(.empty),  // HR/8/F.2-H;1-H
                .basesChanged(first),  // W
                .basesChanged(Bases(second: true)),  // SB2
                .outRecorded(outs: 2), .basesChanged(.empty),  // 8(B)84(2)/LDP: third out, bases shown empty
                .inningChanged(inning: 1, half: .bottom),
                .runScored(team: .home, runs: 1),  // HR with the bases empty: no bases.changed
                .outRecorded(outs: 1), .outRecorded(outs: 1), .outRecorded(outs: 1),
                .inningChanged(inning: 2, half: .top),
                .outRecorded(outs: 1), .outRecorded(outs: 1), .outRecorded(outs: 1),
                .inningChanged(inning: 2, half: .bottom),
                .basesChanged(first),
                .runScored(team: .home, runs: 2), .basesChanged(.empty),
                .runScored(team: .home, runs: 1),
                .gameEnded(.closed),
            ])
        #expect(messages.map(\.id) == (1...26).map { String(format: "ANA201904040-%04d", $0) })
        #expect(messages.allSatisfy { $0.gameId == "ANA201904040" })
        for message in messages {
            #expect(try FeedParser.parse(message.canonicalJSON()) == message, "\(message.canonicalJSON())")
        }
        #expect(messages == (try Snippet.game(Self.lines)).messages(teams: Self.teams))
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        #expect(state?.awayScore == 3 && state?.homeScore == 4 && state?.status == .closed)
        #expect(state?.inning == "Bottom 2nd" && state?.outs == 0)
    }

    @Test func runsComeBeforeOutsOnTheSamePlay() throws {
        let game = try Snippet.game(
            Snippet.header() + ["play,1,0,a,00,,S8", "play,1,0,b,00,,D7.1-H", "play,1,0,c,00,X,8/SF.2-H"])
        let events = game.messages().map(\.event)
        #expect(
            Array(events.suffix(4)) == [
                .runScored(team: .away, runs: 1), .outRecorded(outs: 1), .basesChanged(.empty), .gameEnded(.closed),
            ])
        #expect(
            game.messages()[0].event
                == .gameScheduled(
                    home: Team(code: "ANA", name: "ANA", logo: ""), away: Team(code: "TEX", name: "TEX", logo: ""),
                    startsAt: game.startsAt))
    }

    @Test func timesFollowPitchesAndHalfInningBreaks() throws {
        let messages = try Snippet.game(Self.lines).messages(teams: Self.teams)
        let start = Self.at("2019-04-04T23:07:00Z")
        func offset(_ index: Int) -> TimeInterval { messages[index].at.timeIntervalSince(start) }
        #expect(messages[0].at == start.addingTimeInterval(-86_400))  // scheduled a day ahead
        #expect(offset(1) == 0)  // game.started at first pitch
        // HP after 5 pitches (125 s), then the K after 4 more (100 s).
        #expect(offset(2) == 125 && offset(3) == 225)
        // S9 (4 pitches), then the HR on 1 pitch: its run and bases at the same time.
        #expect(offset(4) == 325 && offset(5) == 350 && offset(6) == 350)
        // W (4), SB2 after "C1>B" (2 pitches: 50 s), the LDP "C1>B.FX" adds only F and X (50 s).
        #expect(offset(7) == 450 && offset(8) == 500 && offset(9) == 550)
        // The bottom of the 1st starts after a 150 s break; the HR takes 1 pitch.
        #expect(offset(11) == 700 && offset(12) == 725)
        // NP takes 10 s, then 8/F on 1 pitch.
        #expect(offset(13) == 760)
        // An empty pitch string still takes 20 s.
        let empty = try Snippet.game(Snippet.header() + ["play,1,0,a,00,,K"]).messages()
        #expect(empty[2].at.timeIntervalSince(empty[1].at) == 20)
        #expect(zip(messages.dropFirst(), messages.dropFirst(2)).allSatisfy { $0.at <= $1.at })
        #expect(messages.last!.at.timeIntervalSince(messages[messages.count - 2].at) == 60)
    }

    @Test(arguments: [
        ("7:07PM", "2019-04-04T23:07:00Z"), ("12:35PM", "2019-04-04T16:35:00Z"), ("11:06AM", "2019-04-04T15:06:00Z"),
        ("12:05AM", "2019-04-04T04:05:00Z"), ("0:00PM", "2019-04-04T23:05:00Z"), ("", "2019-04-04T23:05:00Z"),
        ("soon", "2019-04-04T23:05:00Z"),
    ])
    func startTimesAreLocalAtMinusFourHours(starttime: String, expected: String) throws {
        let lines = Snippet.header().filter { !$0.hasPrefix("info,starttime") } + ["info,starttime,\(starttime)"]
        #expect(try Snippet.game(lines).startsAt == Self.at(expected))
    }

    @Test func aMissingDateComesFromTheGameId() throws {
        let lines = Snippet.header(id: "TEX201907020").filter { !$0.hasPrefix("info,date") }
        #expect(try Snippet.game(lines).startsAt == Self.at("2019-07-02T23:07:00Z"))
    }
}
