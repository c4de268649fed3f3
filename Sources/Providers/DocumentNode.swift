import Foundation
import ScoreDomain

/// A value of a provider document (NHL api-web and statsapi, Sportradar NFL) with the path it was read at, so that a missing or
/// mistyped field becomes a ``ConvertError`` naming the format and the field (`plays[12].details.homeScore`).
struct DocumentNode {
    let value: JSONValue?
    /// Where the value was read: a location object and, for a member not yet made one, its own step
    /// (its location is `base` + `step`); the root's location holds the format's name, so a node is one
    /// value, one reference and a step. The path becomes text only when it is asked for (an error); a
    /// location object is made only for a node whose members are read (building the path text was a
    /// third of converting an NHL document), and an array's elements get theirs when the array is read,
    /// so the many fields read of one play share it rather than each making it again.
    private let base: DocumentLocation
    private let step: DocumentLocation.Step?

    /// The format's name, for errors.
    var format: String { base.format }

    /// The field's path, such as `plays[12].details.homeScore`.
    var path: String { location.text }

    private var location: DocumentLocation {
        guard let step else { return base }
        return DocumentLocation(parent: base, step: step)
    }

    init(_ value: JSONValue?, path: String = "", format: String) {
        self.value = value
        base = DocumentLocation(parent: nil, step: .root(format: format, path: path))
        step = nil
    }

    private init(_ value: JSONValue?, base: DocumentLocation, step: DocumentLocation.Step?) {
        self.value = value
        self.base = base
        self.step = step
    }

    /// The member `key` (missing when this is not an object or has no such member).
    subscript(key: String) -> DocumentNode {
        DocumentNode(member(key), base: location, step: .key(key))
    }

    /// The value of the member `key` when this is an object that has it; reading a field this way
    /// makes no node (a node is made only for an error, which needs the field's path).
    @inline(__always)
    private func member(_ key: String) -> JSONValue? {
        value?.member(key)
    }

    /// The member `key`, a string (`self[key].string()` without making a node).
    func string(_ key: String) throws(ConvertError) -> String {
        if case .string(let text)? = member(key) { return text }
        return try self[key].string()
    }

    /// The member `key`, an integer (`self[key].int()` without making a node).
    func int(_ key: String) throws(ConvertError) -> Int {
        if case .int(let number)? = member(key) { return number }
        return try self[key].int()
    }

    /// The member `key`, a string, or `nil` when absent or `null` (`self[key].present?.string()`).
    func optionalString(_ key: String) throws(ConvertError) -> String? {
        switch member(key) {
        case .string(let text)?: return text
        case nil, .null?: return nil
        default: return try self[key].string()
        }
    }

    /// The member `key`, an integer, or `nil` when absent or `null` (`self[key].present?.int()`).
    func optionalInt(_ key: String) throws(ConvertError) -> Int? {
        switch member(key) {
        case .int(let number)?: return number
        case nil, .null?: return nil
        default: return try self[key].int()
        }
    }

    /// The member `key`, an RFC 3339 instant, or `nil` when absent or `null` (`self[key].present?.instant()`).
    func optionalInstant(_ key: String) throws(ConvertError) -> Date? {
        switch member(key) {
        case .string(let text)?:
            if let date = parseRFC3339(text) { return date }
            return try self[key].instant()
        case nil, .null?: return nil
        default: return try self[key].instant()
        }
    }

    /// Whether the member `key` is there and not `null` (`self[key].present != nil`).
    func has(_ key: String) -> Bool {
        switch member(key) {
        case nil, .null?: false
        default: true
        }
    }

    /// Whether the field is absent or `null`.
    var isMissing: Bool {
        if case .null? = value { return true }
        return value == nil
    }

    /// This field, or `nil` when it is absent or `null`.
    var present: DocumentNode? { isMissing ? nil : self }

    func failure(_ reason: String) -> ConvertError {
        ConvertError(format: format, field: path.isEmpty ? nil : path, reason: reason)
    }

    private func mistyped(_ expected: String) -> ConvertError {
        failure(isMissing ? "missing (\(expected) expected)" : "\(expected) expected, found \(kind)")
    }

    private var kind: String {
        switch value {
        case .bool?: "a boolean"
        case .int?, .double?: "a number"
        case .string?: "a string"
        case .array?: "an array"
        case .object?: "an object"
        case .null?, nil: "nothing"
        }
    }

    func array() throws(ConvertError) -> [DocumentNode] {
        guard case .array(let items)? = value else { throw mistyped("an array") }
        let location = location
        return items.enumerated().map {
            DocumentNode($1, base: DocumentLocation(parent: location, step: .index($0)), step: nil)
        }
    }

    func int() throws(ConvertError) -> Int {
        guard case .int(let number)? = value else { throw mistyped("an integer") }
        return number
    }

    func string() throws(ConvertError) -> String {
        guard case .string(let text)? = value else { throw mistyped("a string") }
        return text
    }

    /// A localized text: a string, or an object whose `default` is one (`{"default": "Kraken"}`).
    func text() throws(ConvertError) -> String {
        if case .object? = value { return try self["default"].string() }
        return try string()
    }

    /// An RFC 3339 instant.
    func instant() throws(ConvertError) -> Date {
        guard let date = parseRFC3339(try string()) else { throw failure("an RFC 3339 date-time expected") }
        return date
    }

    /// A clock text `"MM:SS"` (`"04:12"`, `"20:00"`) in milliseconds.
    func clock() throws(ConvertError) -> Int {
        let text = try string()
        guard let ms = GameClock.parse(text) else { throw failure("a clock \"MM:SS\" expected, found \"\(text)\"") }
        return ms
    }
}

/// A step of a ``DocumentNode``'s path and the steps before it.
private final class DocumentLocation: Sendable {
    enum Step: Sendable {
        /// The document: its format's name and the path it is given (often none).
        case root(format: String, path: String)
        /// An object's member: `.key` (or `key` first).
        case key(String)
        /// An array's element: `[index]`.
        case index(Int)
    }

    let parent: DocumentLocation?
    let step: Step

    init(parent: DocumentLocation?, step: Step) {
        self.parent = parent
        self.step = step
    }

    /// The format's name, from the root.
    var format: String {
        var root = self
        while let parent = root.parent { root = parent }
        if case .root(let format, _) = root.step { return format }
        return ""
    }

    /// The path's text: a member after a non-empty path as `.key`, an element as `[index]`.
    var text: String {
        var steps: [Step] = []
        var link: DocumentLocation? = self
        while let current = link {
            steps.append(current.step)
            link = current.parent
        }
        var text = ""
        for step in steps.reversed() {
            switch step {
            case .root(_, let path): text = path
            case .key(let key): text = text.isEmpty ? key : text + "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
