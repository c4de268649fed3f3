import Foundation
import HTTP2Client
import Logging
import NIOCore
import NIOHPACK
import NIOSSL

/// Sends Live Activity pushes to APNs over HTTP/2 + TLS with token authentication.
///
/// Built for fan-out: a pool of HTTP/2 connections (``connections``, spoken directly on SwiftNIO),
/// each honouring the server's `SETTINGS_MAX_CONCURRENT_STREAMS` (APNs allows 1000; extra requests
/// wait in order), the header block shared by every push of a kind prepared once per batch, each push
/// written as HEADERS + one DATA frame, a whole batch flushed at once, health PINGs, reconnects with the
/// shared backoff, and a per-connection error-rate guard. Call ``shutdown()`` before release.
public final class APNsClient: Sendable {
    /// The configuration the client was built with.
    public let configuration: APNsConfiguration
    /// Hands out the JWT; shared by all requests of this client.
    public let tokenProvider: APNsTokenProvider
    /// The time one request may take, from queueing to the end of the answer.
    public let requestTimeout: Duration
    /// The HTTP/2 connections kept to the APNs host.
    public let connections: Int

    private let pool: HTTP2ConnectionPool
    private let logger: Logger
    private let authority: String
    private let pathPrefix: String
    /// `<base>/4/broadcasts/apps/<bundle>`.
    private let broadcastPath: String

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: Key, ids, server and extra CA.
    ///   - requestTimeout: The time one request may take (default 10 s).
    ///   - connections: HTTP/2 connections to keep to the host (default 1).
    ///   - tokenProvider: The JWT provider (default: one built from `configuration` with the real clock).
    ///   - logger: Receives debug/info lines with `apns.*` metadata; tokens appear shortened to 8 characters.
    public init(
        configuration: APNsConfiguration,
        requestTimeout: Duration = .seconds(10),
        connections: Int = 1,
        tokenProvider: APNsTokenProvider? = nil,
        url: URL? = nil,
        logger: Logger
    ) {
        self.configuration = configuration
        self.requestTimeout = requestTimeout
        self.connections = max(1, connections)
        self.tokenProvider = tokenProvider ?? APNsTokenProvider(configuration: configuration)
        self.logger = logger
        let endpoint = APNsEndpoint(
            url ?? configuration.environment.baseURL, configuration: configuration, connections: connections)
        self.authority = endpoint.authority
        self.pathPrefix = endpoint.pathPrefix + "/3/device/"
        self.broadcastPath = endpoint.pathPrefix + "/4/broadcasts/apps/" + configuration.bundleId
        var pool = endpoint.pool
        // 410 Unregistered is the normal churn of tokens, not a sign of a misbehaving provider.
        pool.isError = { $0.status >= 400 && $0.status != 410 }
        // IdleTimeout, UnrelatedKeyIdInToken, 503 Shutdown: the next push goes on a new connection.
        pool.retiresConnection = { response in
            guard response.status == 400 || response.status == 403 || response.status == 503 else { return false }
            return APNsAction.retiresConnection(status: response.status, reason: Self.result(.success(response)).reason)
        }
        // The configuration was validated (a client TLS configuration with extra roots always builds).
        self.pool = try! HTTP2ConnectionPool(pool, logger: logger)
    }

    /// Sends one push and reports what APNs answered; never throws. See ``send(_:timeout:)-([APNsRequest],_)``.
    public func send(_ request: APNsRequest, timeout: Duration? = nil) async -> APNsResult {
        await send([request], timeout: timeout)[0]
    }

    /// Sends pushes together (written as one batch, flushed at once) and reports what APNs answered
    /// to each, in order; never throws. The pushes may be processed in any order: send two pushes of
    /// one activity in separate calls.
    ///
    /// A `403 ExpiredProviderToken` answer makes the token provider sign a new JWT for the next request;
    /// `429 TooManyProviderTokenUpdates` makes it keep the current one. Retrying is up to the caller
    /// (see ``APNsResult/action``). The only resend done here: a push that never reached APNs (its
    /// connection was closing, or the server's GOAWAY said it was not processed) is sent once more.
    /// - Parameters:
    ///   - requests: The pushes.
    ///   - timeout: The time they may take (default: ``requestTimeout``).
    /// - Returns: For each push the status, reason, echoed `apns-id` and 410 timestamp, or a transport error.
    public func send(_ requests: [APNsRequest], timeout: Duration? = nil) async -> [APNsResult] {
        guard !requests.isEmpty else { return [] }
        let jwt: String
        do {
            jwt = try tokenProvider.token()
        } catch {
            return requests.map { log(APNsResult(error: error), $0) }
        }
        let deadline = NIODeadline.now() + TimeAmount(timeout ?? requestTimeout)
        var results = [APNsResult?](repeating: nil, count: requests.count)
        var toSend: [Int] = []
        toSend.reserveCapacity(requests.count)
        for (index, request) in requests.enumerated() {
            if APNsConfiguration.isAlphanumeric(request.deviceToken) {
                toSend.append(index)
            } else {
                results[index] = APNsResult(
                    error: APNsError(.invalidRequest, "device token must be ASCII letters and digits"))
            }
        }
        let kinds = HeaderKinds(topic: configuration.topic, authority: authority, jwt: jwt)
        for attempt in 1...2 where !toSend.isEmpty {
            let outcomes = await pool.execute(
                toSend.map { kinds.request(requests[$0], pathPrefix: pathPrefix) }, deadline: deadline)
            var notSent: [Int] = []
            for (index, outcome) in zip(toSend, outcomes) {
                if case .failure(let error) = outcome, error.code == .notSent, attempt == 1, !Task.isCancelled {
                    notSent.append(index)
                } else {
                    results[index] = Self.result(outcome)
                }
            }
            toSend = notSent
        }
        var expired = false
        var keep = false
        let final = zip(requests, results).map { request, result -> APNsResult in
            let result = result ?? APNsResult(error: APNsError(.transport, "no outcome"))
            switch (result.status, result.reason) {
            case (403, "ExpiredProviderToken"): expired = true
            case (429, "TooManyProviderTokenUpdates"): keep = true
            default: break
            }
            return log(result, request)
        }
        if expired { tokenProvider.tokenExpired(jwt) }
        if keep { tokenProvider.keepCurrentToken() }
        return final
    }

    /// Apple's broadcast hosts (keep them configurable: Apple's documents name two).
    public static func defaultBroadcastURL(for environment: APNsConfiguration.Environment) -> URL {
        switch environment {
        case .production: URL(string: "https://api-broadcast.push.apple.com")!
        case .sandbox: URL(string: "https://api-broadcast.sandbox.push.apple.com")!
        case .custom(let url): url
        }
    }

    /// Sends broadcasts (`POST /4/broadcasts/apps/<bundle>` with `apns-channel-id`, no `apns-topic`,
    /// `apns-expiration: 0`, as No Message Storage channels require), one batch; one result each.
    public func send(broadcasts: [APNsBroadcast], timeout: Duration? = nil) async -> [APNsResult] {
        guard !broadcasts.isEmpty else { return [] }
        let jwt: String
        do {
            jwt = try tokenProvider.token()
        } catch {
            return broadcasts.map { _ in APNsResult(error: error) }
        }
        let deadline = NIODeadline.now() + TimeAmount(timeout ?? requestTimeout)
        let requests = broadcasts.map { broadcast -> HTTP2Request in
            var headers: HPACKHeaders = [":method": "POST", ":scheme": "https", ":authority": authority]
            headers.add(name: ":path", value: broadcastPath)
            headers.add(name: "apns-channel-id", value: broadcast.channelId, indexing: .nonIndexable)
            headers.add(name: "apns-push-type", value: "liveactivity")
            headers.add(name: "apns-priority", value: String(broadcast.priority.rawValue))
            headers.add(name: "apns-expiration", value: "0")
            headers.add(name: "apns-request-id", value: broadcast.requestId, indexing: .nonIndexable)
            headers.add(name: "authorization", value: "bearer \(jwt)", indexing: .nonIndexable)
            headers.add(name: "content-type", value: "application/json")
            return HTTP2Request(headers: headers, body: ByteBuffer(bytes: broadcast.payload))
        }
        var outcomes = await pool.execute(requests, deadline: deadline)
        // Never reached APNs (a closing connection, GOAWAY): once more.
        let notSent = outcomes.indices.filter {
            if case .failure(let error) = outcomes[$0], error.code == .notSent { return true }
            return false
        }
        if !notSent.isEmpty, !Task.isCancelled {
            let again = await pool.execute(notSent.map { requests[$0] }, deadline: deadline)
            for (index, outcome) in zip(notSent, again) { outcomes[index] = outcome }
        }
        let results = outcomes.map(Self.result)
        if results.contains(where: { $0.status == 403 && $0.reason == "ExpiredProviderToken" }) {
            tokenProvider.tokenExpired(jwt)
        }
        return results
    }

    /// Closes the connections; the client cannot send afterwards.
    public func shutdown() async throws {
        await pool.shutdown()
    }

    /// The header blocks shared by all pushes of one priority in a batch. As Apple advises, `:path`
    /// (a token each) and `authorization` go as literals without indexing; the rest are indexed, so
    /// HPACK sends them as table references after the first push.
    private struct HeaderKinds {
        let head: HPACKHeaders
        let tails: [APNsPriority: HPACKHeaders]
        let authorization: String

        init(topic: String, authority: String, jwt: String) {
            head = [":method": "POST", ":scheme": "https", ":authority": authority]
            var tails: [APNsPriority: HPACKHeaders] = [:]
            for priority in APNsPriority.allCases {
                tails[priority] = [
                    "apns-push-type": "liveactivity", "apns-topic": topic, "apns-priority": String(priority.rawValue),
                    "content-type": "application/json",
                ]
            }
            self.tails = tails
            self.authorization = "bearer \(jwt)"
        }

        func request(_ push: APNsRequest, pathPrefix: String) -> HTTP2Request {
            var headers = head
            headers.reserveCapacity(11)
            headers.add(name: ":path", value: pathPrefix + push.deviceToken, indexing: .nonIndexable)
            headers.add(contentsOf: tails[push.priority]!)
            headers.add(name: "authorization", value: authorization, indexing: .nonIndexable)
            headers.add(name: "apns-expiration", value: String(push.expiration))
            headers.add(name: "apns-id", value: push.apnsId.lowercasedText, indexing: .nonIndexable)
            return HTTP2Request(headers: headers, body: ByteBuffer(bytes: push.payload))
        }
    }

    private struct ErrorBody: Decodable {
        var reason: String?
        var timestamp: Int64?
    }

    /// The APNs result of an HTTP/2 outcome: status, reason and timestamp of the error body, `apns-id`.
    public static func result(_ outcome: HTTP2Outcome) -> APNsResult {
        switch outcome {
        case .success(let response):
            let apnsId = response.headers.first(name: "apns-id").flatMap { UUID(text: $0) }
            let decoded =
                response.body.readableBytes == 0
                ? nil : try? JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView))
            return APNsResult(
                status: response.status, reason: decoded?.reason, apnsId: apnsId, timestamp: decoded?.timestamp)
        case .failure(let error):
            return APNsResult(error: transportError(error))
        }
    }

    static func transportError(_ error: HTTP2ClientError) -> APNsError {
        switch error.code {
        case .timeout: APNsError(.timeout, "no answer in time (\(error.message))")
        case .notSent, .connectionClosed:
            APNsError(.connectionClosed, "connection closed before the answer (\(error.message))")
        case .connectFailed: APNsError(.connectFailed, "cannot connect (\(error.message))")
        case .shutDown: APNsError(.clientShutDown, "the client is shut down")
        case .streamReset: APNsError(.transport, error.message)
        case .cancelled: APNsError(.connectionClosed, "request cancelled (\(error.message))")
        }
    }

    private func log(_ result: APNsResult, _ request: APNsRequest) -> APNsResult {
        // A line below the logger's level costs nothing, the common case (a delivered push) included.
        guard logger.logLevel <= (result.isDelivered ? .debug : .info) else { return result }
        var metadata: Logger.Metadata = [
            "apns.token": "\(request.redactedToken)",
            "apns.id": "\(request.apnsId.uuidString.lowercased())",
        ]
        if let status = result.status { metadata["apns.status"] = "\(status)" }
        if let reason = result.reason { metadata["apns.reason"] = "\(reason)" }
        if let error = result.error { metadata["apns.error"] = "\(error.code.rawValue)" }
        if result.isDelivered {
            logger.debug("APNs push delivered", metadata: metadata)
        } else {
            logger.info("APNs push not delivered", metadata: metadata)
        }
        return result
    }
}

/// One broadcast to a channel.
public struct APNsBroadcast: Sendable, Hashable {
    /// The channel's id (base64).
    public var channelId: String
    /// The exact body, `{"aps":{...}}`, at most 5,120 bytes.
    public var payload: [UInt8]
    public var priority: APNsPriority
    /// Stable across retries (`apns-request-id`).
    public var requestId: String

    public init(channelId: String, payload: [UInt8], priority: APNsPriority, requestId: String) {
        self.channelId = channelId
        self.payload = payload
        self.priority = priority
        self.requestId = requestId
    }
}
