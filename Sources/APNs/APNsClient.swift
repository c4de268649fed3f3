import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Sends Live Activity pushes to APNs over HTTP/2 + TLS with token authentication.
///
/// All requests share one HTTP/2 connection per host (async-http-client multiplexes streams up to the
/// server's `SETTINGS_MAX_CONCURRENT_STREAMS`, APNs allows 1000; extra requests wait in a queue).
/// Call ``shutdown()`` before the client is released.
public final class APNsClient: Sendable {
    /// The configuration the client was built with.
    public let configuration: APNsConfiguration
    /// Hands out the JWT; shared by all requests of this client.
    public let tokenProvider: APNsTokenProvider
    /// The time one request may take, from queueing to the end of the answer.
    public let requestTimeout: Duration

    private let httpClient: HTTPClient
    private let logger: Logger
    private let baseURL: String

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: Key, ids, server and extra CA.
    ///   - requestTimeout: The time one request may take (default 10 s).
    ///   - tokenProvider: The JWT provider (default: one built from `configuration` with the real clock).
    ///   - eventLoopGroup: The NIO event loops (default: the shared singleton).
    ///   - logger: Receives debug/info lines with `apns.*` metadata; tokens appear shortened to 8 characters.
    public init(
        configuration: APNsConfiguration,
        requestTimeout: Duration = .seconds(10),
        tokenProvider: APNsTokenProvider? = nil,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        logger: Logger
    ) {
        self.configuration = configuration
        self.requestTimeout = requestTimeout
        self.tokenProvider = tokenProvider ?? APNsTokenProvider(configuration: configuration)
        self.logger = logger
        var url = configuration.environment.baseURL.absoluteString
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url

        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if !configuration.additionalCACertificates.isEmpty {
            tls.additionalTrustRoots = [.certificates(configuration.additionalCACertificates)]
        }
        var http = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        http.httpVersion = .automatic
        // APNs speaks HTTP/2 only: while the first connection is negotiated, do not open more.
        http.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
        http.connectionPool.idleTimeout = .minutes(10)
        // Spans of async-http-client carry the full URL, which contains the device token: no tracing here.
        http.tracing.tracer = nil
        self.httpClient = HTTPClient(
            eventLoopGroup: eventLoopGroup,
            configuration: http,
            backgroundActivityLogger: logger
        )
    }

    /// Sends one push and reports what APNs answered; never throws.
    ///
    /// A `403 ExpiredProviderToken` answer makes the token provider sign a new JWT for the next request;
    /// `429 TooManyProviderTokenUpdates` makes it keep the current one. Retrying is up to the caller
    /// (see ``APNsResult/action``). The only resend done here: a request that async-http-client refused
    /// to start because its pooled connection had just closed (it never left the client) is sent once more.
    /// - Parameters:
    ///   - request: The push.
    ///   - timeout: The time this request may take (default: ``requestTimeout``).
    /// - Returns: The status, reason, echoed `apns-id` and 410 timestamp, or a transport error.
    public func send(_ request: APNsRequest, timeout: Duration? = nil) async -> APNsResult {
        let token = request.deviceToken
        guard APNsConfiguration.isAlphanumeric(token) else {
            return APNsResult(error: APNsError(.invalidRequest, "device token must be ASCII letters and digits"))
        }
        let jwt: String
        do {
            jwt = try tokenProvider.token()
        } catch {
            return log(APNsResult(error: error), request)
        }
        let deadline = NIODeadline.now() + TimeAmount(timeout ?? requestTimeout)
        var result = await execute(request, jwt: jwt, deadline: deadline)
        if result.error == Self.notStarted, !Task.isCancelled {
            result = await execute(request, jwt: jwt, deadline: deadline)
        }
        switch (result.status, result.reason) {
        case (403, "ExpiredProviderToken"): tokenProvider.tokenExpired(jwt)
        case (429, "TooManyProviderTokenUpdates"): tokenProvider.keepCurrentToken()
        default: break
        }
        return log(result, request)
    }

    /// async-http-client's answer for a request leased to a connection that was closing at that moment.
    private static let notStarted = APNsError(.connectionClosed, "request cancelled: its connection was closing")

    private func execute(_ request: APNsRequest, jwt: String, deadline: NIODeadline) async -> APNsResult {
        do {
            let response = try await httpClient.execute(
                makeHTTPRequest(request, jwt: jwt),
                deadline: deadline,
                logger: logger
            )
            let body = try await response.body.collect(upTo: 64 * 1024)
            return Self.result(status: Int(response.status.code), headers: response.headers, body: body)
        } catch {
            return APNsResult(error: Self.transportError(error))
        }
    }

    /// Closes the connections; the client cannot send afterwards.
    /// - Throws: The error of async-http-client's shutdown, if any.
    public func shutdown() async throws {
        try await httpClient.shutdown()
    }

    private func makeHTTPRequest(_ request: APNsRequest, jwt: String) -> HTTPClientRequest {
        var http = HTTPClientRequest(url: "\(baseURL)/3/device/\(request.deviceToken)")
        http.method = .POST
        http.headers.add(name: "apns-push-type", value: "liveactivity")
        http.headers.add(name: "apns-topic", value: configuration.topic)
        http.headers.add(name: "apns-priority", value: String(request.priority.rawValue))
        http.headers.add(name: "apns-expiration", value: String(request.expiration))
        http.headers.add(name: "apns-id", value: request.apnsId.uuidString.lowercased())
        http.headers.add(name: "authorization", value: "bearer \(jwt)")
        http.headers.add(name: "content-type", value: "application/json")
        http.body = .bytes(ByteBuffer(bytes: request.payload))
        return http
    }

    private struct ErrorBody: Decodable {
        var reason: String?
        var timestamp: Int64?
    }

    static func result(status: Int, headers: HTTPHeaders, body: ByteBuffer) -> APNsResult {
        let apnsId = headers.first(name: "apns-id").flatMap(UUID.init(uuidString:))
        let decoded =
            body.readableBytes == 0
            ? nil : try? JSONDecoder().decode(ErrorBody.self, from: Data(body.readableBytesView))
        return APNsResult(status: status, reason: decoded?.reason, apnsId: apnsId, timestamp: decoded?.timestamp)
    }

    static func transportError(_ error: any Error) -> APNsError {
        if let error = error as? APNsError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                return APNsError(.timeout, "no answer in time (\(error))")
            case .cancelled:
                return notStarted
            case .remoteConnectionClosed, .uncleanShutdown:
                return APNsError(.connectionClosed, "connection closed before the answer (\(error))")
            case .connectTimeout, .tlsHandshakeTimeout:
                return APNsError(.connectFailed, "cannot connect (\(error))")
            case .alreadyShutdown:
                return APNsError(.clientShutDown, "the client is shut down")
            default:
                return APNsError(.transport, "\(error)")
            }
        }
        if error is NIOSSLError || error is NIOConnectionError || error is BoringSSLError {
            return APNsError(.connectFailed, "cannot connect (\(error))")
        }
        if let error = error as? ChannelError, error == .ioOnClosedChannel {
            return notStarted
        }
        if let error = error as? ChannelError, error == .eof || error == .alreadyClosed {
            return APNsError(.connectionClosed, "connection closed before the answer (\(error))")
        }
        return APNsError(.transport, "\(type(of: error)): \(error)")
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
