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
        /// `edited` as the document gives it (`2021-01-16T00:40:50Z`).
        var edited: String?
        var teamId: Int?
        var tricode: String?
        var player: String?
        var made: Bool
        var scoreHome: Int?
        var scoreAway: Int?
        /// The action's index in `game.actions`: its field path for errors, made into text only for one.
        var index: Int
        /// `edited`, letters and digits only (`20210116T004050Z`), part of the message ids: made only for
        /// the actions that become messages (byte by byte: CharacterSet.contains was a fifth of a
        /// conversion).
        var stamp: String? {
            edited.map { String(decoding: $0.utf8.filter(UInt8.isASCIIAlphanumeric), as: UTF8.self) }
        }
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

    static func member(_ value: some JSONFields, _ key: String, _ path: @autoclosure () -> String)
        throws(ConvertError) -> JSONValue
    {
        guard value.isObject else { throw fail(path(), "expected an object") }
        guard let found = optional(value, key) else { throw fail(path().isEmpty ? key : "\(path()).\(key)", "missing") }
        return found
    }

    static func optional(_ value: some JSONFields, _ key: String) -> JSONValue? {
        guard let found = value.field(key) else { return nil }
        if case .null = found { return nil }
        return found
    }

    static func string(_ value: some JSONFields, _ key: String, _ path: @autoclosure () -> String)
        throws(ConvertError) -> String
    {
        guard case .string(let text) = try member(value, key, path()) else {
            throw fail("\(path()).\(key)", "expected a string")
        }
        return text
    }

    static func int(_ value: some JSONFields, _ key: String, _ path: @autoclosure () -> String) throws(ConvertError)
        -> Int
    {
        switch try member(value, key, path()) {
        case .int(let number): return number
        case .double(let number) where number == number.rounded(): return Int(number)
        default: throw fail("\(path()).\(key)", "expected an integer")
        }
    }

    static func date(_ value: some JSONFields, _ key: String, _ path: @autoclosure () -> String) throws(ConvertError)
        -> Date
    {
        let text = try string(value, key, path())
        guard let date = parseRFC3339(text) else { throw fail("\(path()).\(key)", "not an RFC 3339 time: \(text)") }
        return date
    }

    /// `"PT04M32.00S"` → 272 000 ms; `nil` for an empty clock. Read byte by byte: minutes, then seconds
    /// with up to three decimals (rounded to the millisecond).
    static func clockMs(_ text: String, _ path: @autoclosure () -> String) throws(ConvertError) -> Int? {
        if text.isEmpty { return nil }
        guard let ms = isoClockMs(text.utf8) else { throw fail(path(), "not a clock like PT04M32.00S: \(text)") }
        return ms
    }

    /// `PT<minutes>M<seconds>[.<fraction>]S` in milliseconds, or `nil`.
    private static func isoClockMs(_ text: String.UTF8View) -> Int? {
        var bytes = text.makeIterator()
        guard bytes.next() == UInt8(ascii: "P"), bytes.next() == UInt8(ascii: "T") else { return nil }
        // Each part: its value, its count of digits and the byte after it.
        var minutes = 0
        var minuteDigits = 0
        var byte = bytes.next()
        while let digit = byte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit), minuteDigits < 6 {
            minutes = minutes * 10 + Int(digit &- UInt8(ascii: "0"))
            minuteDigits += 1
            byte = bytes.next()
        }
        guard minuteDigits > 0, byte == UInt8(ascii: "M") else { return nil }
        var seconds = 0
        var secondDigits = 0
        byte = bytes.next()
        while let digit = byte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit), secondDigits < 2 {
            seconds = seconds * 10 + Int(digit &- UInt8(ascii: "0"))
            secondDigits += 1
            byte = bytes.next()
        }
        guard secondDigits > 0, seconds < 60 else { return nil }
        var ms = minutes * 60_000 + seconds * 1000
        if byte == UInt8(ascii: ".") {
            // The fraction's first four digits, in units of 10^-4 s, decide the millisecond (rounded half up).
            var units = 0
            var fractionDigits = 0
            byte = bytes.next()
            while let digit = byte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit), fractionDigits < 9 {
                if fractionDigits < 4 { units = units * 10 + Int(digit &- UInt8(ascii: "0")) }
                fractionDigits += 1
                byte = bytes.next()
            }
            guard fractionDigits > 0 else { return nil }
            for _ in min(fractionDigits, 4)..<4 { units *= 10 }
            ms += (units + 5) / 10
        }
        guard byte == UInt8(ascii: "S"), bytes.next() == nil else { return nil }
        return ms
    }

    /// A running score field: a string of digits (`"102"`), or empty/absent for none.
    static func score(_ value: some JSONFields, _ key: String, _ path: @autoclosure () -> String) throws(ConvertError)
        -> Int?
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

    static func action(_ value: JSONValue, index: Int) throws(ConvertError) -> Action {
        // The path's text only for an error: making it for every action was a sixth of the records' memory.
        var path: String { "game.actions[\(index)]" }
        guard case .object(let fields) = value else { throw fail(path, "expected an object") }
        let number = try int(fields, "actionNumber", path)
        let order = optional(fields, "orderNumber") == nil ? number : try int(fields, "orderNumber", path)
        let period = try int(fields, "period", path)
        guard period >= 1, period <= 99 else { throw fail("\(path).period", "not a period: \(period)") }
        var edited: String?
        if case .string(let text) = optional(fields, "edited") { edited = text }
        var teamId: Int?
        if let team = optional(fields, "teamId"), team != .int(0) { teamId = try int(fields, "teamId", path) }
        var tricode: String?
        if case .string(let code) = optional(fields, "teamTricode"), !code.isEmpty { tricode = code }
        var player: String?
        if case .string(let text) = optional(fields, "playerNameI"), !text.isEmpty { player = text.clipped(to: 64) }
        var subType = ""
        if case .string(let text) = optional(fields, "subType") { subType = text }
        var made = false
        if case .string(let result) = optional(fields, "shotResult") { made = result == "Made" }
        var overtime = period > 4
        if case .string(let kind) = optional(fields, "periodType") { overtime = kind == "OVERTIME" }
        return Action(
            number: number, order: order, period: period, overtime: overtime,
            type: try string(fields, "actionType", path), subType: subType,
            clockMs: try clockMs(try string(fields, "clock", path), "\(path).clock"),
            at: try date(fields, "timeActual", path), edited: edited, teamId: teamId, tricode: tricode,
            player: player, made: made, scoreHome: try score(fields, "scoreHome", path),
            scoreAway: try score(fields, "scoreAway", path), index: index)
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
        return (try int(team, "teamId", path), Team(code: code, name: name.clipped(to: 64), logo: ""))
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

/// A JSON value, or an object already taken out of one (read many times without taking it out again):
/// what the NBA formats' field readers read.
protocol JSONFields {
    /// Whether it is an object.
    var isObject: Bool { get }
    /// The member `key`, if it is an object that has one.
    func field(_ key: String) -> JSONValue?
}

extension JSONValue: JSONFields {
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    func field(_ key: String) -> JSONValue? { member(key) }
}

extension JSONObject: JSONFields {
    var isObject: Bool { true }

    func field(_ key: String) -> JSONValue? { self[key] }
}
