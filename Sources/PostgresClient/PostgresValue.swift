import Foundation

/// How one `$n` parameter goes on the wire.
public enum PostgresParameter: Sendable, Equatable {
    /// SQL NULL.
    case null
    /// PostgreSQL's text input form of the value, parsed by the server as the parameter's type.
    case text(String)
    /// The binary form of a value of the type `oid` (its type's `recv` format).
    case binary(oid: UInt32, bytes: [UInt8])
}

/// A Swift value that can be bound to a `$n` parameter.
public protocol PostgresEncodable: Sendable {
    /// The value as it is sent.
    var postgresParameter: PostgresParameter { get }
}

/// A value sent in PostgreSQL's text format.
public protocol PostgresTextEncodable: PostgresEncodable {
    /// The text form of the value, or `nil` for SQL NULL.
    var postgresText: String? { get }
}

extension PostgresTextEncodable {
    public var postgresParameter: PostgresParameter { postgresText.map(PostgresParameter.text) ?? .null }
}

extension String: PostgresTextEncodable {
    public var postgresText: String? { self }
}

extension Int: PostgresTextEncodable {
    public var postgresText: String? { String(self) }
}

extension Int64: PostgresTextEncodable {
    public var postgresText: String? { String(self) }
}

extension Int32: PostgresTextEncodable {
    public var postgresText: String? { String(self) }
}

extension Bool: PostgresTextEncodable {
    public var postgresText: String? { self ? "t" : "f" }
}

extension Double: PostgresTextEncodable {
    public var postgresText: String? { String(self) }
}

extension Date: PostgresTextEncodable {
    /// `timestamptz` input text in UTC with microseconds.
    public var postgresText: String? { PostgresTimestamp.format(self) }
}

extension Optional: PostgresEncodable, PostgresTextEncodable where Wrapped: PostgresTextEncodable {
    public var postgresText: String? { self?.postgresText }
}

extension Array: PostgresEncodable, PostgresTextEncodable where Element: PostgresTextEncodable {
    /// A PostgreSQL array literal (`{"a","b",NULL}`) for `$n::text[]`-style binds.
    public var postgresText: String? {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(count * 16)
        for (index, element) in enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard let text = element.postgresText else {
                out += "NULL".utf8
                continue
            }
            out.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}

/// Reads and writes `timestamptz` text in the ISO style the wrapper sets on every connection
/// (`DateStyle=ISO`, `TimeZone=UTC`): `2019-04-01 19:05:00.123456+00`.
public enum PostgresTimestamp {
    /// Formats a date as `timestamptz` input text in UTC with microseconds.
    public static func format(_ date: Date) -> String {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        var seconds = Int64((micros / 1_000_000).rounded(.down))
        var fraction = Int64(micros) - seconds * 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        let (days, secondOfDay) = divFloor(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var out: [UInt8] = []
        out.reserveCapacity(30)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        // Years before 1 as PostgreSQL writes them (year 0 is 1 BC), years past 9999 with every digit:
        // whatever the date, the text is one PostgreSQL reads as it, never a wrong year or a trap.
        let shownYear = year <= 0 ? 1 - year : year
        digits(shownYear, max(4, String(shownYear).count))
        out.append(UInt8(ascii: "-"))
        digits(month, 2)
        out.append(UInt8(ascii: "-"))
        digits(day, 2)
        out.append(UInt8(ascii: " "))
        digits(Int(secondOfDay / 3600), 2)
        out.append(UInt8(ascii: ":"))
        digits(Int(secondOfDay / 60 % 60), 2)
        out.append(UInt8(ascii: ":"))
        digits(Int(secondOfDay % 60), 2)
        out.append(UInt8(ascii: "."))
        digits(Int(fraction), 6)
        out += "+00".utf8
        if year <= 0 { out += " BC".utf8 }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DD hh:mm:ss[.ffffff]+00[:mm]` as printed by PostgreSQL in ISO style.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 22 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            guard start + length <= bytes.count else { return nil }
            var value = 0
            for b in bytes[start..<(start + length)] {
                guard b >= 48, b <= 57 else { return nil }
                value = value * 10 + Int(b - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        var index = 19
        var micros = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < 6 { micros = micros * 10 + Int(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
            let offsetHours = number(index + 1, 2)
        else { return nil }
        var offset = offsetHours * 3600
        if index + 3 < bytes.count, bytes[index + 3] == UInt8(ascii: ":"), let minutes = number(index + 4, 2) {
            offset += minutes * 60
        }
        if bytes[index] == UInt8(ascii: "-") { offset = -offset }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    private static func divFloor(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a >= 0 ? a / b : (a - b + 1) / b
        return (q, a - q * b)
    }

    // Howard Hinnant's civil-from-days algorithms.
    private static func civil(fromDays z0: Int64) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }

    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
