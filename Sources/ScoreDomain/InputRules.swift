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

    /// The rule a text holding NUL breaks, for error messages.
    public static let nulRule = "must not contain NUL (\\u0000)"

    /// Whether `text` can be stored as PostgreSQL text or inside jsonb: it holds no NUL, which
    /// PostgreSQL refuses in both (and libpq would cut a text parameter short at it).
    public static func isStorable(_ text: some StringProtocol) -> Bool {
        !text.utf8.contains(0)
    }

    /// Why `text` cannot be a stored string of at most `maxLength` Unicode scalars, or `nil` when it can.
    public static func problem(in text: some StringProtocol, maxLength: Int) -> String? {
        if !isStorable(text) { return nulRule }
        if text.unicodeScalars.count > maxLength { return "must be at most \(maxLength) characters" }
        return nil
    }
}
