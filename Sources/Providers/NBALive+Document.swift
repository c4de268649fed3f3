import Foundation
import ScoreDomain

/// The parts of NBA live-data documents the converter reads, checked field by field.
extension NBALive {
    /// One entry of a play-by-play document's `game.actions`.
    struct Action {
        /// `actionNumber`: the provider's id of the play (sequential, not consecutive).
        var number: Int
        /// `orderNumber`: the game order (`actionNumber` when absent).
        var order: Int
        var period: Int
        var overtime: Bool
        var type: String
        var subType: String
        var clockMs: Int?
        var at: Date
        /// `edited`, letters and digits only (`20210116T004050Z`), part of the message ids.
        var stamp: String?
        var teamId: Int?
        var tricode: String?
        var player: String?
        var made: Bool
        var scoreHome: Int?
        var scoreAway: Int?
        /// The action's index in `game.actions`: its field path for errors, made into text only for one.
        var index: Int
        /// Whether `at` is derived by a rule rather than stated by a wall-clock field (nba-stats-v3's plays).
        var derived = false

        /// The field path of the action, such as `game.actions[12]`.
        var path: String { "game.actions[\(index)]" }

        /// The points of a made shot or free throw, with its kind; `nil` for every other action.
        var scored: (points: Int, kind: ScoringKind)? {
            guard made else { return nil }
            switch type {
            case "2pt": return (2, .two)
            case "3pt": return (3, .three)
            case "freethrow": return (1, .freeThrow)
            default: return nil
            }
        }
    }

    /// A play-by-play document: its game id and actions in game order.
    struct PlayByPlay {
        var gameId: String
        var actions: [Action]
    }

    /// The box score's teams and start time.
    struct BoxScore {
        var gameId: String
        var startsAt: Date
        var home: (id: Int, team: Team)
        var away: (id: Int, team: Team)
    }

    static func fail(_ field: String, _ reason: String) -> ConvertError {
        ConvertError(format: name, field: field, reason: reason)
    }

    static func member(_ value: JSONValue, _ key: String, _ path: @autoclosure () -> String) throws(ConvertError)
        -> JSONValue
    {
        guard case .object(let members) = value else { throw fail(path(), "expected an object") }
        guard let found = members[key], found != .null else {
            throw fail(path().isEmpty ? key : "\(path()).\(key)", "missing")
        }
        return found
    }

    static func optional(_ value: JSONValue, _ key: String) -> JSONValue? {
        guard case .object(let members) = value, let found = members[key], found != .null else { return nil }
        return found
    }

    static func string(_ value: JSONValue, _ key: String, _ path: @autoclosure () -> String) throws(ConvertError)
        -> String
    {
        guard case .string(let text) = try member(value, key, path()) else {
            throw fail("\(path()).\(key)", "expected a string")
        }
        return text
    }

    static func int(_ value: JSONValue, _ key: String, _ path: @autoclosure () -> String) throws(ConvertError) -> Int {
        switch try member(value, key, path()) {
        case .int(let number): return number
        case .double(let number) where number == number.rounded(): return Int(number)
        default: throw fail("\(path()).\(key)", "expected an integer")
        }
    }

    static func date(_ value: JSONValue, _ key: String, _ path: @autoclosure () -> String) throws(ConvertError) -> Date
    {
        let text = try string(value, key, path())
        guard let date = parseRFC3339(text) else { throw fail("\(path()).\(key)", "not an RFC 3339 time: \(text)") }
        return date
    }

    /// `"PT04M32.00S"` → 272 000 ms; `nil` for an empty clock.
    static func clockMs(_ text: String, _ path: @autoclosure () -> String) throws(ConvertError) -> Int? {
        if text.isEmpty { return nil }
        guard text.hasPrefix("PT"), text.hasSuffix("S"), let m = text.firstIndex(of: "M"),
            let minutes = Int(text[text.index(text.startIndex, offsetBy: 2)..<m]),
            let seconds = Double(text[text.index(after: m)..<text.index(before: text.endIndex)]),
            minutes >= 0, seconds >= 0, seconds < 60
        else { throw fail(path(), "not a clock like PT04M32.00S: \(text)") }
        return minutes * 60_000 + Int((seconds * 1000).rounded())
    }

    /// A running score field: a string of digits (`"102"`), or empty/absent for none.
    static func score(_ value: JSONValue, _ key: String, _ path: @autoclosure () -> String) throws(ConvertError) -> Int?
    {
        switch optional(value, key) {
        case nil: return nil
        case .string(let text) where text.isEmpty: return nil
        case .string(let text):
            guard let number = Int(text), number >= 0 else { throw fail("\(path()).\(key)", "not a score: \(text)") }
            return number
        case .int(let number) where number >= 0: return number
        default: throw fail("\(path()).\(key)", "expected a score")
        }
    }

    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    static func action(_ value: JSONValue, index: Int) throws(ConvertError) -> Action {
        // The path's text only for an error: making it for every action was a sixth of the records' memory.
        var path: String { "game.actions[\(index)]" }
        let number = try int(value, "actionNumber", path)
        let order = optional(value, "orderNumber") == nil ? number : try int(value, "orderNumber", path)
        let period = try int(value, "period", path)
        guard period >= 1, period <= 99 else { throw fail("\(path).period", "not a period: \(period)") }
        var stamp: String?
        if case .string(let edited) = optional(value, "edited") {
            // ASCII letters and digits, byte by byte (CharacterSet.contains was a fifth of a conversion).
            stamp = String(decoding: edited.utf8.filter { isASCIIAlphanumeric($0) }, as: UTF8.self)
        }
        var teamId: Int?
        if let team = optional(value, "teamId"), team != .int(0) { teamId = try int(value, "teamId", path) }
        var tricode: String?
        if case .string(let code) = optional(value, "teamTricode"), !code.isEmpty { tricode = code }
        var player: String?
        if case .string(let text) = optional(value, "playerNameI"), !text.isEmpty { player = String(text.prefix(64)) }
        var subType = ""
        if case .string(let text) = optional(value, "subType") { subType = text }
        var made = false
        if case .string(let result) = optional(value, "shotResult") { made = result == "Made" }
        var overtime = period > 4
        if case .string(let kind) = optional(value, "periodType") { overtime = kind == "OVERTIME" }
        return Action(
            number: number, order: order, period: period, overtime: overtime,
            type: try string(value, "actionType", path), subType: subType,
            clockMs: try clockMs(try string(value, "clock", path), "\(path).clock"),
            at: try date(value, "timeActual", path), stamp: stamp, teamId: teamId, tricode: tricode,
            player: player, made: made, scoreHome: try score(value, "scoreHome", path),
            scoreAway: try score(value, "scoreAway", path), index: index)
    }

    static func playByPlay(_ document: JSONValue) throws(ConvertError) -> PlayByPlay {
        let game = try member(document, "game", "")
        let gameId = try string(game, "gameId", "game")
        guard case .array(let entries) = try member(game, "actions", "game") else {
            throw fail("game.actions", "expected an array")
        }
        var actions: [Action] = []
        actions.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            actions.append(try action(entry, index: index))
        }
        // Game order: orderNumber; actionNumber breaks a tie. Sorted only when not already (a sort's scratch
        // space is half the actions again).
        let inOrder = { (a: Action, b: Action) in (a.order, a.number) < (b.order, b.number) }
        if zip(actions, actions.dropFirst()).contains(where: { inOrder($1, $0) }) { actions.sort(by: inOrder) }
        return PlayByPlay(gameId: gameId, actions: actions)
    }

    static func boxTeam(_ game: JSONValue, _ key: String) throws(ConvertError) -> (id: Int, team: Team) {
        let team = try member(game, key, "game")
        let path = "game.\(key)"
        let code = try string(team, "teamTricode", path)
        let city = (try? string(team, "teamCity", path)) ?? ""
        let nickname = (try? string(team, "teamName", path)) ?? code
        let name = city.isEmpty ? nickname : "\(city) \(nickname)"
        return (try int(team, "teamId", path), Team(code: code, name: String(name.prefix(64)), logo: ""))
    }

    static func boxScore(_ document: JSONValue) throws(ConvertError) -> BoxScore {
        let game = try member(document, "game", "")
        return BoxScore(
            gameId: try string(game, "gameId", "game"), startsAt: try date(game, "gameTimeUTC", "game"),
            home: try boxTeam(game, "homeTeam"), away: try boxTeam(game, "awayTeam"))
    }

    /// Whether the document is a box score (a game with `homeTeam`) rather than a play-by-play.
    static func isBoxScore(_ document: JSONValue) -> Bool {
        guard let game = optional(document, "game") else { return false }
        return optional(game, "homeTeam") != nil && optional(game, "actions") == nil
    }
}
