import Crypto
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ScoreFeedTesting
import Testing

/// The client swift-openapi-generator made of docs/openapi.yaml (Generated/) against a running
/// `scorefeed serve`: typed calls whose answers, errors included, decode into the generated types.
@Suite("The client generated from docs/openapi.yaml against scorefeed serve", .timeLimit(.minutes(3)))
struct GeneratedClientTests {
    static let game = "2026-05-01-NYY-BOS"
    static let pushToken = "80a1f3c2d4e5f60718293a4b5c6d7e8f80a1f3c2d4e5f60718293a4b5c6d7e8f"

    /// Runs `body` with a server on a schema of its own, stopping the server after it.
    static func withServer(_ body: (Serve) async throws -> Void) async throws {
        try await TestDatabase.withSchema { url in
            let serve = try await Serve(databaseURL: url)
            do {
                try await body(serve)
            } catch {
                Issue.record("the server's output: \(try await serve.stopped().suffix(2000))")
                throw error
            }
            try await serve.stopped()
        }
    }

    /// The generated client for `serve`, with `middlewares` (the keys and signatures the description's
    /// security schemes ask for).
    static func client(_ serve: Serve, _ middlewares: [any ClientMiddleware] = []) -> Client {
        Client(
            serverURL: serve.url, configuration: .init(dateTranscoder: RFC3339Transcoder()),
            transport: AsyncHTTPClientTransport(), middlewares: middlewares)
    }

    /// The game once the projector has applied `version` of it (reads follow the event log).
    static func projected(_ client: Client, version: Int) async throws -> Components.Schemas.Game {
        for _ in 0..<200 {
            if case .ok(let found) = try await client.getV1GamesId(path: .init(id: game)),
                let state = try? found.body.json, (state.version ?? 0) >= version
            {
                return state
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestDatabaseError("game \(game) was not projected to version \(version) within 10 s")
    }

    /// A canonical message: the description's fields and, from `fields` (JSON), its type's own.
    static func message(_ id: String, _ at: String, _ type: String, _ fields: String = "{}") throws
        -> Components.Schemas.Message
    {
        try Components.Schemas.Message(
            id: id, gameId: game, at: Date.ISO8601FormatStyle().parse(at), _type: type,
            additionalProperties: JSONDecoder().decode(OpenAPIObjectContainer.self, from: Data(fields.utf8)))
    }

    /// docs/api-examples.md's first game: scheduled, started, a run for the home side.
    static func firstGame() throws -> [Components.Schemas.Message] {
        [
            try message(
                "m1", "2026-05-01T12:00:00Z", "game.scheduled",
                """
                {"home": {"code": "BOS", "name": "Boston Red Sox", "logo": "https://example.com/bos.png"},
                 "away": {"code": "NYY", "name": "New York Yankees", "logo": "https://example.com/nyy.png"},
                 "startsAt": "2026-05-01T23:05:00Z"}
                """),
            try message("m2", "2026-05-01T23:06:00Z", "game.started"),
            try message("m3", "2026-05-01T23:10:00Z", "run.scored", #"{"team": "home"}"#),
        ]
    }

    /// The `field` of each of an error's `details` entries.
    static func fields(_ error: Components.Schemas._Error) -> [String] {
        let details = error.error.details?.value as? [(any Sendable)?] ?? []
        return details.map { ($0 as? [String: (any Sendable)?])?["field"] as? String ?? "?" }
    }

    @Test("health, the description, a signed batch, the games, a game and the scoreboard")
    func reads() async throws {
        try await Self.withServer { serve in
            let client = Self.client(serve)
            let health = try await client.getHealthz().ok.body.json.value as? [String: (any Sendable)?]
            #expect(health?["status"] as? String == "ok")

            let description = try await Data(collecting: client.getOpenapi_yaml().ok.body.yaml, upTo: 1 << 22)
            #expect(
                hex(SHA256.hash(data: description)) == GeneratedSpec.sha256,
                "the server serves another description than Generated/ was made from")

            let signed = Self.client(serve, [WebhookSignature(secret: Serve.secret)])
            let batch = Operations.PostV1Feed.Input.Body.json(.case2(try Self.firstGame()))
            #expect(
                try await signed.postV1Feed(body: batch).accepted.body.json
                    == .init(accepted: 3, duplicates: 0, received: 3))
            #expect(
                try await signed.postV1Feed(body: batch).accepted.body.json
                    == .init(accepted: 0, duplicates: 3, received: 3))

            let game = try await Self.projected(client, version: 3)
            let games = try await client.getV1Games(query: .init(status: .inprogress)).ok.body.json
            #expect(games == [game])
            #expect(game.home == .init(code: "BOS", name: "Boston Red Sox", logo: "https://example.com/bos.png"))
            #expect(game.away?.code == "NYY")
            #expect(game.startsAt == (try Date.ISO8601FormatStyle().parse("2026-05-01T23:05:00Z")))
            #expect(game.status == .inprogress)
            #expect(game.sport == .baseball)
            #expect(game.half == .top)
            #expect([game.homeScore, game.awayScore] == [1, 0])

            let missing = try await client.getV1GamesId(path: .init(id: "2026-05-02-NYY-BOS")).notFound.body.json
            #expect(missing.error.status == 404)
            #expect(missing.error.code == "not-found")

            let board = try await client.getV1Scoreboard(query: .init(date: "2026-05-01", tz: "America/New_York"))
                .ok.body.json
            #expect(board.date == "2026-05-01")
            #expect(board.days == [.init(date: "2026-05-01", games: 1)])
            #expect(board.games?.map(\.game?.gameId) == [Self.game])
            #expect(board.games?.first?.latestPush == nil, "no activity, no push")

            let zone = try await client.getV1Scoreboard(query: .init(tz: "Mars/Olympus")).badRequest.body.json
            #expect(zone.error.status == 400)
            #expect(zone.error.message.contains("tz"), "\(zone.error.message)")
        }
    }

    @Test("an app registers a Live Activity with its key and reads it back; what it may not do")
    func activity() async throws {
        try await Self.withServer { serve in
            let ingest = Self.client(serve, [BearerKey(key: Serve.ingestKey)])
            _ = try await ingest.postV1Feed(body: .json(.case2(try Self.firstGame()))).accepted
            _ = try await Self.projected(ingest, version: 3)
            let app = Self.client(serve, [BearerKey(key: Serve.appKey)])
            let registration = Operations.PostV1GamesIdActivities.Input.Body.JsonPayload(
                pushToken: Self.pushToken, environment: .sandbox, bundleId: "com.example.scores")

            let created = try await app.postV1GamesIdActivities(
                path: .init(id: Self.game), body: .json(registration)
            ).created.body.json
            #expect(created.gameId == Self.game)
            #expect(created.pushToken == Self.pushToken)
            #expect(created.environment == .sandbox)
            #expect(created.bundleId == "com.example.scores")
            #expect(created.route == .apns)
            #expect(created.active == true)
            #expect(created.endedAt == nil)

            let read = try await app.getV1ActivitiesToken(path: .init(token: Self.pushToken)).ok.body.json
            #expect(read.value1 == created)
            #expect(read.value2.pushes?.planned != nil)
            #expect(read.value2.highPriorityLastHour?.sent == 0)

            // Every problem of the body at once, decoded as the description's Error.
            var wrong = registration
            wrong.pushToken = "zz"
            wrong.fcmToken = .init(value1: "short")
            let invalid = try await app.postV1GamesIdActivities(path: .init(id: Self.game), body: .json(wrong))
                .badRequest.body.json
            #expect(invalid.error.code == "invalid-field")
            #expect(Self.fields(invalid) == ["pushToken", "fcmToken"])

            let unknown = try await app.postV1GamesIdActivities(
                path: .init(id: "2026-05-02-NYY-BOS"), body: .json(registration)
            ).notFound.body.json
            #expect(unknown.error.code == "not-found")

            let keyless = try await Self.client(serve).getV1ActivitiesToken(path: .init(token: Self.pushToken))
            #expect(try keyless.unauthorized.body.json.error.status == 401)
            let otherKey = try await Self.client(serve, [BearerKey(key: "ak_not_a_key")])
                .getV1ActivitiesToken(path: .init(token: Self.pushToken))
            #expect(try otherKey.forbidden.body.json.error.status == 403)
        }
    }

    @Test("the webhook refuses a wrong signature, an old timestamp and an invalid message, saying why")
    func webhookRefusals() async throws {
        try await Self.withServer { serve in
            let first = Operations.PostV1Feed.Input.Body.json(.Message(try Self.firstGame()[0]))
            let forged = try await Self.client(serve, [WebhookSignature(secret: "whsec_wrong")])
                .postV1Feed(body: first)
            #expect(try forged.forbidden.body.json.error.status == 403)
            let late = try await Self.client(serve, [WebhookSignature(secret: Serve.secret, offset: -600)])
                .postV1Feed(body: first)
            #expect(try late.unauthorized.body.json.error.code == "signature-expired")

            let signed = Self.client(serve, [WebhookSignature(secret: Serve.secret)])
            let bad = try Self.message("m9", "2026-05-01T23:10:00Z", "run.scored", #"{"team": "middle"}"#)
            let refused = try await signed.postV1Feed(body: .json(.case2([try Self.firstGame()[0], bad])))
                .badRequest.body.json
            #expect(refused.error.code == "invalid-messages")
            #expect(Self.fields(refused) == ["team"])
            let whole = try await signed.postV1Feed(body: .json(.case2(try Self.firstGame()))).accepted.body.json
            #expect(whole == .init(accepted: 3, duplicates: 0, received: 3), "nothing of the refused batch was stored")
        }
    }
}
