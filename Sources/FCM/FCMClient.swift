import Foundation
import HTTP2Client
import Logging
import NIOCore
import NIOHPACK
import NIOSSL

/// Sends messages through Firebase Cloud Messaging HTTP v1 over HTTP/2 + TLS, authorised by an OAuth 2.0
/// access token obtained with the service account's key.
///
/// Built for fan-out: a batch of messages goes out at once on a pool of HTTP/2 connections
/// (``connections``, the project's own ``HTTP2ConnectionPool``: streams up to the server's limit, reconnects
/// with backoff, health PINGs). The access token is reused until shortly before it expires and renewed
/// once when FCM refuses it. Call ``shutdown()`` before release.
public final class FCMClient: Sendable {
    /// The configuration the client was built with.
    public let configuration: FCMConfiguration
    /// The HTTP/2 connections kept to the FCM host.
    public let connections: Int
    /// The time one ``send(_:)`` may take for its messages, from queueing to the end of the answers.
    public let requestTimeout: Duration

    private let pool: HTTP2ConnectionPool?
    private let tokens: FCMAccessTokenProvider
    private let authority: String
    private let sendPath: String
    private let logger: Logger
    private let now: @Sendable () -> Date

    /// Creates a client; nothing connects until the first send.
    /// - Parameters:
    ///   - configuration: Service account, server and extra CA.
    ///   - connections: HTTP/2 connections to keep to the FCM host (default 1; the token endpoint gets one).
    ///   - requestTimeout: The time a send's messages may take (default 10 s), and the token exchange too.
    ///   - logger: Receives debug/info lines with `fcm.*` metadata; never keys, JWTs or access tokens.
    ///   - now: The current time (JWT `iat`, token reuse, `Retry-After` dates).
    public init(
        configuration: FCMConfiguration, connections: Int = 1, requestTimeout: Duration = .seconds(10),
        logger: Logger, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.connections = max(1, connections)
        self.requestTimeout = requestTimeout
        self.logger = logger
        self.now = now
        let certificates = configuration.additionalCACertificates
        let endpoint = FCMEndpoint(configuration.baseURL, caCertificates: certificates, connections: self.connections)
        self.authority = endpoint.authority
        self.sendPath = endpoint.path + "/v1/projects/\(configuration.serviceAccount.projectId)/messages:send"
        var pool = endpoint.pool
        // FCM's 4xx answers are about one message (a gone registration, a quota, a token), never about the
        // connection: only server errors count towards retiring a connection.
        pool.isError = { $0.status >= 500 }
        self.pool = try? HTTP2ConnectionPool(pool, logger: logger)
        self.tokens = FCMAccessTokenProvider(
            account: configuration.serviceAccount, caCertificates: certificates, requestTimeout: requestTimeout,
            logger: logger, now: now)
    }

    /// How many OAuth token exchanges were started (for tests and metrics).
    public var accessTokenFetches: Int { tokens.fetches }

    /// Whether an OAuth token exchange is under way (an early renewal runs in the background; for tests).
    public var accessTokenExchangeInFlight: Bool { tokens.exchanging }

    /// Sends message bodies all at once and reports what FCM answered to each, in order; never throws.
    ///
    /// Each body (from ``FCMMessage``) goes as `POST <base>/v1/projects/<project_id>/messages:send` with
    /// `authorization: Bearer <access token>`. The messages may be processed in any order: send two messages
    /// for one device in separate calls. Resent once, here: messages that never reached FCM (closing
    /// connection, GOAWAY), and messages refused with a `401` that is not `THIRD_PARTY_AUTH_ERROR` (an expired
    /// or revoked access token), after one new token exchange. Other retries are up to the caller.
    /// - Parameter bodies: The JSON request bodies.
    /// - Returns: One result per body: status, error code, message, `Retry-After`, the message name, or a
    ///   ``FCMResult/Failure`` (`.authorization` when no access token could be had: nothing was sent).
    public func send(_ bodies: [String]) async -> [FCMResult] {
        guard !bodies.isEmpty else { return [] }
        guard let pool else {
            return bodies.map { _ in FCMResult(failure: .notSent("the TLS configuration is unusable")) }
        }
        let deadline = NIODeadline.now() + TimeAmount(requestTimeout)
        var results = [FCMResult?](repeating: nil, count: bodies.count)
        var toSend = Array(bodies.indices)
        for attempt in 1...2 where !toSend.isEmpty {
            let token: String
            switch await tokens.token() {
            case .token(let value):
                token = value
            case .failed(let failure):
                // Without an access token nothing left: a failed exchange is `notSent` unless refused.
                let notSent: FCMResult.Failure =
                    switch failure {
                    case .authorization: failure
                    case .transport(let why), .notSent(let why): .notSent("no access token: \(why)")
                    }
                for index in toSend { results[index] = FCMResult(failure: notSent) }
                toSend = []
                continue
            }
            let authorization = "Bearer " + token
            let outcomes = await pool.execute(
                toSend.map { request(bodies[$0], authorization: authorization) }, deadline: deadline)
            let answeredAt = now()
            var again: [Int] = []
            var refused = false
            for (index, outcome) in zip(toSend, outcomes) {
                let result = Self.result(outcome, now: answeredAt)
                if attempt == 1, !Task.isCancelled {
                    if case .failure(let error) = outcome, error.code == .notSent {
                        again.append(index)
                        continue
                    }
                    if Self.refusesAccessToken(result) {
                        again.append(index)
                        refused = true
                        continue
                    }
                }
                results[index] = result
            }
            if refused {
                logger.info("FCM refused the access token; renewing it", metadata: ["fcm.resent": "\(again.count)"])
                tokens.invalidate(token)
            }
            toSend = again
        }
        return results.map { log($0 ?? FCMResult(failure: .transport("no outcome"))) }
    }

    /// Closes the connections; the client cannot send afterwards.
    public func shutdown() async {
        await pool?.shutdown()
        await tokens.shutdown()
    }

    /// `true` for a `401` that says the access token is expired or refused (not `THIRD_PARTY_AUTH_ERROR`,
    /// the APNs credentials in Firebase).
    static func refusesAccessToken(_ result: FCMResult) -> Bool {
        result.status == 401 && result.code != .thirdPartyAuthError
    }

    /// The result of one HTTP/2 outcome.
    static func result(_ outcome: HTTP2Outcome, now: Date) -> FCMResult {
        switch outcome {
        case .success(let response):
            return FCMResult(
                status: response.status, body: response.body.readableBytesView,
                retryAfter: response.headers.first(name: "retry-after"), now: now)
        case .failure(let error):
            switch error.code {
            case .notSent, .connectFailed, .shutDown: return FCMResult(failure: .notSent(error.description))
            case .timeout, .connectionClosed, .streamReset, .cancelled:
                return FCMResult(failure: .transport(error.description))
            }
        }
    }

    private func request(_ body: String, authorization: String) -> HTTP2Request {
        var headers: HPACKHeaders = [":method": "POST", ":scheme": "https", ":authority": authority]
        headers.reserveCapacity(7)
        headers.add(name: ":path", value: sendPath)
        headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        headers.add(name: "content-length", value: String(body.utf8.count))
        headers.add(name: "authorization", value: authorization, indexing: .nonIndexable)
        return HTTP2Request(headers: headers, body: ByteBuffer(string: body))
    }

    private func log(_ result: FCMResult) -> FCMResult {
        guard logger.logLevel <= (result.isSuccess ? .debug : .info) else { return result }
        var metadata: Logger.Metadata = [:]
        if let status = result.status { metadata["fcm.status"] = "\(status)" }
        if let code = result.errorCode { metadata["fcm.error_code"] = "\(code)" }
        if let message = result.message { metadata["fcm.message"] = "\(message)" }
        if let failure = result.failure { metadata["fcm.failure"] = "\(failure)" }
        if let name = result.name { metadata["fcm.name"] = "\(name)" }
        if result.isSuccess {
            logger.debug("FCM message accepted", metadata: metadata)
        } else {
            logger.info("FCM message not accepted", metadata: metadata)
        }
        return result
    }
}
