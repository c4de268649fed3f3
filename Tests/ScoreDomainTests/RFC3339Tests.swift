import Foundation
import Testing

@testable import ScoreDomain

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    struct Valid: Sendable, CustomTestStringConvertible {
        var text: String
        var unixMilliseconds: Int64
        var formatted: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        Valid(text: "2019-04-01T19:05:00Z", unixMilliseconds: 1_554_145_500_000, formatted: "2019-04-01T19:05:00Z"),
        Valid(text: "2019-04-01t19:05:00z", unixMilliseconds: 1_554_145_500_000, formatted: "2019-04-01T19:05:00Z"),
        Valid(
            text: "2019-04-01 15:05:00-04:00", unixMilliseconds: 1_554_145_500_000, formatted: "2019-04-01T19:05:00Z"),
        Valid(
            text: "2019-04-02T00:35:00+05:30", unixMilliseconds: 1_554_145_500_000, formatted: "2019-04-01T19:05:00Z"),
        Valid(
            text: "2019-04-01T19:05:00-00:00", unixMilliseconds: 1_554_145_500_000, formatted: "2019-04-01T19:05:00Z"),
        Valid(
            text: "2019-04-01T19:05:00.25Z", unixMilliseconds: 1_554_145_500_250, formatted: "2019-04-01T19:05:00.250Z"),
        Valid(text: "2019-04-01T19:05:00.000Z", unixMilliseconds: 1_554_145_500_000, formatted: "2019-04-01T19:05:00Z"),
        Valid(
            text: "2019-04-01T19:05:00.1234Z", unixMilliseconds: 1_554_145_500_123,
            formatted: "2019-04-01T19:05:00.123Z"),
        Valid(
            text: "2019-04-01T19:05:00.0015Z", unixMilliseconds: 1_554_145_500_002,
            formatted: "2019-04-01T19:05:00.002Z"),
        Valid(
            text: "2019-04-01T19:05:59.9996Z", unixMilliseconds: 1_554_145_560_000, formatted: "2019-04-01T19:06:00Z"),
        Valid(text: "2024-02-29T00:00:00Z", unixMilliseconds: 1_709_164_800_000, formatted: "2024-02-29T00:00:00Z"),
        Valid(text: "2000-02-29T12:00:00Z", unixMilliseconds: 951_825_600_000, formatted: "2000-02-29T12:00:00Z"),
        Valid(
            text: "2026-12-31T23:30:00-01:00", unixMilliseconds: 1_798_763_400_000, formatted: "2027-01-01T00:30:00Z"),
        Valid(text: "1970-01-01T00:00:00Z", unixMilliseconds: 0, formatted: "1970-01-01T00:00:00Z"),
        Valid(text: "1969-12-31T23:59:59.500Z", unixMilliseconds: -500, formatted: "1969-12-31T23:59:59.500Z"),
        Valid(text: "0001-01-01T00:00:00Z", unixMilliseconds: -62_135_596_800_000, formatted: "0001-01-01T00:00:00Z"),
        Valid(text: "9999-12-31T23:59:59Z", unixMilliseconds: 253_402_300_799_000, formatted: "9999-12-31T23:59:59Z"),
    ])
    func parsesAndFormats(_ valid: Valid) throws {
        let date = try #require(parseRFC3339(valid.text))
        #expect(RFC3339.milliseconds(since1970: date) == valid.unixMilliseconds)
        #expect(rfc3339(date) == valid.formatted)
        #expect(parseRFC3339(rfc3339(date)) == date)
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var text: String
        var reason: String
        var testDescription: String { "\"\(text)\"" }
    }

    static let shape = "expected YYYY-MM-DDThh:mm:ss with Z or an offset like -04:00"

    @Test(arguments: [
        Invalid(text: "2026-02-30T00:00:00Z", reason: "day 30 does not exist in 2026-02"),
        Invalid(text: "2025-02-29T00:00:00Z", reason: "day 29 does not exist in 2025-02"),
        Invalid(text: "1900-02-29T00:00:00Z", reason: "day 29 does not exist in 1900-02"),
        Invalid(text: "2026-04-31T00:00:00Z", reason: "day 31 does not exist in 2026-04"),
        Invalid(text: "2026-04-00T00:00:00Z", reason: "day 00 does not exist in 2026-04"),
        Invalid(text: "2026-13-01T00:00:00Z", reason: "month 13 does not exist"),
        Invalid(text: "2026-00-01T00:00:00Z", reason: "month 00 does not exist"),
        Invalid(text: "2026-04-01T24:00:00Z", reason: "hour 24 is out of range 00-23"),
        Invalid(text: "2026-04-01T23:60:00Z", reason: "minute 60 is out of range 00-59"),
        Invalid(
            text: "2026-04-01T23:59:60Z", reason: "second 60 is out of range 00-59 (leap seconds are not supported)"),
        Invalid(text: "2026-04-01T19:05:00+24:00", reason: "offset must be between -23:59 and +23:59"),
        Invalid(text: "2026-04-01T19:05:00+05:60", reason: "offset must be between -23:59 and +23:59"),
        Invalid(text: "2026-04-01T19:05:00", reason: shape),
        Invalid(text: "2026-04-01", reason: shape),
        Invalid(text: "2026-04-01T19:05Z", reason: shape),
        Invalid(text: "2026-4-01T19:05:00Z", reason: shape),
        Invalid(text: "2026-04-01T19:05:00.Z", reason: shape),
        Invalid(text: "2026-04-01T19:05:00+0500", reason: shape),
        Invalid(text: "2026-04-01T19:05:00Z ", reason: shape),
        Invalid(text: " 2026-04-01T19:05:00Z", reason: shape),
        Invalid(text: "2026-04-01X19:05:00Z", reason: shape),
        Invalid(text: "2026/04/01T19:05:00Z", reason: shape),
        Invalid(text: "+2026-04-01T19:05:00Z", reason: shape),
        Invalid(text: "2026-04-01T19:05:00.123+05:00x", reason: shape),
        Invalid(text: "２026-04-01T19:05:00Z", reason: shape),
        Invalid(text: "", reason: shape),
    ])
    func rejects(_ invalid: Invalid) {
        #expect(parseRFC3339(invalid.text) == nil)
        #expect(throws: RFC3339Error(reason: invalid.reason)) { try RFC3339.parse(invalid.text) }
    }

    struct Formatted: Sendable, CustomTestStringConvertible {
        var secondsSince1970: Double
        var text: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        Formatted(secondsSince1970: 1_554_145_500, text: "2019-04-01T19:05:00Z"),
        Formatted(secondsSince1970: 1_554_145_500.5, text: "2019-04-01T19:05:00.500Z"),
        Formatted(secondsSince1970: 1_554_145_500.0004, text: "2019-04-01T19:05:00Z"),
        Formatted(secondsSince1970: 1_554_145_500.0006, text: "2019-04-01T19:05:00.001Z"),
        Formatted(secondsSince1970: 1_554_145_500.07, text: "2019-04-01T19:05:00.070Z"),
        Formatted(secondsSince1970: -1, text: "1969-12-31T23:59:59Z"),
        Formatted(secondsSince1970: 951_782_400, text: "2000-02-29T00:00:00Z"),
        Formatted(secondsSince1970: 4_107_542_399, text: "2100-02-28T23:59:59Z"),
    ])
    func formatsUTCWithMillisecondsOnlyWhenNeeded(_ formatted: Formatted) {
        #expect(rfc3339(Date(timeIntervalSince1970: formatted.secondsSince1970)) == formatted.text)
    }

    @Test("every day from 1999 to 2030 matches Foundation's Gregorian calendar and survives a round trip")
    func agreesWithFoundationCalendarEveryDay() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var milliseconds: Int64 = 915_148_800_000  // 1999-01-01
        while milliseconds < 1_924_992_000_000 {  // 2031-01-01
            for offset: Int64 in [0, 1, 999, 43_200_123, 86_399_999] {
                let date = RFC3339.date(milliseconds: milliseconds + offset)
                let text = rfc3339(date)
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                let expectedPrefix = String(
                    format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
                    parts.minute!, parts.second!)
                #expect(text.hasPrefix(expectedPrefix), "\(text) vs \(expectedPrefix)")
                #expect(parseRFC3339(text) == date, "\(text)")
            }
            milliseconds += 86_400_000
        }
    }
}
