import Foundation
import Hummingbird
import LiveActivity
import ScoreDomain
import ScoreStore

/// `POST /v1/games/{id}/activities`, `GET`, `PATCH` and `DELETE /v1/activities/{token}`: an app's
/// backend registers, inspects, updates and removes its users' Live Activities, with an app key.
struct ActivityRoutes {
    let configuration: ServerConfiguration
    let database: Database
    let planner: PushPlanner

    /// `POST /v1/devices`: a device's push-to-start token and the teams (or game ids) the fan follows.
    func registerDevice(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try authorize(request)
        guard request.mediaType == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupported-media-type", "send the device as application/json")
        }
        let fields = try Self.fields(try await request.collectBody(upTo: 16 * 1024, what: "a device"))
        // Every problem of the body at once: its fields' types first, then their values.
        var problems = BodyProblems()
        let token = try problems.check { try fields.string("startToken") }
        let follows = try problems.check { () throws -> [String] in
            guard case .array(let list)? = fields.members["follow"] else {
                throw Self.invalid("follow", "must be an array of team codes or game ids")
            }
            return try list.map { value -> String in
                guard case .string(let text) = value else { throw Self.invalid("follow", "must hold strings") }
                return text
            }
        }
        let environment = try problems.check { try Self.environment(fields) }
        let bundleId = try problems.check { () throws -> String in
            let bundleId = try self.bundleId(fields, of: app)
            try Self.requireBundle(bundleId, of: app)
            return bundleId
        }
        let channels = try problems.check { try fields.bool("channels", default: false) }
        let fcm = try problems.check { try Self.fcmAddress(fields, required: false) }
        _ = try problems.check { try fcm??.validated() }
        if let follows, follows.isEmpty || follows.count > 64 {
            problems.add("follow", "follow 1 to 64 teams or games")
        }
        if let token {
            _ = try problems.check { () throws -> String in
                do {
                    return try Activities.normalizedToken(token)
                } catch let error as ActivityError {
                    throw Self.invalid("startToken", error.reason)
                }
            }
        }
        for follow in follows ?? [] {
            _ = try problems.check { () throws in
                do {
                    try Activities.validate(gameId: follow)
                } catch let error as ActivityError {
                    throw Self.invalid("follow", "team codes or game ids: " + error.reason)
                }
            }
        }
        _ = try bundleId.map { bundleId in try problems.check { try Activities.validate(bundleId: bundleId) } }
        try problems.finish()
        guard let token, let follows, let environment, let bundleId, let channels, let fcm else {
            throw APIError.badRequest("the device is invalid")
        }
        let pool = try await database.ready().pool
        let device: Device
        do {
            device = try await pool.transaction { tx in
                try Devices.register(
                    startToken: token, follows: follows, environment: environment, bundleId: bundleId,
                    channels: channels, fcm: fcm, app: app.name, at: Date(), in: tx)
            }
        } catch let error as ActivityError {
            throw Self.invalid(error.field, error.reason)
        } catch let refusal as RegistrationRefusal {
            throw Self.refused(refusal)
        }
        return .json(
            .object(
                JSONObject([
                    "id": .int(device.id), "startToken": .string(device.startToken),
                    "environment": .string(device.environment.rawValue), "bundleId": .string(device.bundleId),
                    "follow": .array(device.follows.map(JSONValue.string)), "channels": .bool(device.channels),
                    "registeredAt": .string(rfc3339(device.registeredAt)), "active": .bool(device.active),
                ]).merging(FCMAddress.jsonMembers(device.fcm)) { $1 }), status: .created)
    }

    /// `GET /v1/activities/{token}`: what became of the activity's pushes.
    func show(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try authorize(request).name
        let token = try Self.token(context)
        let policy = planner.policy
        let pool = try await database.ready().pool
        guard
            let delivery = try await pool.withSession({
                try Activities.delivery(token: token, app: app, now: Date(), policy: policy, in: $0)
            })
        else { throw APIError.notFound("no activity has this push token") }
        return .json(Self.json(delivery))
    }

    /// `PATCH /v1/activities/{token}` `{"frequentUpdates": bool}`: the app reports ActivityKit's
    /// `frequentPushesEnabled`; the budget follows at once.
    func update(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try authorize(request).name
        let token = try Self.token(context)
        guard request.mediaType == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupported-media-type", "send the change as application/json")
        }
        let fields = try Self.fields(try await request.collectBody(upTo: 4 * 1024, what: "an activity change"))
        if let unknown = fields.members.keys.sorted().first(where: { $0 != "frequentUpdates" }) {
            throw Self.invalid(unknown, "cannot be changed (only frequentUpdates can)")
        }
        guard fields.members["frequentUpdates"] != nil, fields.members["frequentUpdates"] != .null else {
            throw Self.invalid("frequentUpdates", "is required")
        }
        let frequent = try fields.bool("frequentUpdates", default: false)
        let (planner, pool) = (self.planner, try await database.ready().pool)
        guard
            let activity = try await pool.transaction({
                try Activities.setFrequentUpdates(token: token, app: app, frequent, planner: planner, in: $0)
            })
        else { throw APIError.notFound("no active activity has this push token") }
        return .json(Self.json(activity))
    }

    func register(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try authorize(request)
        let gameId = try context.parameters.require("id")
        guard request.mediaType == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupported-media-type", "send the registration as application/json")
        }
        let fields = try Self.fields(try await request.collectBody(upTo: 16 * 1024, what: "a registration"))
        // Every problem of the body at once: its fields' types first, then their values.
        var problems = BodyProblems()
        let token = try problems.check { try fields.string("pushToken") }
        let environment = try problems.check { try Self.environment(fields) }
        let bundleId = try problems.check { try self.bundleId(fields, of: app) }
        let frequent = try problems.check { try fields.bool("frequentUpdates", default: false) }
        let allowUnknown = try problems.check { try fields.bool("allowUnknownGame", default: false) }
        // The update token of an activity a push-to-start created: it joins that start.
        let startToken = try problems.check { () throws -> String? in
            fields.members["startToken"] == nil ? nil : try fields.string("startToken")
        }
        // Through Firebase Cloud Messaging: the app's FCM registration token or installation id.
        let fcm = try problems.check { try Self.fcmAddress(fields, required: false) }
        _ = try problems.check { try Activities.validate(gameId: gameId) }
        _ = try token.map { token in try problems.check { try Activities.normalizedToken(token) } }
        _ = try bundleId.map { bundleId in try problems.check { try Activities.validate(bundleId: bundleId) } }
        _ = try problems.check { try fcm??.validated() }
        if let startToken = startToken ?? nil {
            _ = try problems.check { () throws -> String in
                do {
                    return try Activities.normalizedToken(startToken)
                } catch let error as ActivityError {
                    throw Self.invalid("startToken", error.reason)
                }
            }
        }
        _ = try bundleId.map { bundleId in try problems.check { try Self.requireBundle(bundleId, of: app) } }
        try problems.finish()
        guard let token, let environment, let bundleId, let frequent, let allowUnknown, let startToken, let fcm else {
            throw APIError.badRequest("the registration is invalid")
        }
        let pool = try await database.ready().pool
        let activity: Activity
        do {
            activity = try await pool.transaction { tx in
                guard try allowUnknown || EventLog.hasStream(gameId, in: tx) else {
                    throw APIError.notFound(
                        "no game \"\(gameId)\" yet: no message of it has arrived; send \"allowUnknownGame\": true "
                            + "if the provider will announce it later")
                }
                let activity = try Activities.register(
                    gameId: gameId, token: token, environment: environment, bundleId: bundleId,
                    frequentUpdates: frequent, fcm: fcm, app: app.name, at: Date(), in: tx)
                if let startToken {
                    try Devices.joinStart(
                        startToken: startToken, gameId: gameId, activityId: activity.id, app: app.name, in: tx)
                }
                return activity
            }
        } catch let refusal as RegistrationRefusal {
            throw Self.refused(refusal)
        }
        return .json(Self.json(activity), status: .created)
    }

    func remove(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try authorize(request).name
        let token = try Self.token(context)
        let pool = try await database.ready().pool
        let removed = try await pool.transaction { tx in
            try Activities.deactivate(token: token, app: app, reason: "removed by the app", in: tx)
        }
        guard removed else { throw APIError.notFound("no active activity has this push token") }
        return Response(status: .noContent)
    }

    /// `fcmToken` or `fid` of a body (at most one), `nil` when neither is given and not `required`.
    static func fcmAddress(_ fields: Fields, required: Bool) throws -> FCMAddress? {
        let token = fields.members["fcmToken"].flatMap { $0 == .null ? nil : $0 }
        let fid = fields.members["fid"].flatMap { $0 == .null ? nil : $0 }
        switch (token, fid) {
        case (.some, .some): throw invalid("fid", "give fcmToken or fid, not both")
        case (.some, nil): return .token(try fields.string("fcmToken"))
        case (nil, .some): return .fid(try fields.string("fid"))
        case (nil, nil):
            if required { throw invalid("fcmToken", "is required (or fid)") }
            return nil
        }
    }

    /// The `{token}` of the path, normalized; a 400 naming `pushToken` when malformed.
    private static func token(_ context: BasicRequestContext) throws -> String {
        do {
            return try Activities.normalizedToken(try context.parameters.require("token"))
        } catch let error as ActivityError {
            throw invalid(error.field, error.reason)
        }
    }

    static func json(_ delivery: ActivityDelivery) -> JSONValue {
        guard case .object(var members) = json(delivery.activity) else { return .null }
        var pushes: JSONObject = ["planned": .int(delivery.planned)]
        for state in ["pending", "sent", "superseded", "failed"] { pushes[state] = .int(delivery.pushes[state] ?? 0) }
        members["pushes"] = .object(pushes)
        members["highPriorityLastHour"] = .object([
            "sent": .int(delivery.highPriorityLastHour), "budget": .int(delivery.hourlyBudget),
        ])
        members["lastSentAt"] = delivery.lastSentAt.map { .string(rfc3339($0)) } ?? .null
        members["lastAnswer"] =
            delivery.lastAnswer.map { answer in
                .object([
                    "status": answer.status.map(JSONValue.int) ?? .null,
                    "reason": answer.reason.map(JSONValue.string) ?? .null, "outcome": .string(answer.outcome),
                    "at": .string(rfc3339(answer.at)),
                ])
            } ?? .null
        members["channel"] = delivery.channel.map(JSONValue.string) ?? .null
        return .object(members)
    }

    /// The app whose key the request presents: a 401 without a key, a 403 with a key of no app.
    @discardableResult
    func authorize(_ request: Request) throws -> AppSettings {
        try Credentials.requireApp(request, in: configuration.appKeys)
    }

    /// The body's `environment`, `production` when it has none.
    static func environment(_ fields: Fields) throws -> PushEnvironment {
        let name = try fields.string("environment", default: PushEnvironment.production.rawValue)
        guard let environment = PushEnvironment(rawValue: name) else {
            throw invalid("environment", "must be \"production\" or \"sandbox\"")
        }
        return environment
    }

    /// The body's `bundleId`, else the app's bundle id when its settings list exactly one, else the
    /// server's `SCOREFEED_APNS_BUNDLE_ID` (as the CLI falls back to it); a 400 naming `bundleId` when none.
    func bundleId(_ fields: Fields, of app: AppSettings) throws -> String {
        if let given = fields.members["bundleId"], given != .null { return try fields.string("bundleId") }
        if app.bundleIds.count == 1 { return app.bundleIds[0] }
        if let server = configuration.apnsBundleId { return server }
        throw Self.invalid(
            "bundleId",
            "is required (the app's settings list no single bundle id and SCOREFEED_APNS_BUNDLE_ID is not set)")
    }

    /// A 400 naming `bundleId` when the app lists its bundle ids and this is not one of them.
    static func requireBundle(_ bundleId: String, of app: AppSettings) throws {
        guard app.bundleIds.isEmpty || app.bundleIds.contains(bundleId) else {
            throw invalid("bundleId", "is not a bundle id of this app (\(app.bundleIds.joined(separator: ", ")))")
        }
    }

    /// A refused registration as answered: 409 for a token of another app or game and for a game that
    /// is over (`game-over`, with how it ended), 404 for an unknown start token; each naming its field.
    static func refused(_ refusal: RegistrationRefusal) -> APIError {
        var problem: JSONObject = ["field": .string(refusal.field), "reason": .string(refusal.description)]
        switch refusal {
        case .otherApp, .otherGame:
            return APIError(.conflict, "token-in-use", refusal.description, details: .array([.object(problem)]))
        case .unknownStartToken:
            return APIError(.notFound, "unknown-start-token", refusal.description, details: .array([.object(problem)]))
        case .gameOver(let end):
            problem["reason"] = .string("the game is over")
            problem["gameId"] = .string(end.gameId)
            problem["status"] = .string(end.status.rawValue)
            problem["home"] = .string(end.home)
            problem["away"] = .string(end.away)
            problem["homeScore"] = .int(end.homeScore)
            problem["awayScore"] = .int(end.awayScore)
            problem["endedAt"] = .string(rfc3339(end.at))
            return APIError(.conflict, "game-over", end.description, details: .array([.object(problem)]))
        }
    }

    static func json(_ activity: Activity) -> JSONValue {
        .object(
            JSONObject([
                "id": .int(activity.id), "gameId": .string(activity.gameId), "pushToken": .string(activity.pushToken),
                "environment": .string(activity.environment.rawValue), "bundleId": .string(activity.bundleId),
                "frequentUpdates": .bool(activity.frequentUpdates),
                "registeredAt": .string(rfc3339(activity.registeredAt)),
                "endedAt": activity.endedAt.map { .string(rfc3339($0)) } ?? .null, "active": .bool(activity.active),
                "deactivatedReason": activity.deactivatedReason.map(JSONValue.string) ?? .null,
                "route": .string(activity.route.rawValue),
            ]).merging(FCMAddress.jsonMembers(activity.fcm)) { $1 })
    }

    /// The members of a JSON object body, read with field-naming errors.
    struct Fields {
        let members: JSONObject

        func string(_ name: String, default fallback: String? = nil) throws -> String {
            switch members[name] {
            case .string(let text)?: return text
            case nil, .null?:
                if let fallback { return fallback }
                throw ActivityRoutes.invalid(name, "is required")
            default: throw ActivityRoutes.invalid(name, "must be a string")
            }
        }

        func bool(_ name: String, default fallback: Bool) throws -> Bool {
            switch members[name] {
            case .bool(let value)?: return value
            case nil, .null?: return fallback
            default: throw ActivityRoutes.invalid(name, "must be true or false")
            }
        }
    }

    static func fields(_ body: Data) throws -> Fields {
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch {
            throw APIError.badRequest("the body is not JSON: \(error)")
        }
        guard case .object(let members) = value else { throw APIError.badRequest("the body must be a JSON object") }
        try InputGuard.requireStorable(value)
        return Fields(members: members)
    }

    static func invalid(_ field: String, _ reason: String) -> APIError {
        APIError(
            .badRequest, "invalid-field", "\(field): \(reason)",
            details: .array([.object(["field": .string(field), "reason": .string(reason)])]))
    }
}
