import Foundation
import ScoreDomain

extension NBAStatsV3 {
    /// What `boxscoresummaryv2` (or `leaguegamefinder`) gives: the game, its day (US Eastern), the teams,
    /// whether it is final.
    struct Summary {
        var gameId: String
        var day: (year: Int, month: Int, day: Int)
        var final: Bool
        var home: (id: Int, team: Team)
        var away: (id: Int, team: Team)

        init(_ document: JSONValue) throws(ConvertError) {
            let summary = try Self.rows(document, "GameSummary")
            guard let row = summary.first else { throw fail("resultSets.GameSummary.rowSet", "no row") }
            gameId = try Self.text(row, "GAME_ID", "GameSummary")
            let date = try Self.text(row, "GAME_DATE_EST", "GameSummary")
            let parts = date.prefix(10).split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { throw fail("resultSets.GameSummary.GAME_DATE_EST", "not a date: \(date)") }
            day = (parts[0], parts[1], parts[2])
            final = try Self.text(row, "GAME_STATUS_TEXT", "GameSummary").hasPrefix("Final")
            let homeId = try Self.int(row, "HOME_TEAM_ID", "GameSummary")
            let awayId = try Self.int(row, "VISITOR_TEAM_ID", "GameSummary")
            var teams: [Int: Team] = [:]
            for line in try Self.rows(document, "LineScore") {
                let code = try Self.text(line, "TEAM_ABBREVIATION", "LineScore")
                let name =
                    "\(try Self.text(line, "TEAM_CITY_NAME", "LineScore")) \(try Self.text(line, "TEAM_NICKNAME", "LineScore"))"
                teams[try Self.int(line, "TEAM_ID", "LineScore")] = Team(
                    code: code, name: name.clipped(to: 64), logo: "")
            }
            guard let home = teams[homeId], let away = teams[awayId] else {
                throw fail("resultSets.LineScore", "no line of the home or the away team")
            }
            self.home = (homeId, home)
            self.away = (awayId, away)
        }

        /// The game's two rows of a `leaguegamefinder` response (`PlayerOrTeam=T`): `GAME_DATE`, and per
        /// team `TEAM_ID`, `TEAM_ABBREVIATION`, `TEAM_NAME`, `MATCHUP` (`ATL @ BOS` for the visitor,
        /// `BOS vs. ATL` for the home team) and `WL` (set once the game is final).
        init(gameFinder document: JSONValue, game: String) throws(ConvertError) {
            let set = "LeagueGameFinderResults"
            let rows = try Self.rows(document, set).filter { $0["GAME_ID"] == .string(game) }
            guard rows.count == 2 else {
                throw fail("resultSets.\(set).rowSet", "\(rows.count) rows of game \(game), not 2")
            }
            gameId = game
            let date = try Self.text(rows[0], "GAME_DATE", set)
            let parts = date.prefix(10).split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { throw fail("resultSets.\(set).GAME_DATE", "not a date: \(date)") }
            day = (parts[0], parts[1], parts[2])
            var final = true
            var home: (id: Int, team: Team)?
            var away: (id: Int, team: Team)?
            for row in rows {
                let team = Team(
                    code: try Self.text(row, "TEAM_ABBREVIATION", set),
                    name: try Self.text(row, "TEAM_NAME", set).clipped(to: 64), logo: "")
                let entry = (try Self.int(row, "TEAM_ID", set), team)
                let matchup = try Self.text(row, "MATCHUP", set)
                if matchup.contains(" @ ") {
                    away = entry
                } else if matchup.contains(" vs. ") {
                    home = entry
                } else {
                    throw fail("resultSets.\(set).MATCHUP", "neither TEAM @ TEAM nor TEAM vs. TEAM: \(matchup)")
                }
                if case .string(let result) = row["WL"], !result.isEmpty {} else { final = false }
            }
            guard let home, let away else {
                throw fail("resultSets.\(set).MATCHUP", "no home team and visitor in game \(game)")
            }
            self.final = final
            self.home = home
            self.away = away
        }

        /// The rows of result set `name`, each as header → value.
        static func rows(_ document: JSONValue, _ name: String) throws(ConvertError) -> [JSONObject] {
            guard case .array(let sets) = NBALive.optional(document, "resultSets") else {
                throw fail("resultSets", "missing")
            }
            for set in sets {
                guard case .string(name) = NBALive.optional(set, "name") else { continue }
                guard case .array(let headers) = NBALive.optional(set, "headers"),
                    case .array(let rows) = NBALive.optional(set, "rowSet")
                else { throw fail("resultSets.\(name)", "no headers or rowSet") }
                let keys = headers.map { if case .string(let key) = $0 { key } else { "" } }
                return JSONObject.table(
                    keys: keys, rows: rows.map { if case .array(let values) = $0 { values } else { [] } })
            }
            throw fail("resultSets", "no \(name)")
        }

        static func text(_ row: JSONObject, _ key: String, _ set: String) throws(ConvertError) -> String {
            guard case .string(let value) = row[key] else {
                throw fail("resultSets.\(set).\(key)", "expected a string")
            }
            return value
        }

        static func int(_ row: JSONObject, _ key: String, _ set: String) throws(ConvertError) -> Int {
            guard case .int(let value) = row[key] else { throw fail("resultSets.\(set).\(key)", "expected an integer") }
            return value
        }
    }

    /// `"Start of 1st Period (7:11 PM EST)"` → minutes after midnight and the UTC offset in hours.
    static func wallTime(_ description: String) -> (minutes: Int, offset: Int)? {
        guard let open = description.lastIndex(of: "("), description.hasSuffix(")") else { return nil }
        let words = description[description.index(after: open)..<description.index(before: description.endIndex)]
            .split(separator: " ")
        guard words.count == 3, let colon = words[0].firstIndex(of: ":"),
            let hour = Int(words[0][..<colon]), let minute = Int(words[0][words[0].index(after: colon)...]),
            (1...12).contains(hour), (0..<60).contains(minute), words[1] == "AM" || words[1] == "PM"
        else { return nil }
        let offset: Int
        switch words[2] {
        case "EST": offset = -5
        case "EDT": offset = -4
        default: return nil
        }
        return ((hour % 12 + (words[1] == "PM" ? 12 : 0)) * 60 + minute, offset)
    }

    /// The actions in `actionId` order, mapped to the live format's kinds, each with a derived `at`:
    /// a period's start and end at the wall time its description states (minutes, US Eastern, on the
    /// summary's day), a play at its period's start plus the game time elapsed in the period.
    static func actions(_ game: JSONValue, day: (year: Int, month: Int, day: Int)) throws(ConvertError)
        -> [NBALive.Action]
    {
        guard case .array(let entries) = try NBALive.member(game, "actions", "game") else {
            throw NBALive.fail("game.actions", "expected an array")
        }
        var indexed: [(id: Int, index: Int, value: JSONValue)] = []
        for (index, entry) in entries.enumerated() {
            indexed.append((try NBALive.int(entry, "actionId", "game.actions[\(index)]"), index, entry))
        }
        indexed.sort { ($0.id, $0.index) < ($1.id, $1.index) }
        var components = DateComponents()
        (components.year, components.month, components.day) = (day.year, day.month, day.day)
        components.timeZone = TimeZone(identifier: "UTC")
        let midnight = Calendar(identifier: .gregorian).date(from: components) ?? Date(timeIntervalSince1970: 0)
        var periodStart = midnight
        var latest = midnight
        var actions: [NBALive.Action] = []
        for entry in indexed {
            var path: String { "game.actions[\(entry.index)]" }
            // The action's fields read from one object, not taken out of the value again for each.
            guard case .object(let value) = entry.value else { throw NBALive.fail(path, "expected an object") }
            let period = try NBALive.int(value, "period", path)
            guard (1...99).contains(period) else { throw NBALive.fail("\(path).period", "not a period: \(period)") }
            let clock = try NBALive.clockMs(try NBALive.string(value, "clock", path), "\(path).clock")
            var description: String { (try? NBALive.string(value, "description", path)) ?? "" }
            var type = try NBALive.string(value, "actionType", path)
            var subType = ""
            if case .string(let text) = NBALive.optional(value, "subType") { subType = text }
            var made = false
            var at: Date
            let length = period > 4 ? 300_000 : 720_000
            switch type {
            case "period":
                guard let wall = wallTime(description) else {
                    throw NBALive.fail("\(path).description", "no wall time like (7:11 PM EST): \(description)")
                }
                at = midnight.addingTimeInterval(Double(wall.minutes * 60 - wall.offset * 3600))
                // Past midnight Eastern: the next day.
                while at < latest.addingTimeInterval(-6 * 3600) { at.addTimeInterval(86_400) }
                if subType == "start" { periodStart = at }
            case "Made Shot":
                let value = try NBALive.int(value, "shotValue", path)
                guard value == 2 || value == 3 else {
                    throw NBALive.fail("\(path).shotValue", "a made shot worth \(value)")
                }
                type = value == 3 ? "3pt" : "2pt"
                made = true
                at = periodStart.addingTimeInterval(Double(length - (clock ?? length)) / 1000)
            case "Free Throw":
                type = "freethrow"
                made = !description.hasPrefix("MISS")
                at = periodStart.addingTimeInterval(Double(length - (clock ?? length)) / 1000)
            default:
                at = periodStart.addingTimeInterval(Double(length - (clock ?? length)) / 1000)
            }
            latest = max(latest, at)
            var teamId: Int?
            if let team = NBALive.optional(value, "teamId"), team != .int(0) {
                teamId = try NBALive.int(value, "teamId", path)
            }
            var player: String?
            if case .string(let text) = NBALive.optional(value, "playerNameI"), !text.isEmpty {
                player = text.clipped(to: 64)
            }
            actions.append(
                NBALive.Action(
                    number: try NBALive.int(value, "actionNumber", path), order: entry.id, period: period,
                    overtime: period > 4, type: type, subType: subType, clockMs: clock, at: at, edited: nil,
                    teamId: teamId, tricode: nil, player: player, made: made,
                    scoreHome: try NBALive.score(value, "scoreHome", path),
                    scoreAway: try NBALive.score(value, "scoreAway", path), index: entry.index,
                    derived: type != "period"))
        }
        return actions
    }
}
