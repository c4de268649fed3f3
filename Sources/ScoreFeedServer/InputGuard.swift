import Foundation
import Hummingbird
import ScoreDomain

/// Refuses, before any route runs, a query string that no route can use: a parameter whose name or
/// value holds NUL (`%00`), which PostgreSQL refuses and libpq would cut short. A 400 naming the
/// parameter, so no route has to think of it. (Path parameters are not percent-decoded: they never
/// hold NUL.)
struct InputGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        for (name, value) in request.uri.queryParameters
        where !InputRules.isStorable(name) || !InputRules.isStorable(value) {
            throw InputGuard.badQuery(String(name).clipped(to: 40), InputRules.nulRule)
        }
        return try await next(request, context)
    }
}

/// The shared checks of request input: 400s naming the field, as `invalid-field`.
enum InputGuard {
    /// A 400 `invalid-field` naming `field`, with the field and the reason in `details`.
    static func invalid(_ field: String, _ reason: String) -> APIError {
        APIError(
            .badRequest, "invalid-field", "\(field): \(reason)",
            details: .array([.object(["field": .string(field), "reason": .string(reason)])]))
    }

    /// A 400 `bad-request` for a query parameter, as the read routes answer: `"<name> <reason>"`, with
    /// the parameter and the reason in `details`.
    static func badQuery(_ name: String, _ reason: String) -> APIError {
        APIError.badRequest(
            "\(name) \(reason)", details: .array([.object(["field": .string(name), "reason": .string(reason)])]))
    }

    /// Throws a 400 naming the first member (dotted path) of a JSON body whose name or text holds
    /// NUL; registration bodies call it before reading their fields.
    static func requireStorable(_ body: JSONValue) throws {
        if let path = InputRules.firstUnstorable(in: body) { throw invalid(path.clipped(to: 80), InputRules.nulRule) }
    }

    /// The UTC midnight of a day `YYYY-MM-DD` of ``InputRules/years``, or `nil`.
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), InputRules.years.contains(year),
            let date = parseRFC3339("\(text)T00:00:00Z")
        else { return nil }
        return date
    }

    /// The rule of a `date` query parameter, for its 400.
    static let dayRule = "must be a day such as 2019-04-01, from 1850-01-01 to 2200-12-31"

    /// The instants of day `text` (`YYYY-MM-DD`) in `zone`: from its midnight to the next (23 or 25
    /// hours on a daylight-saving change).
    static func day(_ text: String, in zone: TimeZone) -> Range<Date>? {
        guard let utc = day(text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var parts = calendar.dateComponents([.year, .month, .day], from: utc)
        calendar.timeZone = zone
        guard let start = calendar.date(from: parts) else { return nil }
        parts.day = (parts.day ?? 1) + 1
        guard let end = calendar.date(from: parts), end > start else { return nil }
        return start..<end
    }

    /// The `tz` query parameter: an IANA time zone such as `Europe/Paris` (default UTC).
    static func zone(_ request: Request) throws -> TimeZone {
        guard let name = request.uri.queryParameters.get("tz") else { return TimeZone(identifier: "UTC")! }
        guard name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }),
            let zone = TimeZone(identifier: String(name))
        else {
            throw badQuery("tz", "must be an IANA time zone such as Europe/Paris or America/New_York")
        }
        return zone
    }

    /// `date` in `zone` as `YYYY-MM-DD`.
    static func dayText(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
