import Foundation

/// Formats `date` as an RFC 3339 UTC timestamp: `2019-04-01T19:05:00Z`, or with milliseconds when
/// the fraction is not zero: `2019-04-01T19:05:00.250Z`.
///
/// Pure arithmetic: no `DateFormatter`, no locale, no shared state.
public func rfc3339(_ date: Date) -> String {
    let millisecondsSinceEpoch = RFC3339.milliseconds(since1970: date)
    let (secondsSinceEpoch, millis) = floorDivide(millisecondsSinceEpoch, 1000)
    let (days, secondOfDay) = floorDivide(secondsSinceEpoch, 86_400)
    let (year, month, day) = RFC3339.civilDate(daysSince1970: days)
    var text = RFC3339.pad(year, 4) + "-" + RFC3339.pad(month, 2) + "-" + RFC3339.pad(day, 2)
    text += "T" + RFC3339.pad(secondOfDay / 3600, 2) + ":" + RFC3339.pad(secondOfDay / 60 % 60, 2)
    text += ":" + RFC3339.pad(secondOfDay % 60, 2)
    if millis != 0 { text += "." + RFC3339.pad(millis, 3) }
    return text + "Z"
}

/// Parses a strict RFC 3339 timestamp (`2019-04-01T19:05:00Z`, `2019-04-01 15:05:00.5-04:00`),
/// or returns `nil`. See ``rfc3339(_:)`` for the output side; the fraction is rounded to milliseconds.
public func parseRFC3339(_ text: some StringProtocol) -> Date? {
    try? RFC3339.parse(String(text))
}

/// Why a text is not an RFC 3339 timestamp; `reason` is a short phrase for error messages.
struct RFC3339Error: Error, Equatable {
    var reason: String
}

/// The strict RFC 3339 parser behind ``parseRFC3339(_:)`` and the feed parser.
///
/// Accepted: `YYYY-MM-DD`, then `T`, `t` or a space, `hh:mm:ss`, an optional `.` and one or more
/// fraction digits (rounded to milliseconds), then `Z`, `z` or `±hh:mm`. Rejected: calendar dates
/// that do not exist (`2026-02-30`), hours ≥ 24, minutes or seconds ≥ 60 (leap seconds are not
/// supported), offsets beyond ±23:59, and anything else around the timestamp.
enum RFC3339 {
    static let shape = "YYYY-MM-DDThh:mm:ss with Z or an offset like -04:00"
    /// Milliseconds between 1970-01-01 and 2001-01-01, the reference date of `Date`.
    private static let referenceOffsetMilliseconds: Int64 = 978_307_200_000

    static func parse(_ text: String) throws(RFC3339Error) -> Date {
        // The text's own bytes when it has them contiguous (a native string, small ones included).
        let result = text.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(RFC3339Error) -> Date in try parse(bytes) }
        }
        if let result { return try result.get() }
        return try Array(text.utf8).withUnsafeBufferPointer { (bytes) throws(RFC3339Error) -> Date in
            try parse(bytes)
        }
    }

    private static func parse(_ b: UnsafeBufferPointer<UInt8>) throws(RFC3339Error) -> Date {
        var shapeError: RFC3339Error { RFC3339Error(reason: "expected \(shape)") }
        // Fixed part: YYYY-MM-DDThh:mm:ss is 19 bytes.
        guard b.count >= 20,
            b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
            let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2)
        else { throw shapeError }

        var index = 19
        var millis = 0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < b.count, let digit = digitValue(b[index]) {
                let place = index - fractionStart
                if place < 3 {
                    millis = millis * 10 + digit
                } else if place == 3, digit >= 5 {
                    millis += 1  // round half up to milliseconds; may carry into the next second
                }
                index += 1
            }
            guard index > fractionStart else { throw shapeError }
            for _ in min(index - fractionStart, 3)..<3 { millis *= 10 }
        }

        guard index < b.count else { throw shapeError }
        var offsetSeconds = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == b.count, b[index + 3] == UInt8(ascii: ":"),
                let offsetHour = number(b, index + 1, 2), let offsetMinute = number(b, index + 4, 2)
            else { throw shapeError }
            guard offsetHour <= 23, offsetMinute <= 59 else {
                throw RFC3339Error(reason: "offset must be between -23:59 and +23:59")
            }
            let sign = b[index] == UInt8(ascii: "-") ? -1 : 1
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
            index += 6
        default:
            throw shapeError
        }
        guard index == b.count else { throw shapeError }

        guard (1...12).contains(month) else { throw RFC3339Error(reason: "month \(pad(month, 2)) does not exist") }
        guard day >= 1, day <= daysInMonth(year: year, month: month) else {
            throw RFC3339Error(reason: "day \(pad(day, 2)) does not exist in \(pad(year, 4))-\(pad(month, 2))")
        }
        guard hour <= 23 else { throw RFC3339Error(reason: "hour \(pad(hour, 2)) is out of range 00-23") }
        guard minute <= 59 else { throw RFC3339Error(reason: "minute \(pad(minute, 2)) is out of range 00-59") }
        guard second <= 59 else {
            throw RFC3339Error(
                reason: "second \(pad(second, 2)) is out of range 00-59 (leap seconds are not supported)")
        }

        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return date(milliseconds: seconds * 1000 + Int64(millis))
    }

    /// The `Date` exactly `milliseconds` after 1970-01-01T00:00:00Z.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(milliseconds - referenceOffsetMilliseconds) / 1000)
    }

    /// `date` rounded to whole milliseconds since 1970-01-01T00:00:00Z.
    static func milliseconds(since1970 date: Date) -> Int64 {
        Int64((date.timeIntervalSinceReferenceDate * 1000).rounded()) + referenceOffsetMilliseconds
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, H. Hinnant's algorithms)

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = Int(days) + 719_468
        let era = floorDivide(z, 146_097).quotient
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    // MARK: - Digits

    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var value = 0
        for index in start..<(start + count) {
            guard let digit = digitValue(b[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Floor division: the quotient rounds toward negative infinity and the remainder is never negative.
func floorDivide<T: BinaryInteger>(_ value: T, _ divisor: T) -> (quotient: T, remainder: T) {
    let remainder = value % divisor
    return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
}
