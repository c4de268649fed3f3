import Foundation
import MLBFeed
import ScoreDomain
import ScoreFeedTesting
import Testing

@Suite("reading GUMBO live feed documents")
struct SnapshotReaderTests {
    @Test("a live document gives gamePk, timecode, status, teams, linescore and scoring plays")
    func live() throws {
        let snapshot = try snapshot("full-game", 9)
        #expect(snapshot.gamePk == 746001)
        #expect(snapshot.gameId == "mlb-746001")
        #expect(snapshot.timecode.text == "20260402_001544")
        #expect(rfc3339(snapshot.timecode.date) == "2026-04-02T00:15:44Z")
        #expect(snapshot.wait == 10)
        #expect(
            snapshot.status
                == MLBSnapshot.Status(
                    abstractGameState: "Live", codedGameState: "I", detailedState: "In Progress", statusCode: "I"))
        #expect(
            snapshot.away
                == Team(code: "NYY", name: "New York Yankees", logo: "https://www.mlbstatic.com/team-logos/147.svg"))
        #expect(snapshot.home.code == "BOS")
        #expect(rfc3339(snapshot.startsAt) == "2026-04-01T23:10:00Z")
        #expect(snapshot.currentInning == 5)
        #expect(snapshot.inningState == "Top")
        #expect(snapshot.isTopInning == true)
        #expect(snapshot.outs == 1)
        #expect(snapshot.awayRuns == 2)
        #expect(snapshot.homeRuns == 3)
        #expect(snapshot.bases == Bases(second: true))
        #expect(snapshot.innings.map(\.number) == [1, 2, 3, 4, 5])
        #expect(snapshot.innings[3] == MLBSnapshot.Inning(number: 4, awayRuns: 0, homeRuns: 2))
        #expect(snapshot.innings[4] == MLBSnapshot.Inning(number: 5, awayRuns: 0, homeRuns: nil))
        #expect(
            snapshot.scoringPlays == [
                .init(atBatIndex: 3, awayScore: 2, homeScore: 0), .init(atBatIndex: 9, awayScore: 2, homeScore: 1),
                .init(atBatIndex: 20, awayScore: 2, homeScore: 3),
            ])
    }

    @Test("a preview document has no inning, no runs and no plays")
    func preview() throws {
        let snapshot = try snapshot("full-game", 1)
        #expect(snapshot.status.detailedState == "Scheduled")
        #expect(snapshot.currentInning == nil)
        #expect((snapshot.awayRuns, snapshot.homeRuns) == (0, 0))
        #expect(snapshot.scoringPlays.isEmpty)
        #expect(snapshot.wait == 60)
    }

    @Test("an overturned review is read from reviewDetails")
    func overturned() throws {
        let before = try snapshot("corrections", 6)
        #expect(before.scoringPlays.last == .init(atBatIndex: 30, awayScore: 1, homeScore: 1))
        let after = try snapshot("corrections", 7)
        #expect(!after.scoringPlays.contains { $0.atBatIndex == 30 })
        #expect(after.homeRuns == 0)
    }

    /// A valid document with one change at a pointer.
    static func altered(_ operations: String) throws -> JSONValue {
        let base = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: fixture("mlb/full-game/09-top-5th.json"))))
        return try JSONPatch(parsing: JSONValue.parse(Data(operations.utf8))).applied(to: base)
    }

    static let bad: [(String, String, MLBSnapshotError.Code)] = [
        (#"[{"op":"remove","path":"/gamePk"}]"#, "gamePk", .missingField),
        (#"[{"op":"replace","path":"/gamePk","value":"746001"}]"#, "gamePk", .invalidField),
        (#"[{"op":"replace","path":"/gamePk","value":0}]"#, "gamePk", .invalidField),
        (#"[{"op":"remove","path":"/metaData"}]"#, "metaData", .missingField),
        (
            #"[{"op":"replace","path":"/metaData/timeStamp","value":"2026-04-02T00:15:44Z"}]"#, "metaData.timeStamp",
            .invalidField
        ),
        (
            #"[{"op":"replace","path":"/metaData/timeStamp","value":"20260231_001544"}]"#, "metaData.timeStamp",
            .invalidField
        ),
        (#"[{"op":"remove","path":"/gameData/status/detailedState"}]"#, "gameData.status.detailedState", .missingField),
        (
            #"[{"op":"replace","path":"/gameData/status/abstractGameState","value":3}]"#,
            "gameData.status.abstractGameState", .invalidField
        ),
        (#"[{"op":"remove","path":"/gameData/teams/home"}]"#, "gameData.teams.home", .missingField),
        (
            #"[{"op":"replace","path":"/gameData/teams/away/abbreviation","value":"N.Y."}]"#,
            "gameData.teams.away.abbreviation", .invalidField
        ),
        (
            #"[{"op":"replace","path":"/gameData/teams/away/name","value":""}]"#, "gameData.teams.away.name",
            .invalidField
        ),
        (
            #"[{"op":"replace","path":"/gameData/datetime/dateTime","value":"tonight"}]"#, "gameData.datetime.dateTime",
            .invalidField
        ),
        (#"[{"op":"remove","path":"/liveData"}]"#, "liveData", .missingField),
        (#"[{"op":"replace","path":"/liveData/linescore/outs","value":4}]"#, "liveData.linescore.outs", .invalidField),
        (
            #"[{"op":"replace","path":"/liveData/linescore/currentInning","value":"5"}]"#,
            "liveData.linescore.currentInning", .invalidField
        ),
        (
            #"[{"op":"replace","path":"/liveData/linescore/isTopInning","value":1}]"#, "liveData.linescore.isTopInning",
            .invalidField
        ),
        (
            #"[{"op":"replace","path":"/liveData/linescore/teams/home/runs","value":-1}]"#,
            "liveData.linescore.teams.home.runs", .invalidField
        ),
        (
            #"[{"op":"replace","path":"/liveData/linescore/innings/1","value":[]}]"#, "liveData.linescore.innings[1]",
            .invalidField
        ),
        (
            #"[{"op":"remove","path":"/liveData/linescore/innings/0/num"}]"#, "liveData.linescore.innings[0].num",
            .missingField
        ),
        (
            #"[{"op":"add","path":"/liveData/plays/scoringPlays/-","value":999}]"#, "liveData.plays.scoringPlays[3]",
            .invalidField
        ),
        (
            #"[{"op":"remove","path":"/liveData/plays/allPlays/20/result/homeScore"}]"#,
            "liveData.plays.allPlays[20].result.homeScore", .missingField
        ),
    ]

    @Test("an odd metaData.wait is only a hint: ignored, the document is read")
    func oddWait() throws {
        for value in ["1.5", "100000", "\"soon\""] {
            let document = try Self.altered(#"[{"op":"replace","path":"/metaData/wait","value":\#(value)}]"#)
            #expect(try MLBSnapshot(json: document).wait == nil, "\(value)")
        }
    }

    @Test("bad documents name the first bad field", arguments: bad)
    func badField(_ patch: String, _ field: String, _ code: MLBSnapshotError.Code) throws {
        let document = try Self.altered(patch)
        let error = #expect(throws: MLBSnapshotError.self) { try MLBSnapshot(json: document) }
        #expect(error?.field == field)
        #expect(error?.code == code)
    }

    @Test("text that is not JSON, or not an object, is refused")
    func notJSON() {
        let error = #expect(throws: MLBSnapshotError.self) { try MLBSnapshot(data: Data("{\"gamePk\":".utf8)) }
        #expect(error?.code == .invalidJSON)
        #expect(error?.description.contains("column") == true)
        let array = #expect(throws: MLBSnapshotError.self) { try MLBSnapshot(data: Data("[]".utf8)) }
        #expect(array?.code == .invalidField)
    }

    static let phases: [(String, String, String?, MLBPhase)] = [
        ("Preview", "Scheduled", "S", .scheduled), ("Preview", "Pre-Game", "P", .scheduled),
        ("Live", "Warmup", "P", .scheduled), ("Live", "In Progress", "I", .inProgress),
        ("Live", "Manager challenge", "M", .inProgress), ("Live", "Delayed", "I", .delayed),
        ("Live", "Delayed: Rain", "I", .delayed), ("Preview", "Delayed Start", "P", .delayed),
        ("Live", "Suspended: Rain", "U", .suspended), ("Final", "Postponed", "D", .postponed),
        ("Final", "Cancelled", "C", .cancelled), ("Final", "Game Over", "O", .final), ("Final", "Final", "F", .final),
        ("Final", "Completed Early: Rain", "F", .final), ("Live", "Something New", "I", .inProgress),
        ("Live", "Something New", "D", .postponed), ("Final", "Something New", nil, .final),
        ("Preview", "Something New", nil, .scheduled),
    ]

    @Test("statuses map to phases by detailedState, then codedGameState, then abstractGameState", arguments: phases)
    func phase(_ abstract: String, _ detailed: String, _ coded: String?, _ phase: MLBPhase) {
        #expect(
            MLBPhase(.init(abstractGameState: abstract, codedGameState: coded, detailedState: detailed)) == phase)
    }

    @Test("timecodes parse, compare and round-trip through dates")
    func timecodes() throws {
        let code = try #require(MLBTimecode("20260401_231502"))
        #expect(rfc3339(code.date) == "2026-04-01T23:15:02Z")
        #expect(MLBTimecode(date: code.date) == code)
        #expect(MLBTimecode("20260401_231502")! < MLBTimecode("20260401_231503")!)
        for bad in ["", "20260401231502", "2026040_1231502", "20261301_000000", "20260401_246000", "2026O401_000000"] {
            #expect(MLBTimecode(bad) == nil, "\(bad)")
        }
    }
}
