import Retrosheet
import Testing

/// Every play form of feeds.md §1 on a hand-made situation: runners `r1`, `r2`, `r3` on the listed
/// bases, batter `bat`; the expected bases after the play (`"bat r1 -"` = 1st, 2nd, 3rd), the outs
/// it makes and the runs it scores.
@Suite("Play rules")
struct PlayRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var event: String
        var runners: [Int]
        var outsBefore: Int
        var bases: String
        var outs: Int
        var runs: Int
        var testDescription: String { "\(event) on \(runners)" }

        init(_ event: String, on runners: [Int] = [], outsBefore: Int = 0, _ bases: String, outs: Int, runs: Int = 0) {
            self.event = event
            self.runners = runners
            self.outsBefore = outsBefore
            self.bases = bases
            self.outs = outs
            self.runs = runs
        }
    }

    static let batterOuts: [Case] = [
        Case("8/F", "- - -", outs: 1),
        Case("63/G", "- - -", outs: 1),
        Case("143/G", "- - -", outs: 1),
        Case("64(1)3/GDP", on: [1], "- - -", outs: 2),
        Case("54(1)3/GDP.3-H", on: [1, 3], "- - -", outs: 2, runs: 1),
        Case("8(B)84(2)/LDP", on: [2], "- - -", outs: 2),
        Case("3(B)6(1)/GDP", on: [1], "- - -", outs: 2),
        Case("4(1)/FO/G", on: [1], "bat - -", outs: 1),
        Case("64(1)/FO/G.2-3", on: [1, 2], "bat - r2", outs: 1),
        Case("1E3/G", "bat - -", outs: 0),
        Case("5(2)/FO/G", on: [1, 2], outsBefore: 2, "r1 - -", outs: 1),  // third out: no forced advances
        Case("K", "- - -", outs: 1),
        Case("K23", "- - -", outs: 1),
        Case("K+WP.B-1", "bat - -", outs: 0),
        Case("K.BX1(23)", "- - -", outs: 1),
        Case("K+SB2", on: [1], "- r1 -", outs: 1),
        Case("K+CS2(26)/DP", on: [1], "- - -", outs: 2),
        Case("K+PB.1-2", on: [1], "- r1 -", outs: 1),
        Case("FLE9", on: [1], "r1 - -", outs: 0),
    ]

    static let batterSafe: [Case] = [
        Case("W", "bat - -", outs: 0),
        Case("W.1-2", on: [1], "bat r1 -", outs: 0),
        Case("IW", "bat - -", outs: 0),
        Case("I.2-3;1-2", on: [1, 2], "bat r1 r2", outs: 0),
        Case("HP", "bat - -", outs: 0),
        Case("C/E2.1-2", on: [1], "bat r1 -", outs: 0),
        Case("W+WP.2-3", on: [2], "bat - r2", outs: 0),
        Case("W+SB3", on: [2], "bat - r2", outs: 0),
        Case("IW+PB.3-H(UR)", on: [3], "bat - -", outs: 0, runs: 1),
        Case("S7/L", "bat - -", outs: 0),
        Case("S9/G.2-H;1-3", on: [1, 2], "bat - r1", outs: 0, runs: 1),
        Case("D8/F", "- bat -", outs: 0),
        Case("D", "- bat -", outs: 0),
        Case("T9/L.1-H", on: [1], "- - bat", outs: 0, runs: 1),
        Case("DGR/9/L+.1-3", on: [1], "- bat r1", outs: 0),
        Case("H/9", "- - -", outs: 0, runs: 1),
        Case("HR9/F.3-H;2-H;1-H", on: [1, 2, 3], "- - -", outs: 0, runs: 4),
        Case("E6/G", "bat - -", outs: 0),
        Case("E5/TH/G.1-3", on: [1], "bat - r1", outs: 0),
        Case("FC6/G.1X2(64)", on: [1], "bat - -", outs: 1),
        Case("FC5/G.3XH(52)", on: [3], "bat - -", outs: 1),
        Case("FC1", on: [], "bat - -", outs: 0),
    ]

    static let runnerEvents: [Case] = [
        Case("BK.1-2", on: [1], "- r1 -", outs: 0),
        Case("DI.2-3", on: [2], "- - r2", outs: 0),
        Case("OA.3-H", on: [3], "- - -", outs: 0, runs: 1),
        Case("PB.1-2", on: [1], "- r1 -", outs: 0),
        Case("WP.3-H(NR);1-2", on: [1, 3], "- r1 -", outs: 0, runs: 1),
        Case("NP", on: [1], "r1 - -", outs: 0),
        Case("SB2", on: [1], "- r1 -", outs: 0),
        Case("SB3", on: [2], "- - r2", outs: 0),
        Case("SBH", on: [3], "- - -", outs: 0, runs: 1),
        Case("SB3;SB2", on: [1, 2], "- r1 r2", outs: 0),
        Case("SBH;SB2", on: [1, 3], "- r1 -", outs: 0, runs: 1),
        Case("SB2;SBH(UR)", on: [1, 3], "- r1 -", outs: 0, runs: 1),
        Case("CS2(24)", on: [1], "- - -", outs: 1),
        Case("CS3(25).1-2", on: [1, 2], "- r1 -", outs: 1),
        Case("CSH(12)", on: [3], "- - -", outs: 1),
        Case("CS2(2E4)", on: [1], "- r1 -", outs: 0),
        Case("CS2(2E6).1-3", on: [1], "- - r1", outs: 0),
        Case("PO1(13)", on: [1], "- - -", outs: 1),
        Case("PO1(E1/TH)", on: [1], "r1 - -", outs: 0),
        Case("PO1(E1/TH).1-2", on: [1], "- r1 -", outs: 0),
        Case("PO2(1E4)", on: [2], "- r2 -", outs: 0),
        Case("POCS2(1361)", on: [1], "- - -", outs: 1),
        Case("POCS2(1E3)", on: [1], "- r1 -", outs: 0),
        Case("POCSH(1E2)(UR)", on: [3], "- - -", outs: 0, runs: 1),
    ]

    static let advancesAndModifiers: [Case] = [
        // Explicit advances override the implicit ones.
        Case("S9/L.B-2", "- bat -", outs: 0),
        Case("S8/L.1-3;B-2", on: [1], "- bat r1", outs: 0),
        Case("E6/G.B-3", "- - bat", outs: 0),
        Case("D7/L.B-H(E7)(UR)", "- - -", outs: 0, runs: 1),
        Case("W.B-2(E2/TH);1-3", on: [1], "- bat r1", outs: 0),
        // X is an out unless the first parenthesis with a fielding credit holds an error.
        Case("S9/L.1X3(95)", on: [1], "bat - -", outs: 1),
        Case("S7/L.BX2(7E4)", "- bat -", outs: 0),
        Case("WP.3XH(E2)", on: [3], "- - -", outs: 0, runs: 1),
        Case("FC5/G.1X2(54)(E5/TH);B-1", on: [1], "bat - -", outs: 1),
        Case("D9/G+.1-H;BX3(E9)(95/TH)", on: [1], "- - -", outs: 1, runs: 1),
        Case("S8/L+.3-H;BX3(TH)(2456)", on: [3], "- - -", outs: 1, runs: 1),
        Case("S9/L.2XH(92)(UR)", on: [2], "bat - -", outs: 1),
        // (UR), (NR), (RBI), (TUR) change neither runs nor outs.
        Case("E6/G.3-H(UR)(NR);2-H(TUR);1-3(RBI)", on: [1, 2, 3], "bat - r1", outs: 0, runs: 2),
        // Modifiers are split on `/` outside parentheses only; `#`, `!`, `?` are ignored.
        Case("63/G#", "- - -", outs: 1),
        Case("8!/F", "- - -", outs: 1),
        Case("S7?/L.1-2", on: [1], "bat r1 -", outs: 0),
        Case("E1/TH/FO/G.3-H(UR)(NR);2-3;1-2", on: [1, 2, 3], "bat r1 r2", outs: 0, runs: 1),
        Case("7/F/SF.3-H", on: [3], "- - -", outs: 1, runs: 1),
    ]

    @Test(arguments: batterOuts + batterSafe + runnerEvents + advancesAndModifiers)
    func play(_ rule: Case) throws {
        let play = try Snippet.play(rule.event, runners: rule.runners, outs: rule.outsBefore)
        #expect(play.after.diagram == rule.bases)
        #expect(play.outs == rule.outs)
        #expect(play.runs == rule.runs)
        #expect(play.after.awayScore == rule.runs && play.after.homeScore == 0)
    }

    @Test(arguments: [
        ("S8/L.2-3", [1], "moves a runner from 2nd, which is empty"),
        ("SB2", [], "moves a runner from 1st, which is empty"),
        ("CS3(25)", [1], "moves a runner from 2nd, which is empty"),
        ("64(1)3/GDP", [], "moves a runner from 1st, which is empty"),
        ("S8/L", [1], "two runners end on 1st"),
        ("W.2-3", [1, 2], "two runners end on 1st"),
    ])
    func impossibleAdvances(event: String, runners: [Int], reason: String) throws {
        let error = try Snippet.error(
            Snippet.header() + ["play,1,0,lead,00,,NP"] + runners.map { "radj,r\($0),\($0)" }
                + ["play,1,0,bat,00,,\(event)"])
        #expect(error.kind == .impossibleAdvance)
        #expect(error.line == 9 + runners.count)
        #expect(error.reason.contains(reason), "\(error.reason)")
    }

    @Test(arguments: ["ZZ", "S8/L.1-", "64(1", "SB4", "K+XX", "W.1-2;", "8(4)", "PO4(13)", "S8.1-2;1-3", "E/G"])
    func unparsablePlays(event: String) throws {
        let error = try Snippet.error(Snippet.header() + ["play,1,0,bat,00,,\(event)"])
        #expect(error.kind == .unparsablePlay)
        #expect(error.line == 8)
        #expect(error.file == "TEST.EVA")
        #expect(error.gameId == "ANA201904040")
    }

    @Test func aFourthOutIsImpossible() throws {
        let lines =
            Snippet.header() + ["play,1,0,a,00,,K", "play,1,0,b,00,,K", "radj,r1,1", "play,1,0,c,00,,64(1)3/GDP"]
        let error = try Snippet.error(lines)
        #expect(error.kind == .impossibleAdvance)
        #expect(error.line == 11)
        #expect(error.reason.contains("more than three"))
    }
}
