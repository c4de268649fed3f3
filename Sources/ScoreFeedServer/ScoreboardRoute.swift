import APNs
import Foundation
import Hummingbird
import ScoreDomain
import ScoreStore

extension ReadRoutes {
    /// `GET /v1/scoreboard[?date=YYYY-MM-DD][&tz=Area/City]`: everything the scoreboard page shows, in
    /// one request: the days that have games (with how many), and the games of one day (default: today
    /// if it has games, else the nearest earlier day, else the first), each with its newest push; days
    /// are the time zone `tz`'s (default UTC).
    func scoreboard(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let zone = try InputGuard.zone(request)
        let asked = try request.uri.queryParameters.get("date").map { text -> String in
            guard InputGuard.day(String(text), in: zone) != nil else {
                throw InputGuard.badQuery("date", InputGuard.dayRule)
            }
            return String(text)
        }
        let today = InputGuard.dayText(Date(), in: zone)
        let pool = try await database.ready().reads
        let (days, date, games, latest) = try await pool.withSession { session in
            let days = try ScoreProjection.days(zone: zone.identifier, in: session)
            let earlier: String? = days.last(where: { $0.day <= today })?.day
            let date: String = asked ?? earlier ?? days.first?.day ?? today
            let range: Range<Date>? = InputGuard.day(date, in: zone)
            let games = try ScoreProjection.all(during: range, in: session).reversed()
            let latest = try TargetPushes.latest(games: games.map(\.gameId), in: session)
            return (days, date, Array(games), latest)
        }
        var body = "{\"date\":\"\(date)\",\"days\":["
        body += days.map { "{\"date\":\"\($0.day)\",\"games\":\($0.games)}" }.joined(separator: ",")
        body += "],\"games\":["
        body += games.map { state in
            "{\"game\":" + state.canonicalJSON() + ",\"latestPush\":"
                + (latest[state.gameId].map { Self.summary($0).serialized() } ?? "null") + "}"
        }.joined(separator: ",")
        return .json(raw: body + "]}")
    }

    /// What a card shows of a push: when, how urgent, what became of it, and until when the phone
    /// shows it as fresh.
    private static func summary(_ push: TargetPush) -> JSONValue {
        let aps = (try? JSONValue.parse(Data(push.payload.utf8))).flatMap { payload -> JSONObject? in
            guard case .object(let root) = payload, case .object(let aps)? = root["aps"] else { return nil }
            return aps
        }
        var alert: JSONValue = .null
        if case .object(let members)? = aps?["alert"], let title = members["title"] { alert = title }
        return .object([
            // In seconds: an Android follower's `seq` is its time in milliseconds.
            "timestamp": .int(push.route == .android ? push.timestamp / 1000 : push.timestamp),
            "event": .string(push.event.rawValue), "priority": .int(push.priority),
            "state": .string(push.state == "pending" ? "planned" : push.state), "alert": alert,
            "staleDate": aps?["stale-date"] ?? .null,
        ])
    }
}
