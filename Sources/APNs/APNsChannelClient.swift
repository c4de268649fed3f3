import Foundation
import HTTP2Client
import Logging
import NIOCore
import NIOHPACK
import NIOSSL

/// Apple's broadcast channel management API (`POST/GET/DELETE /1/apps/<bundle>/channels`,
/// `GET /1/apps/<bundle>/all-channels`) over its own HTTP/2 connection, with the same JWT as pushes.
/// Never throws: every call answers an ``APNsResult`` (status and reason, or a transport error).
public final class APNsChannelClient: Sendable {
    /// Apple's management hosts (production and sandbox differ in host and port).
    public static func defaultURL(for environment: APNsConfiguration.Environment) -> URL {
        switch environment {
        case .production: URL(string: "https://api-manage-broadcast.push.apple.com:2196")!
        case .sandbox: URL(string: "https://api-manage-broadcast.sandbox.push.apple.com:2195")!
        case .custom(let url): url
        }
    }

    /// `message-storage-policy` 0: No Message Storage, as Apple advises for sports scores (a higher
    /// publishing budget); broadcasts to such a channel must carry `apns-expiration: 0`.
    public static let noMessageStorage = 0

    public let configuration: APNsConfiguration
    public let url: URL
    private let tokenProvider: APNsTokenProvider
    private let pool: HTTP2ConnectionPool
    private let authority: String
    private let basePath: String
    private let timeout: Duration

    /// Creates a client for `url` (default: Apple's management host of the configuration's environment).
    public init(
        configuration: APNsConfiguration, url: URL? = nil, tokenProvider: APNsTokenProvider? = nil,
        timeout: Duration = .seconds(10), logger: Logger
    ) {
        self.configuration = configuration
        let url = url ?? Self.defaultURL(for: configuration.environment)
        self.url = url
        self.tokenProvider = tokenProvider ?? APNsTokenProvider(configuration: configuration)
        self.timeout = timeout
        let endpoint = APNsEndpoint(url, configuration: configuration, connections: 1)
        self.authority = endpoint.authority
        self.basePath = endpoint.pathPrefix + "/1/apps/" + configuration.bundleId
        // A client TLS configuration with extra roots always builds.
        self.pool = try! HTTP2ConnectionPool(endpoint.pool, logger: logger)
    }

    /// Creates a channel for Live Activities; on success the result's ``APNsResult/channelId`` is
    /// its id (base64, as the app passes it to ActivityKit).
    public func create(storagePolicy: Int = noMessageStorage) async -> APNsResult {
        let body = #"{"message-storage-policy":\#(storagePolicy),"push-type":"LiveActivity"}"#
        return await send("POST", "/channels", channelId: nil, body: Array(body.utf8))
    }

    /// Deletes a channel (`204` on success; stored messages are not discarded).
    public func delete(_ channelId: String) async -> APNsResult {
        await send("DELETE", "/channels", channelId: channelId, body: [])
    }

    /// Every channel of the app in this environment, or the failed answer.
    public func list() async -> Result<[String], APNsResultError> {
        let result = await send("GET", "/all-channels", channelId: nil, body: [])
        guard result.status == 200, let body = result.body,
            let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let channels = object["channels"] as? [String]
        else { return .failure(APNsResultError(result: result)) }
        return .success(channels)
    }

    /// Closes the connection.
    public func shutdown() async {
        await pool.shutdown()
    }

    private func send(_ method: String, _ path: String, channelId: String?, body: [UInt8]) async -> APNsResult {
        let jwt: String
        do {
            jwt = try tokenProvider.token()
        } catch {
            return APNsResult(error: error)
        }
        var headers: HPACKHeaders = [":method": method, ":scheme": "https", ":authority": authority]
        headers.add(name: ":path", value: basePath + path)
        headers.add(name: "authorization", value: "bearer \(jwt)", indexing: .nonIndexable)
        headers.add(name: "apns-request-id", value: UUID().uuidString.lowercased())
        if let channelId { headers.add(name: "apns-channel-id", value: channelId) }
        if !body.isEmpty { headers.add(name: "content-type", value: "application/json") }
        let outcome = await pool.execute(
            [HTTP2Request(headers: headers, body: ByteBuffer(bytes: body))], deadline: .now() + TimeAmount(timeout))[0]
        var result = APNsClient.result(outcome)
        if case .success(let response) = outcome {
            result.channelId = response.headers.first(name: "apns-channel-id")
            result.body = Array(response.body.readableBytesView)
        }
        switch (result.status, result.reason) {
        case (403, "ExpiredProviderToken"): tokenProvider.tokenExpired(jwt)
        case (429, "TooManyProviderTokenUpdates"): tokenProvider.keepCurrentToken()
        default: break
        }
        return result
    }
}

/// A failed channel management answer as an error.
public struct APNsResultError: Error, Sendable, CustomStringConvertible {
    public var result: APNsResult

    public init(result: APNsResult) {
        self.result = result
    }

    public var description: String {
        if let error = result.error { return "\(error)" }
        return "APNs answered \(result.status ?? 0)\(result.reason.map { " \($0)" } ?? "")"
    }
}
