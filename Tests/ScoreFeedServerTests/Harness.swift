import APNs
import AsyncHTTPClient
import FCM
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ScoreFeedServer
import ScoreFeedTesting
import ScoreStore
import ServiceLifecycle
import Testing

let ingestKey = "ingest-key-for-tests-0001"
let ingestSecret = "ingest-secret-for-tests-0001"
let appKey = "app-key-for-tests-000000001"
/// The key of a second app (`other`, bundle id com.other.scores): it must never see the first app's data.
let otherAppKey = "other-app-key-for-tests-0001"

/// A server running in this process on a free port, in a schema of its own.
struct RunningServer: Sendable {
    let base: String
    let databaseURL: String
    let server: ScoreFeedServer?

    /// One HTTP exchange.
    struct Reply: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        /// `error.code` of a JSON error body.
        var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
    }

    func request(
        _ method: HTTPMethod, _ path: String, body: String? = nil, headers: [(String, String)] = []
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
    }

    /// `POST /v1/feed` with the ingest key.
    func ingest(_ body: String, type: String = "application/json") async throws -> Reply {
        try await request(
            .POST, "/v1/feed", body: body, headers: [("Authorization", "Bearer \(ingestKey)"), ("Content-Type", type)])
    }

    /// Waits until the projection of `gameId` reaches `version`.
    func waitForGame(_ gameId: String, version: Int) async throws -> [String: Any] {
        for _ in 0..<200 {
            let reply = try await request(.GET, "/v1/games/\(gameId)")
            if reply.status == 200, (reply.object["version"] as? Int ?? 0) >= version { return reply.object }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestDatabaseError("game \(gameId) did not reach version \(version)")
    }
}

/// Runs `body` against a fresh server; the server is stopped afterwards.
func withServer(
    maxBodyBytes: Int = 1 << 20, apns: APNsClient? = nil, channels: APNsChannelClient? = nil,
    broadcasts: APNsClient? = nil, fcm: FCMClient? = nil,
    streamMemory: Int = 4096, readURL: (@Sendable (String) -> String)? = nil,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (RunningServer) async throws -> Void
) async throws {
    try await TestDatabase.withSchema { url in
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.ingestKeys = [ingestKey, "second-ingest-key-000001"]
        configuration.ingestSecret = ingestSecret
        configuration.appKeys = AppKeys(apps: [
            AppSettings(name: AppName.default, keys: [appKey]),
            AppSettings(name: "other", keys: [otherAppKey], bundleIds: ["com.other.scores"]),
        ])
        configuration.maxBodyBytes = maxBodyBytes
        configuration.databaseConnections = 2
        configuration.readDatabaseURL = readURL?(url)
        configure(&configuration)
        var delivery: (@Sendable (PushEnvironment) -> APNsClient)?
        if let apns { delivery = { _ in apns } }
        var server = ScoreFeedServer(
            configuration: configuration, databaseURL: url, apns: delivery, logger: quietLogger,
            streamMemory: streamMemory)
        if let channels { server.channels = { _ in channels } }
        if let broadcasts { server.broadcasts = { _ in broadcasts } }
        server.fcm = fcm
        let (ports, found) = AsyncStream.makeStream(of: Int.self)
        let services = ServiceGroup(
            configuration: .init(services: [InProcess(server: server, found: found)], logger: quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw TestDatabaseError("the server did not start") }
            let running = RunningServer(base: "http://127.0.0.1:\(port)", databaseURL: url, server: server)
            for _ in 0..<200 where try await running.request(.GET, "/readyz").status != 200 {
                try await Task.sleep(for: .milliseconds(25))
            }
            do {
                try await body(running)
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            // Stopped as SIGTERM stops it: gracefully.
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }
}

/// The server as a service of the test's own group, which shuts it down gracefully.
private struct InProcess: Service {
    let server: ScoreFeedServer
    let found: AsyncStream<Int>.Continuation

    func run() async throws {
        try await server.run(signals: []) { found.yield($0) }
    }
}

/// Canonical messages for a small game `gameId`, one JSON object each.
func scheduled(_ gameId: String, id: String? = nil, startsAt: String = "2026-05-01T23:05:00Z") -> String {
    """
    {"id":"\(id ?? "\(gameId)-s")","gameId":"\(gameId)","at":"2026-05-01T12:00:00Z","type":"game.scheduled",\
    "home":{"code":"BOS","name":"Boston Red Sox","logo":"https://example.com/bos.png"},\
    "away":{"code":"NYY","name":"New York Yankees","logo":"https://example.com/nyy.png"},"startsAt":"\(startsAt)"}
    """
}

func started(_ gameId: String) -> String {
    #"{"id":"\#(gameId)-start","gameId":"\#(gameId)","at":"2026-05-01T23:06:00Z","type":"game.started"}"#
}

func run(_ gameId: String, _ n: Int, team: String = "home", minute: Int = 10) -> String {
    #"{"id":"\#(gameId)-run-\#(n)","gameId":"\#(gameId)","at":"2026-05-01T23:\#(minute):00Z","type":"run.scored","team":"\#(team)"}"#
}

func final(_ gameId: String) -> String {
    #"{"id":"\#(gameId)-final","gameId":"\#(gameId)","at":"2026-05-02T02:00:00Z","type":"game.ended","status":"closed"}"#
}
