import Foundation

// How the sports' values of a ScoreState read and write in its JSON (docs/sports.md, "What a game shows").

extension Sport: StateFieldValue {}

extension Bool: StateFieldValue {
    public var stateJSON: JSONValue { .bool(self) }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        guard case .bool(let value) = stateJSON else { throw StateFieldError("not a boolean") }
        self = value
    }
}

/// Reads the members of one object of a stored state.
private struct StateObject {
    let members: JSONObject
    let what: String

    init(_ json: JSONValue, _ what: String) throws(StateFieldError) {
        guard case .object(let members) = json else { throw StateFieldError("not \(what)") }
        self.members = members
        self.what = what
    }

    func value<Value: StateFieldValue>(_ key: String) throws(StateFieldError) -> Value {
        guard let json = members[key] else { throw StateFieldError("\(what) without \"\(key)\"") }
        return try Value(stateJSON: json)
    }

    func optional<Value: StateFieldValue>(_ key: String) throws(StateFieldError) -> Value? {
        guard let json = members[key] else { return nil }
        return try Value(stateJSON: json)
    }
}

extension GameRules: StateFieldValue {
    public var stateJSON: JSONValue {
        guard case .object(var members) = overridesJSON else { return overridesJSON }
        members["competition"] = .string(competition)
        return .object(members)
    }

    public init(stateJSON: JSONValue) throws(StateFieldError) {
        let object = try StateObject(stateJSON, "rules")
        let overtimes: Int?
        switch object.members["overtimes"] {
        case .string("unlimited")?: overtimes = nil
        case .int(let count)?: overtimes = count
        default: throw StateFieldError("rules without \"overtimes\"")
        }
        self.init(
            competition: try object.value("competition"), periods: try object.value("periods"),
            periodMinutes: try object.value("periodMinutes"), overtimes: overtimes,
            overtimeMinutes: try object.value("overtimeMinutes"), shootout: try object.value("shootout"),
            tieStands: try object.value("tieStands"),
            clockToleranceMs: (try object.value("clockToleranceSeconds") as Int) * 1000,
            firstLeg: try object.members["firstLeg"].map { leg throws(StateFieldError) in
                let goals = try StateObject(leg, "firstLeg")
                return SideTally(home: try goals.value("home"), away: try goals.value("away"))
            })
    }
}

extension GameClock: StateFieldValue {
    /// `{"at","countsDown","ms","running","value"}`: `value` is the display of `ms` (derived).
    public var stateJSON: JSONValue {
        .object([
            "at": .string(rfc3339(at)), "ms": .int(ms), "running": .bool(running), "countsDown": .bool(countsDown),
            "value": .string(GameClock.display(ms, countsDown: countsDown)),
        ])
    }

    public init(stateJSON: JSONValue) throws(StateFieldError) {
        let object = try StateObject(stateJSON, "a clock")
        self.init(
            at: try object.value("at"), ms: try object.value("ms"), running: try object.value("running"),
            countsDown: try object.value("countsDown"))
    }
}

extension SideTally: StateFieldValue {
    public var stateJSON: JSONValue { .object(["home": .int(home), "away": .int(away)]) }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        let object = try StateObject(stateJSON, "a tally {home, away}")
        self.init(home: try object.value("home"), away: try object.value("away"))
    }
}

extension Side: StateFieldValue {}
extension Card: StateFieldValue {}
extension ScoringKind: StateFieldValue {}

extension Situation: StateFieldValue {
    public var stateJSON: JSONValue {
        var members: JSONObject = ["possession": .string(possession.rawValue)]
        if let down, let distance, let yardLine {
            members["down"] = .int(down)
            members["distance"] = .int(distance)
            members["yardLine"] = .int(yardLine)
        }
        return .object(members)
    }

    public init(stateJSON: JSONValue) throws(StateFieldError) {
        let object = try StateObject(stateJSON, "a situation")
        self.init(
            possession: try object.value("possession"), down: try object.optional("down"),
            distance: try object.optional("distance"), yardLine: try object.optional("yardLine"))
    }
}

extension ScoringPlay: StateFieldValue {
    public var stateJSON: JSONValue {
        var members: JSONObject = [
            "id": .string(id), "period": .int(period), "kind": .string(kind.rawValue),
            "homeScore": .int(homeScore), "awayScore": .int(awayScore),
        ]
        if let side {
            members["side"] = .string(side.rawValue)
            members["points"] = .int(points)
        } else {
            members["homeChange"] = .int(homeChange)
            members["awayChange"] = .int(awayChange)
        }
        if let clock { members["clock"] = .string(clock) }
        if let player { members["player"] = .string(player) }
        return .object(members)
    }

    public init(stateJSON: JSONValue) throws(StateFieldError) {
        let object = try StateObject(stateJSON, "a scoring play")
        self.init(
            id: try object.value("id"), period: try object.value("period"), clock: try object.optional("clock"),
            side: try object.optional("side"), points: try object.optional("points") ?? 0,
            kind: try object.value("kind"),
            player: try object.optional("player"), homeChange: try object.optional("homeChange") ?? 0,
            awayChange: try object.optional("awayChange") ?? 0, homeScore: try object.value("homeScore"),
            awayScore: try object.value("awayScore"))
    }
}

extension CardShown: StateFieldValue {
    public var stateJSON: JSONValue {
        var members: JSONObject = [
            "id": .string(id), "side": .string(side.rawValue), "card": .string(card.rawValue), "period": .int(period),
        ]
        if let player { members["player"] = .string(player) }
        if let clock { members["clock"] = .string(clock) }
        return .object(members)
    }

    public init(stateJSON: JSONValue) throws(StateFieldError) {
        let object = try StateObject(stateJSON, "a card")
        self.init(
            id: try object.value("id"), side: try object.value("side"), card: try object.value("card"),
            player: try object.optional("player"), period: try object.value("period"),
            clock: try object.optional("clock"))
    }
}

extension ShootoutAttempt: StateFieldValue {
    public var stateJSON: JSONValue {
        var members: JSONObject = ["id": .string(id), "side": .string(side.rawValue), "scored": .bool(scored)]
        if let player { members["player"] = .string(player) }
        return .object(members)
    }

    public init(stateJSON: JSONValue) throws(StateFieldError) {
        let object = try StateObject(stateJSON, "a shoot-out attempt")
        self.init(
            id: try object.value("id"), side: try object.value("side"), scored: try object.value("scored"),
            player: try object.optional("player"))
    }
}

extension Chain: StateFieldValue where Element: StateFieldValue {
    public var stateJSON: JSONValue { .array(elements.map(\.stateJSON)) }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        guard case .array(let items) = stateJSON else { throw StateFieldError("not a list") }
        self.init()
        for item in items { append(try Element(stateJSON: item)) }
    }
}
