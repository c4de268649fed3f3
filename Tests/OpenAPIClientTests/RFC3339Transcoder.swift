import Foundation
import OpenAPIRuntime

/// The description's `date-time`s as the server writes them: RFC 3339 in UTC, with milliseconds when
/// they are not zero (`2026-05-01T23:05:00Z`, `2026-11-26T17:53:19.123Z`). The runtime's transcoders read
/// only one of the two forms.
struct RFC3339Transcoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    func decode(_ text: String) throws -> Date {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try Date.ISO8601FormatStyle().parse(text)
    }
}
