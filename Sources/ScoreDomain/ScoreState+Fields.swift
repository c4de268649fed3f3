import Foundation

/// A value a ``ScoreState`` field holds, as it reads and writes in JSON.
public protocol StateFieldValue: Sendable, Equatable {
    var stateJSON: JSONValue { get }
    init(stateJSON: JSONValue) throws(StateFieldError)
}

/// A stored state whose JSON is not a state: the field and why.
public struct StateFieldError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension ScoreState {
    /// One stored field of a state: its JSON key, whether a fan sees it, and how it reads, writes
    /// and compares. ``fields`` lists them all, once.
    public struct Field: Sendable {
        public let key: String
        /// Part of what a fan sees; `version` and `updatedAt` are bookkeeping.
        public let shown: Bool
        /// The field's JSON, or `nil` when the state does not write it (a value that is absent, a
        /// field of another sport).
        let read: @Sendable (ScoreState) -> JSONValue?
        let write: @Sendable (inout ScoreState, JSONValue?) throws(StateFieldError) -> Void
        let equal: @Sendable (ScoreState, ScoreState) -> Bool

        /// - Parameters:
        ///   - absent: the value of a stored state that predates the field (or does not write it).
        ///   - written: whether a state writes the field (by default every state does).
        init<Value: StateFieldValue>(
            _ key: String, _ path: WritableKeyPath<ScoreState, Value>, shown: Bool = true, absent: Value? = nil,
            written: (@Sendable (ScoreState) -> Bool)? = nil
        ) {
            nonisolated(unsafe) let path = path
            self.key = key
            self.shown = shown
            if let written {
                read = { written($0) ? $0[keyPath: path].stateJSON : nil }
            } else {
                read = { $0[keyPath: path].stateJSON }
            }
            equal = { $0[keyPath: path] == $1[keyPath: path] }
            write = { state, json throws(StateFieldError) in
                guard let json else {
                    guard let absent else { throw StateFieldError("missing \"\(key)\"") }
                    state[keyPath: path] = absent
                    return
                }
                do throws(StateFieldError) {
                    state[keyPath: path] = try Value(stateJSON: json)
                } catch {
                    throw StateFieldError("\"\(key)\": \(error.description)")
                }
            }
        }

        /// An optional field: written only when it has a value, `nil` when absent.
        init<Value: StateFieldValue>(_ key: String, _ path: WritableKeyPath<ScoreState, Value?>) {
            nonisolated(unsafe) let path = path
            self.key = key
            self.shown = true
            read = { $0[keyPath: path]?.stateJSON }
            equal = { $0[keyPath: path] == $1[keyPath: path] }
            write = { state, json throws(StateFieldError) in
                guard let json else {
                    state[keyPath: path] = nil
                    return
                }
                do throws(StateFieldError) {
                    state[keyPath: path] = try Value(stateJSON: json)
                } catch {
                    throw StateFieldError("\"\(key)\": \(error.description)")
                }
            }
        }
    }

    /// Every stored field of a state, once. The canonical JSON and its reader, equality, the
    /// projection's storage and the throttle's storage all go through this table: a new field is
    /// its declaration, its line here, and the places that genuinely use it. Baseball's fields are
    /// written for baseball only, the clock sports' for them only.
    public static let fields: [Field] = {
        let baseball: @Sendable (ScoreState) -> Bool = { $0.sport == .baseball }
        let clockSport: @Sendable (ScoreState) -> Bool = { $0.sport != .baseball }
        let nonEmpty: @Sendable (ScoreState) -> Bool = { !$0.retracted.isEmpty }
        return [
            Field("gameId", \.gameId), Field("home", \.home), Field("away", \.away), Field("startsAt", \.startsAt),
            Field("homeScore", \.homeScore), Field("awayScore", \.awayScore),
            Field("inningNumber", \.inningNumber, absent: 0, written: baseball),
            Field("half", \.half, absent: .top, written: baseball), Field("outs", \.outs, absent: 0, written: baseball),
            Field("bases", \.bases, absent: .empty, written: baseball),
            Field("status", \.status), Field("version", \.version, shown: false),
            Field("updatedAt", \.updatedAt, shown: false),
            Field("sport", \.sport, absent: .baseball),
            Field("rules", \.rules, absent: GameSetup.baseball.rules, written: clockSport),
            Field("periodNumber", \.periodNumber, absent: 0, written: clockSport),
            Field("periodEnded", \.periodEnded, absent: false, written: clockSport),
            Field("clock", \.clock), Field("shootout", \.shootout), Field("situation", \.situation),
            Field("redCards", \.redCards, absent: SideTally(), written: { $0.sport == .soccer }),
            Field("scoring", \.scoring, absent: Chain()),
            Field("cards", \.cards, absent: Chain(), written: { $0.sport == .soccer }),
            Field("shootoutAttempts", \.shootoutAttempts, absent: Chain(), written: { $0.shootout != nil }),
            Field("retracted", \.retracted, absent: Chain(), written: nonEmpty),
        ]
    }()

    /// Reads the JSON of ``jsonValue`` (the display `inning` is derived and ignored).
    ///
    /// - Throws: ``StateFieldError`` naming the first missing or wrong field.
    public init(json: JSONValue) throws(StateFieldError) {
        guard case .object(let members) = json else { throw StateFieldError("a state must be a JSON object") }
        let blank = Team(code: "", name: "", logo: "")
        self.init(gameId: "", home: blank, away: blank, startsAt: .distantPast, updatedAt: .distantPast)
        // The sport first: the rules' default depends on it.
        for field in Self.fields where field.key == "sport" { try field.write(&self, members[field.key]) }
        for field in Self.fields where field.key != "sport" { try field.write(&self, members[field.key]) }
    }

    /// Field-by-field equality of all stored values (`inning` is derived).
    public static func == (lhs: ScoreState, rhs: ScoreState) -> Bool {
        fields.allSatisfy { $0.equal(lhs, rhs) }
    }
}

extension StateFieldValue where Self: RawRepresentable, RawValue == String {
    public var stateJSON: JSONValue { .string(rawValue) }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        guard case .string(let text) = stateJSON, let value = Self(rawValue: text) else {
            throw StateFieldError("not a \(Self.self)")
        }
        self = value
    }
}

extension Half: StateFieldValue {}
extension GameStatus: StateFieldValue {}

extension Int: StateFieldValue {
    public var stateJSON: JSONValue { .int(self) }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        guard case .int(let value) = stateJSON else { throw StateFieldError("not an integer") }
        self = value
    }
}

extension String: StateFieldValue {
    public var stateJSON: JSONValue { .string(self) }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        guard case .string(let value) = stateJSON else { throw StateFieldError("not a string") }
        self = value
    }
}

extension Date: StateFieldValue {
    /// RFC 3339 with milliseconds, as every date of the feed.
    public var stateJSON: JSONValue { .string(rfc3339(self)) }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        guard case .string(let text) = stateJSON, let date = parseRFC3339(text) else {
            throw StateFieldError("not an RFC 3339 timestamp")
        }
        self = date
    }
}

extension Team: StateFieldValue {
    public var stateJSON: JSONValue { jsonValue }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        guard case .object(let members) = stateJSON, case .string(let code)? = members["code"],
            case .string(let name)? = members["name"], case .string(let logo)? = members["logo"]
        else { throw StateFieldError("not a team {code, name, logo}") }
        self.init(code: code, name: name, logo: logo)
    }
}

extension Bases: StateFieldValue {
    public var stateJSON: JSONValue { jsonValue }
    public init(stateJSON: JSONValue) throws(StateFieldError) {
        guard case .object(let members) = stateJSON else { throw StateFieldError("not bases {first, second, third}") }
        func base(_ name: String) throws(StateFieldError) -> Bool {
            switch members[name] {
            case .bool(let on)?: return on
            case nil: return false
            default: throw StateFieldError("\(name) is not a boolean")
            }
        }
        self.init(first: try base("first"), second: try base("second"), third: try base("third"))
    }
}
