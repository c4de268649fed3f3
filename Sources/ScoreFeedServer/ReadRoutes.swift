import APNs
import Foundation
import Hummingbird
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreStore

/// The dashboards' read API: games, one game, its events, its pushes. Field names are those of
/// `scorefeed game --json`; every list is in a stable order.
struct ReadRoutes {
    let database: Database
    /// The apps, whose keys see their own pushes with push tokens in full (`SCOREFEED_APP_KEYS`);
    /// other readers see every push with its tokens shortened.
    let appKeys: AppKeys

    /// `GET /v1/games[?status=live][&date=2019-04-01[&tz=Europe/Paris]]`: the games, most recently
    /// scheduled first; `date` is a day in the time zone `tz` (default UTC).
    func games(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let status = try query.get("status").map { name -> GameStatus in
            guard let status = GameStatus(rawValue: String(name)) else {
                throw APIError.badRequest(
                    "status must be one of \(GameStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return status
        }
        let zone = try InputGuard.zone(request)
        let day = try query.get("date").map { text -> Range<Date> in
            guard let day = InputGuard.day(String(text), in: zone) else {
                throw InputGuard.badQuery("date", InputGuard.dayRule)
            }
            return day
        }
        let pool = try await database.ready().reads
        let games = try await pool.withSession { try ScoreProjection.all(status: status, during: day, in: $0) }
        return .json(raw: "[" + games.map { $0.canonicalJSON() }.joined(separator: ",") + "]")
    }

    /// `GET /v1/games/{id}`: one game's state.
    func game(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let gameId = try context.parameters.require("id")
        let pool = try await database.ready().reads
        guard let state = try await pool.withSession({ try ScoreProjection.load(gameId, in: $0) }) else {
            throw APIError.notFound("no game \"\(gameId.clipped())\"")
        }
        return .json(raw: state.canonicalJSON())
    }

    /// `GET /v1/games/{id}/events[?after=POSITION][&limit=N]`: the game's events in order, each with
    /// its global position; `next` is the `after` of the following page.
    func events(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let gameId = try context.parameters.require("id")
        let after = try Self.integer(request, "after", default: 0, in: 0...Int.max)
        let limit = try Self.integer(request, "limit", default: 500, in: 1...5000)
        let pool = try await database.ready().reads
        let events = try await pool.withSession { session in
            try Self.requireGame(gameId, in: session)
            return try EventLog.readStream(gameId, afterPosition: after, limit: limit, in: session)
        }
        let items = events.map { event in
            JSONValue.object([
                "position": .int(event.position), "version": .int(event.version),
                "recordedAt": .string(rfc3339(event.recordedAt)), "message": event.message.jsonValue,
            ])
        }
        return .json(
            .object([
                "gameId": .string(gameId), "events": .array(items),
                "next": events.last.map { .int($0.position) } ?? .int(after),
            ]))
    }

    /// `GET /v1/games/{id}/pushes[?after=ID][&limit=N]`: the Live Activity pushes of the game's
    /// activities: planned (waiting in the outbox), sent, or failed, with APNs' last answer. Push
    /// tokens are shortened as in the logs (`80a1f3c2…`); with an app key, only that app's pushes
    /// are listed (and counted), with their tokens in full. Beside them, the messages planned once for
    /// a group and walked over its tokens, and the game's groups; one page of outbox ids covers both.
    func pushes(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let gameId = try context.parameters.require("id")
        let app = try Credentials.app(request, in: appKeys)?.name
        let fullTokens = app != nil
        let after = try Self.integer(request, "after", default: 0, in: 0...Int.max)
        let limit = try Self.integer(request, "limit", default: 1000, in: 1...5000)
        let pool = try await database.ready().reads
        let (listed, counts, latest, budgets, groups) = try await pool.withSession { session in
            try Self.requireGame(gameId, in: session)
            return (
                (
                    pushes: try TargetPushes.forGame(gameId, app: app, after: after, limit: limit, in: session),
                    messages: try GroupMessages.forGame(gameId, app: app, after: after, limit: limit, in: session)
                ),
                try TargetPushes.counts(gameId, app: app, in: session),
                try TargetPushes.latest(gameId, app: app, in: session),
                try TargetPushes.highPriorityLastHour(gameId, app: app, in: session),
                try GroupMessages.groups(gameId, app: app, in: session)
            )
        }
        // One page of the outbox ids of both lists: the first `limit` of them, so `next` skips nothing.
        let ids = (listed.pushes.map(\.id) + listed.messages.map(\.id)).sorted().prefix(limit)
        let last = ids.last ?? after
        let pushes = listed.pushes.filter { $0.id <= last }
        let groupMessages = listed.messages.filter { $0.id <= last }
        let policy = ThrottlePolicy()
        let activities = budgets.map { budget in
            JSONValue.object([
                "activityId": .int(budget.activityId),
                "pushToken": .string(fullTokens ? budget.pushToken : APNsRedaction.token(budget.pushToken)),
                "frequentUpdates": .bool(budget.frequentUpdates), "highPriorityLastHour": .int(budget.count),
                "hourlyBudget": .int(budget.frequentUpdates ? policy.frequentHourlyBudget : policy.hourlyBudget),
            ])
        }
        let json = { (push: TargetPush) in Self.json(push, fullToken: fullTokens) }
        let items = pushes.map(json)
        return .json(
            .object([
                "gameId": .string(gameId),
                "counts": .object([
                    "planned": .int(counts["pending"] ?? 0), "sent": .int(counts["sent"] ?? 0),
                    "failed": .int(counts["failed"] ?? 0),
                ]),
                "latest": latest.map(json) ?? .null, "activities": .array(activities),
                "pushes": .array(items), "next": .int(last),
                "groups": .array(groups.map(Self.json)), "groupMessages": .array(groupMessages.map(Self.json)),
            ]))
    }

    private static func json(_ group: GroupSummary) -> JSONValue {
        .object([
            "id": .int(group.id), "route": .string(group.route), "frequentUpdates": .bool(group.frequentUpdates),
            "members": .int(group.members),
        ])
    }

    private static func json(_ message: GroupMessage) -> JSONValue {
        .object([
            "id": .int(message.id), "groupId": .int(message.groupId), "event": .string(message.event.rawValue),
            "priority": .int(message.priority), "timestamp": .int(message.timestamp),
            "reason": .string(message.reason),
            "state": .string(message.state == "pending" ? "planned" : message.state),
            "walkedThrough": .int(message.walkedThrough),
            "walkedAt": message.walkedAt.map { .string(rfc3339($0)) } ?? .null,
            "plannedAt": .string(rfc3339(message.createdAt)),
            "payload": (try? JSONValue.parse(Data(message.payload.utf8))) ?? .string(message.payload),
        ])
    }

    private static func json(_ push: TargetPush, fullToken: Bool) -> JSONValue {
        JSONValue.object([
            "id": .int(push.id), "activityId": .int(push.targetId),
            "pushToken": .string(fullToken ? push.pushToken : APNsRedaction.token(push.pushToken)),
            "environment": push.environment.map { .string($0.rawValue) } ?? .null, "apnsId": .string(push.apnsId),
            "event": .string(push.event.rawValue), "priority": .int(push.priority),
            "timestamp": .int(push.timestamp), "reason": .string(push.reason),
            "state": .string(push.state == "pending" ? "planned" : push.state), "attempts": .int(push.attempts),
            "lastStatus": push.lastStatus.map(JSONValue.int) ?? .null,
            "lastReason": push.lastReason.map(JSONValue.string) ?? .null,
            "payload": (try? JSONValue.parse(Data(push.payload.utf8))) ?? .string(push.payload),
            "route": .string(push.route.rawValue),
            // The FCM registration (routes fcm and android), shortened like the push token without an app key.
            "fcmTarget": push.fcm.map { .string(fullToken ? $0.value : APNsRedaction.token($0.value)) } ?? .null,
        ])
    }

    /// Throws a 404 unless the game has events.
    static func requireGame(_ gameId: String, in session: PostgresSession) throws {
        guard try EventLog.hasStream(gameId, in: session) else {
            throw APIError.notFound("no game \"\(gameId.clipped())\"")
        }
    }

    private static func integer(_ request: Request, _ name: String, default fallback: Int, in range: ClosedRange<Int>)
        throws -> Int
    {
        guard let text = request.uri.queryParameters.get(name) else { return fallback }
        guard let value = Int(String(text)), range.contains(value) else {
            throw APIError.badRequest(
                "\(name) must be an integer from \(range.lowerBound)\(range.upperBound == Int.max ? " up" : " to \(range.upperBound)")"
            )
        }
        return value
    }

}
