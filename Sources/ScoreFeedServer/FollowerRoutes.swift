import Foundation
import Hummingbird
import ScoreDomain
import ScoreStore

/// `POST /v1/followers`, `GET /v1/followers`, `DELETE /v1/followers`: an app's backend registers the
/// Android devices whose user chose to follow a game (an Android 16 Live Update), with an app key.
struct FollowerRoutes {
    let activities: ActivityRoutes
    var database: Database { activities.database }

    /// `POST /v1/followers` `{"gameId", "fcmToken" | "fid", "at"?, "allowUnknownGame"?}`.
    func follow(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let settings = try activities.authorize(request)
        let (app, viaTopic) = (settings.name, settings.androidTopics)
        guard request.mediaType == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupported-media-type", "send the follow as application/json")
        }
        let fields = try ActivityRoutes.fields(try await request.collectBody(upTo: 16 * 1024, what: "a follow"))
        // Every problem of the body at once: its fields' types first, then their values.
        var problems = BodyProblems()
        let gameId = try problems.check { try fields.string("gameId") }
        let address = try problems.check { try ActivityRoutes.fcmAddress(fields, required: true) } ?? nil
        let followedAt = try problems.check { () throws -> Date in
            guard fields.members["at"] != nil, fields.members["at"] != .null else { return Date() }
            guard let at = InputRules.timestamp(try fields.string("at")) else {
                throw ActivityRoutes.invalid(
                    "at", "must be an RFC 3339 timestamp such as 2026-05-12T23:55:00Z, \(InputRules.dateRule)")
            }
            return at
        }
        let allowUnknown = try problems.check { try fields.bool("allowUnknownGame", default: false) }
        _ = try gameId.map { gameId in try problems.check { try Activities.validate(gameId: gameId) } }
        _ = try address.map { address in try problems.check { try address.validated() } }
        try problems.finish()
        guard let gameId, let address, let followedAt, let allowUnknown else {
            throw APIError.badRequest("the follow is invalid")
        }
        let pool = try await database.ready().pool
        let follower: Follower
        let started: Bool
        let policy = activities.planner.policy
        do {
            (follower, started) = try await pool.transaction { [followedAt] tx in
                guard try allowUnknown || EventLog.hasStream(gameId, in: tx) else {
                    throw APIError.notFound(
                        "no game \"\(gameId)\" yet: no message of it has arrived; send \"allowUnknownGame\": true "
                            + "if the provider will announce it later")
                }
                return try Followers.follow(
                    gameId: gameId, fcm: address, app: app, at: followedAt, policy: policy, viaTopic: viaTopic, in: tx)
            }
        } catch let refusal as Followers.Refusal {
            throw APIError(.conflict, "too-many-games", refusal.description)
        } catch let refusal as RegistrationRefusal {
            throw ActivityRoutes.refused(refusal)
        }
        // 201 when this request started the follow, 200 when the device already followed the game.
        return .json(follower.jsonValue, status: started ? .created : .ok)
    }

    /// `GET /v1/followers?gameId=…`: the followers (of one game), active first.
    func list(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try activities.authorize(request).name
        let gameId = request.uri.queryParameters.get("gameId")
        if let gameId {
            do {
                try Activities.validate(gameId: gameId)
            } catch {
                throw ActivityRoutes.invalid(error.field, error.reason)
            }
        }
        let pool = try await database.ready().pool
        let followers = try await pool.withSession { try Followers.list(gameId: gameId, app: app, in: $0) }
        return .json(.array(followers.map(\.jsonValue)))
    }

    /// `DELETE /v1/followers?gameId=…&fcmToken=…` (or `&fid=…`, or the same as a JSON body): the device
    /// stops following (unpin).
    func unfollow(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try activities.authorize(request).name
        // The follow is named by the query (`?gameId=…&fcmToken=…` or `&fid=…`), or by a JSON body;
        // with neither, gameId is what is missing first.
        let query = request.uri.queryParameters
        let names = ["gameId", "fcmToken", "fid"]
        let body =
            names.contains(where: { query.get($0) != nil })
            ? Data() : try await request.collectBody(upTo: 16 * 1024, what: "an unfollow")
        let fields: ActivityRoutes.Fields
        if body.isEmpty {
            var members: JSONObject = [:]
            for name in names { members[name] = query.get(name).map(JSONValue.string) }
            fields = ActivityRoutes.Fields(members: members)
        } else {
            guard request.mediaType == "application/json" else {
                throw APIError(
                    .unsupportedMediaType, "unsupported-media-type",
                    "name the follow with ?gameId=…&fcmToken=… or send it as application/json")
            }
            fields = try ActivityRoutes.fields(body)
        }
        let gameId = try fields.string("gameId")
        let address = try ActivityRoutes.fcmAddress(fields, required: true)!
        let pool = try await database.ready().pool
        let removed = try await pool.transaction {
            try Followers.unfollow(gameId: gameId, fcmToken: address.value, app: app, in: $0)
        }
        guard removed else {
            throw APIError.notFound("this device does not follow game \"\(gameId.clipped())\"")
        }
        return Response(status: .noContent)
    }
}
