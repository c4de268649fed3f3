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
        let read: @Sendable (ScoreState) -> JSONValue
        let write: @Sendable (inout ScoreState, JSONValue?) throws(StateFieldError) -> Void
        let equal: @Sendable (ScoreState, ScoreState) -> Bool

        /// - Parameter absent: the value of a stored state that predates the field.
        init<Value: StateFieldValue>(
            _ key: String, _ path: WritableKeyPath<ScoreState, Value>, shown: Bool = true, absent: Value? = nil
        ) {
            nonisolated(unsafe) let path = path
            self.key = key
            self.shown = shown
            read = { $0[keyPath: path].stateJSON }
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
    }

    /// Every stored field of a state, once. The canonical JSON and its reader, equality, the
    /// projection's storage and the throttle's storage all go through this table: a new field is
    /// its declaration, its line here, and the places that genuinely use it.
    public static let fields: [Field] = [
        Field("gameId", \.gameId), Field("home", \.home), Field("away", \.away), Field("startsAt", \.startsAt),
        Field("homeScore", \.homeScore), Field("awayScore", \.awayScore), Field("inningNumber", \.inningNumber),
        Field("half", \.half), Field("outs", \.outs), Field("bases", \.bases, absent: .empty),
        Field("status", \.status), Field("version", \.version, shown: false),
        Field("updatedAt", \.updatedAt, shown: false),
    ]

    /// Reads the JSON of ``jsonValue`` (the display `inning` is derived and ignored).
    ///
    /// - Throws: ``StateFieldError`` naming the first missing or wrong field.
    public init(json: JSONValue) throws(StateFieldError) {
        guard case .object(let members) = json else { throw StateFieldError("a state must be a JSON object") }
        let blank = Team(code: "", name: "", logo: "")
        self.init(gameId: "", home: blank, away: blank, startsAt: .distantPast, updatedAt: .distantPast)
        for field in Self.fields { try field.write(&self, members[field.key]) }
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
