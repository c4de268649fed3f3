import Foundation
import ScoreDomain

/// What ScoreFeed needs from one version of a GUMBO live feed document
/// (`GET /api/v1.1/game/{gamePk}/feed/live`); everything else in the document is ignored.
public struct MLBSnapshot: Sendable, Equatable {
    /// `gameData.status`.
    public struct Status: Sendable, Equatable {
        /// `abstractGameState`: `Preview`, `Live` or `Final`.
        public var abstractGameState: String
        /// `codedGameState`, e.g. `S`, `P`, `I`, `F`, `D` (absent in some documents).
        public var codedGameState: String?
        /// `detailedState`, e.g. `Scheduled`, `In Progress`, `Delayed`, `Postponed`, `Final`.
        public var detailedState: String
        /// `statusCode`, e.g. `IR` for a rain delay.
        public var statusCode: String?
        /// `reason`, e.g. `Rain`.
        public var reason: String?

        /// Creates a status.
        public init(
            abstractGameState: String, codedGameState: String? = nil, detailedState: String,
            statusCode: String? = nil, reason: String? = nil
        ) {
            self.abstractGameState = abstractGameState
            self.codedGameState = codedGameState
            self.detailedState = detailedState
            self.statusCode = statusCode
            self.reason = reason
        }
    }

    /// One inning of `liveData.linescore.innings`: runs per side (`nil` while that half is unplayed).
    public struct Inning: Sendable, Equatable {
        public var number: Int
        public var awayRuns: Int?
        public var homeRuns: Int?

        public init(number: Int, awayRuns: Int?, homeRuns: Int?) {
            self.number = number
            self.awayRuns = awayRuns
            self.homeRuns = homeRuns
        }
    }

    /// A scoring play (`liveData.plays.scoringPlays` → `allPlays[i]`): where it happened and the score after it.
    public struct ScoringPlay: Sendable, Equatable {
        public var atBatIndex: Int
        public var awayScore: Int
        public var homeScore: Int
        /// `reviewDetails.isOverturned`.
        public var isOverturned: Bool

        public init(atBatIndex: Int, awayScore: Int, homeScore: Int, isOverturned: Bool = false) {
            self.atBatIndex = atBatIndex
            self.awayScore = awayScore
            self.homeScore = homeScore
            self.isOverturned = isOverturned
        }
    }

    /// `gamePk`.
    public var gamePk: Int
    /// `metaData.timeStamp`.
    public var timecode: MLBTimecode
    /// `metaData.wait`: the seconds the provider suggests between polls.
    public var wait: Int?
    /// `gameData.status`.
    public var status: Status
    /// `gameData.teams.home` as a canonical team (`abbreviation`, `name`, the MLB logo URL of its `id`).
    public var home: Team
    /// `gameData.teams.away`, like ``home``.
    public var away: Team
    /// `gameData.datetime.dateTime`: scheduled first pitch.
    public var startsAt: Date
    /// `liveData.linescore.currentInning` (absent before the start).
    public var currentInning: Int?
    /// `liveData.linescore.inningState` (`Top`, `Middle`, `Bottom`, `End`), else `inningHalf`.
    public var inningState: String?
    /// `liveData.linescore.isTopInning`.
    public var isTopInning: Bool?
    /// `liveData.linescore.outs` (0–3).
    public var outs: Int
    /// `liveData.linescore.innings`.
    public var innings: [Inning]
    /// `liveData.linescore.teams.away.runs` (0 when absent).
    public var awayRuns: Int
    /// `liveData.linescore.teams.home.runs` (0 when absent).
    public var homeRuns: Int
    /// Whether the document has both totals; without them it says nothing about the score.
    public var hasTotals: Bool
    /// Runners on base from `liveData.linescore.offense.first/second/third` (`nil` when there is no `offense`).
    public var bases: Bases?
    /// The scoring plays, in the order of `liveData.plays.scoringPlays`.
    public var scoringPlays: [ScoringPlay]

    /// The canonical game id, `mlb-<gamePk>`.
    public var gameId: String { MLBSnapshot.gameId(gamePk) }

    /// The canonical game id of a gamePk: `mlb-<gamePk>`.
    public static func gameId(_ gamePk: Int) -> String { "mlb-\(gamePk)" }

    /// The logo URL used for a team id (MLB's public logo CDN).
    public static func logoURL(teamId: Int) -> String { "https://www.mlbstatic.com/team-logos/\(teamId).svg" }
}

extension MLBSnapshot {
    /// Reads a document's JSON text.
    /// - Throws: ``MLBSnapshotError`` (`invalid-json` with the column, or the first bad field).
    public init(data: Data) throws(MLBSnapshotError) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            throw MLBSnapshotError(.invalidJSON, field: nil, "not JSON: \(error)")
        }
        try self.init(json: json)
    }

    /// Reads a parsed document. Absent optional parts (no linescore before the start, no scoring
    /// plays) are fine; present fields must have the right type and range.
    /// - Throws: ``MLBSnapshotError`` naming the first bad field by its dotted path.
    public init(json: JSONValue) throws(MLBSnapshotError) {
        let root = try Fields(json, path: "")
        gamePk = try root.int("gamePk", in: 1...Int(Int32.max))
        let meta = try root.object("metaData")
        let stamp = try meta.string("timeStamp")
        guard let timecode = MLBTimecode(stamp) else {
            throw meta.fail("timeStamp", "must be a timecode like 20260401_231500 (UTC), not \"\(stamp)\"")
        }
        self.timecode = timecode
        // Only a hint: an odd value (10.0, a day and more) is ignored rather than refusing the document.
        wait = (try? meta.optionalInt("wait", in: 0...86_400)) ?? nil

        let gameData = try root.object("gameData")
        let status = try gameData.object("status")
        self.status = Status(
            abstractGameState: try status.string("abstractGameState"),
            codedGameState: try status.optionalString("codedGameState"),
            detailedState: try status.string("detailedState"),
            statusCode: try status.optionalString("statusCode"),
            reason: try status.optionalString("reason"))
        let teams = try gameData.object("teams")
        home = try MLBSnapshot.team(try teams.object("home"))
        away = try MLBSnapshot.team(try teams.object("away"))
        let datetime = try gameData.object("datetime")
        let dateTime = try datetime.string("dateTime")
        guard let startsAt = InputRules.timestamp(dateTime) else {
            throw datetime.fail(
                "dateTime", "must be an RFC 3339 timestamp like 2026-04-01T23:05:00Z, \(InputRules.dateRule)")
        }
        self.startsAt = startsAt

        let liveData = try root.object("liveData")
        let linescore = try liveData.optionalObject("linescore")
        currentInning = try linescore?.optionalInt("currentInning", in: 1...99)
        let inningHalf = try linescore?.optionalString("inningHalf")
        inningState = try linescore?.optionalString("inningState") ?? inningHalf
        isTopInning = try linescore?.optionalBool("isTopInning")
        outs = try linescore?.optionalInt("outs", in: 0...3) ?? 0
        var innings: [Inning] = []
        for (index, element) in (try linescore?.optionalArray("innings") ?? []).enumerated() {
            let inning = try Fields(element, path: "liveData.linescore.innings[\(index)]")
            let away = try inning.optionalObject("away")
            let home = try inning.optionalObject("home")
            innings.append(
                Inning(
                    number: try inning.int("num", in: 1...99),
                    awayRuns: try away?.optionalInt("runs", in: 0...999),
                    homeRuns: try home?.optionalInt("runs", in: 0...999)))
        }
        self.innings = innings
        let totals = try linescore?.optionalObject("teams")
        let away = try totals?.optionalObject("away")?.optionalInt("runs", in: 0...999)
        let home = try totals?.optionalObject("home")?.optionalInt("runs", in: 0...999)
        awayRuns = away ?? 0
        homeRuns = home ?? 0
        hasTotals = away != nil && home != nil
        if let offense = try linescore?.optionalObject("offense") {
            bases = Bases(first: offense.has("first"), second: offense.has("second"), third: offense.has("third"))
        } else {
            bases = nil
        }

        scoringPlays = []
        if let plays = try liveData.optionalObject("plays"),
            let indices = try plays.optionalArray("scoringPlays"), !indices.isEmpty
        {
            let allPlays = try plays.optionalArray("allPlays") ?? []
            for (position, element) in indices.enumerated() {
                let field = "liveData.plays.scoringPlays[\(position)]"
                guard case .int(let index) = element, allPlays.indices.contains(index) else {
                    throw MLBSnapshotError(
                        .invalidField, field: field, "must be the index of a play in liveData.plays.allPlays")
                }
                let play = try Fields(allPlays[index], path: "liveData.plays.allPlays[\(index)]")
                let result = try play.object("result")
                let review = try play.optionalObject("reviewDetails")
                scoringPlays.append(
                    ScoringPlay(
                        atBatIndex: try play.object("about").optionalInt("atBatIndex", in: 0...100_000) ?? index,
                        awayScore: try result.int("awayScore", in: 0...999),
                        homeScore: try result.int("homeScore", in: 0...999),
                        isOverturned: try review?.optionalBool("isOverturned") ?? false))
            }
        }
    }

    /// A canonical team from `{id, name, abbreviation}`; the abbreviation must suit a team code.
    private static func team(_ fields: Fields) throws(MLBSnapshotError) -> Team {
        let id = try fields.int("id", in: 1...Int(Int32.max))
        let name = try fields.string("name")
        guard (1...64).contains(name.unicodeScalars.count) else {
            throw fields.fail("name", "must be 1 to 64 characters")
        }
        let code = try fields.string("abbreviation")
        guard (1...8).contains(code.utf8.count),
            code.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        else {
            throw fields.fail("abbreviation", "must be 1 to 8 letters or digits, not \"\(code)\"")
        }
        return Team(code: code, name: name, logo: logoURL(teamId: id))
    }
}
