import APNs
import Foundation
import Hummingbird
import PushDelivery
import ScoreDomain
import ScoreStore

/// `GET /v1/games/{id}/channel[?environment=production|sandbox][&at=RFC3339]`: the game's broadcast
/// channel id (base64, as the app passes it to ActivityKit), created through Apple's channel management
/// API on first use, registered as of `at` (default now: a past time lets a replayed game broadcast). With an app key: each app has its own channel of a game (Apple keeps channels per
/// bundle id), which another app's key never sees.
struct ChannelRoute {
    let configuration: ServerConfiguration
    let database: Database
    let channels: (@Sendable (PushEnvironment) -> APNsChannelClient)?

    func handle(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try Credentials.requireApp(request, in: configuration.appKeys).name
        let gameId = try context.parameters.require("id")
        do {
            try Activities.validate(gameId: gameId)
        } catch {
            throw ActivityRoutes.invalid(error.field, error.reason)
        }
        let name = request.uri.queryParameters.get("environment") ?? PushEnvironment.production.rawValue
        guard let environment = PushEnvironment(rawValue: name) else {
            throw APIError(
                .badRequest, "invalid-field", "environment: must be \"production\" or \"sandbox\"",
                details: .array([
                    .object(["field": .string("environment"), "reason": .string("must be production or sandbox")])
                ]))
        }
        var registeredAt = Date()
        if let text = request.uri.queryParameters.get("at") {
            guard let at = InputRules.timestamp(text) else {
                throw ActivityRoutes.invalid(
                    "at", "must be an RFC 3339 timestamp such as 2026-05-12T23:55:00Z, \(InputRules.dateRule)")
            }
            registeredAt = at
        }
        guard let channels else {
            throw APIError(
                .serviceUnavailable, "no-apns", "broadcast channels need the APNs settings (SCOREFEED_APNS_*)")
        }
        let pool = try await database.ready().pool
        do {
            let channel = try await ChannelKeeper.channel(
                gameId: gameId, environment: environment, app: app, client: channels(environment),
                registeredAt: registeredAt, database: pool)
            return .json(Self.json(channel))
        } catch let error as ChannelError {
            switch error {
            case .unknownGame: throw APIError.notFound(error.description)
            case .full: throw APIError(.conflict, "channel-limit", error.description)
            case .apns: throw APIError(.badGateway, "apns-refused", error.description)
            }
        }
    }

    static func json(_ channel: StoredChannel) -> JSONValue {
        .object([
            "gameId": .string(channel.gameId), "environment": .string(channel.environment.rawValue),
            "channelId": .string(channel.channelId), "storagePolicy": .int(channel.storagePolicy),
            "createdAt": .string(rfc3339(channel.createdAt)),
            "deletedAt": channel.deletedAt.map { .string(rfc3339($0)) } ?? .null,
        ])
    }
}
