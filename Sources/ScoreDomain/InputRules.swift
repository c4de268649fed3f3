import Foundation

/// Limits every input shares, whatever route or file it comes by: what PostgreSQL can store and
/// which times a baseball game can be about. A value outside them is refused where it is parsed,
/// with the field named, never by the database.
public enum InputRules {
    /// The years a timestamp or a day may name (UTC): historical seasons (Retrosheet's begin in
    /// 1871) are well inside, and `timestamptz` and the date arithmetic have room on both sides.
    public static let years: ClosedRange<Int> = 1850...2200

    /// The instants of ``years``: 1850-01-01T00:00:00Z up to 2200-12-31T23:59:59.999Z.
    public static let instants: ClosedRange<Date> =
        RFC3339.date(
            milliseconds: Int64(RFC3339.daysSince1970(year: 1850, month: 1, day: 1)) * 86_400_000)...RFC3339.date(
            milliseconds: Int64(RFC3339.daysSince1970(year: 2201, month: 1, day: 1)) * 86_400_000 - 1)

    /// The rule a date outside ``instants`` breaks, for error messages.
    public static let dateRule = "must be between 1850-01-01 and 2200-12-31 (UTC)"

    /// `text` as an RFC 3339 timestamp (see ``parseRFC3339(_:)``) naming one of ``instants``, or `nil`.
    public static func timestamp(_ text: some StringProtocol) -> Date? {
        parseRFC3339(text).flatMap { instants.contains($0) ? $0 : nil }
    }

    /// The rule a text holding NUL breaks, for error messages.
    public static let nulRule = "must not contain NUL (\\u0000)"

    /// Whether `text` can be stored as PostgreSQL text or inside jsonb: it holds no NUL, which
    /// PostgreSQL refuses in both (and libpq would cut a text parameter short at it).
    public static func isStorable(_ text: some StringProtocol) -> Bool {
        !text.utf8.contains(0)
    }

    /// The dotted path (`home.name`, `follow.2`) of the first string or member name in `value` that
    /// is not ``isStorable(_:)``, or `nil` when every one is.
    public static func firstUnstorable(in value: JSONValue, at path: String = "") -> String? {
        let prefix = path.isEmpty ? "" : path + "."
        switch value {
        case .string(let text):
            return isStorable(text) ? nil : (path.isEmpty ? "(body)" : path)
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = firstUnstorable(in: item, at: prefix + String(index)) { return found }
            }
            return nil
        case .object(let members):
            for key in members.keys.sorted() {
                guard isStorable(key) else { return prefix + key.replacingOccurrences(of: "\u{0}", with: "\\u0000") }
                if let found = firstUnstorable(in: members[key]!, at: prefix + key) { return found }
            }
            return nil
        case .null, .bool, .int, .double:
            return nil
        }
    }
}
