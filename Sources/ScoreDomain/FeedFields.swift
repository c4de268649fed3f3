import Foundation

/// Reads and validates the members of one JSON object of a feed message.
///
/// Every accessor throws a ``FeedError`` naming the dotted field path (`home.code`) and the rule
/// the value breaks. Extra members are ignored. `null` counts as a value of the wrong type.
struct FeedFields {
    let members: JSONObject
    /// Prefix of field paths, e.g. `"home."`; empty at the top level.
    let prefix: String
    /// Whether timestamps must be in ``InputRules/instants``: for input, not for the log's own events
    /// (stored before the rule, they must stay readable).
    let limitsDates: Bool

    init(_ members: JSONObject, prefix: String = "", limitsDates: Bool = true) {
        self.members = members
        self.prefix = prefix
        self.limitsDates = limitsDates
    }

    private func path(_ key: String) -> String { prefix + key }

    private func required(_ key: String) throws(FeedError) -> JSONValue {
        guard let value = members[key] else { throw .missing(path(key)) }
        return value
    }

    /// A string whose length in Unicode scalars is in `length` and whose scalars all pass `allowed`.
    func string(
        _ key: String, length: ClosedRange<Int>, allowed: (Unicode.Scalar) -> Bool = { _ in true },
        rule: String
    ) throws(FeedError) -> String {
        guard case .string(let text) = try required(key) else { throw .invalid(path(key), rule) }
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard scalar != "\u{0}" else { throw .invalid(path(key), InputRules.nulRule) }
            guard count <= length.upperBound, allowed(scalar) else { throw .invalid(path(key), rule) }
        }
        guard count >= length.lowerBound else { throw .invalid(path(key), rule) }
        return text
    }

    /// An integer in `range`; `true`, `1.5`, `1.0`, `"1"` and `null` are not integers. When the key is
    /// absent, `defaultValue` is returned if given, else the field is reported missing.
    func integer(_ key: String, in range: ClosedRange<Int>, default defaultValue: Int? = nil) throws(FeedError) -> Int {
        guard let value = members[key] else {
            guard let defaultValue else { throw .missing(path(key)) }
            return defaultValue
        }
        guard case .int(let number) = value, range.contains(number) else {
            throw .invalid(path(key), "must be an integer between \(range.lowerBound) and \(range.upperBound)")
        }
        return number
    }

    /// A JSON `true` or `false` (`1`, `"true"` and `null` are not booleans); `defaultValue` when absent.
    func boolean(_ key: String, default defaultValue: Bool) throws(FeedError) -> Bool {
        guard let value = members[key] else { return defaultValue }
        guard case .bool(let flag) = value else { throw .invalid(path(key), "must be true or false") }
        return flag
    }

    /// An RFC 3339 timestamp string naming an instant of ``InputRules/instants``.
    func timestamp(_ key: String) throws(FeedError) -> Date {
        let rule = "must be an RFC 3339 timestamp like 2026-04-01T19:05:00Z"
        guard case .string(let text) = try required(key) else { throw .invalid(path(key), rule) }
        let date: Date
        do {
            date = try RFC3339.parse(text)
        } catch {
            throw .invalid(path(key), "\(rule) (\(error.reason))")
        }
        guard !limitsDates || InputRules.instants.contains(date) else { throw .invalid(path(key), InputRules.dateRule) }
        return date
    }

    /// One of `allowed`, given by its raw string value.
    func choice<T: RawRepresentable<String> & Equatable>(_ key: String, of allowed: [T]) throws(FeedError) -> T {
        guard case .string(let text) = try required(key), let value = T(rawValue: text), allowed.contains(value)
        else {
            let names = allowed.map { "\"\($0.rawValue)\"" }
            let list = names.dropLast().joined(separator: ", ") + " or " + names.last!
            throw .invalid(path(key), "must be " + list)
        }
        return value
    }

    /// A nested object, read with dotted paths below `key`.
    func object(_ key: String, rule: String) throws(FeedError) -> FeedFields {
        guard case .object(let nested) = try required(key) else { throw .invalid(path(key), rule) }
        return FeedFields(nested, prefix: path(key) + ".", limitsDates: limitsDates)
    }

    /// A team object `{code, name, logo}`.
    func team(_ key: String) throws(FeedError) -> Team {
        let fields = try object(key, rule: "must be an object with code, name and logo")
        let code = try fields.string(
            "code", length: 1...8, allowed: FeedFields.isASCIILetterOrDigit,
            rule: "must be 1 to 8 letters or digits (A-Z, a-z, 0-9)")
        let name = try fields.string("name", length: 1...64, rule: "must be a string of 1 to 64 characters")
        let logo = try fields.string("logo", length: 0...512, rule: "must be a string of at most 512 characters")
        return Team(code: code, name: name, logo: logo)
    }

    static func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
