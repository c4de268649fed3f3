import CryptoExtras
import Foundation
import HTTP2Client
import Logging
import NIOCore
import NIOHPACK
import NIOSSL
import Synchronization

/// Hands out the OAuth 2.0 access token of the service account, exchanging a signed JWT at the
/// account's `token_uri` (its own HTTP/2 connection to that host) when none is valid.
///
/// - A token is reused until 5 minutes before it expires, or half its lifetime when that is shorter.
/// - Concurrent callers share one exchange in flight.
/// - While the current token is still good (until a minute, or a tenth of its lifetime when that is
///   shorter, before it expires), the early renewal runs in the background and the current token goes
///   on serving; when the renewal fails it is tried again 30 s later. A slow or failing token endpoint
///   costs no push until the token really nears its end.
/// - ``invalidate(_:)`` (after a `401 UNAUTHENTICATED`) makes the next caller exchange again.
/// - Never logs the key, the JWT or an access token.
final class FCMAccessTokenProvider: Sendable {
    /// The answer to a token request: the token, or why the caller cannot have one.
    enum Outcome: Sendable, Equatable {
        case token(String)
        case failed(FCMResult.Failure)

        init(_ exchange: Exchange) {
            switch exchange {
            case .token(let token, _): self = .token(token)
            case .failed(let failure): self = .failed(failure)
            }
        }
    }

    /// An answer of the token endpoint: the token and its lifetime in seconds, or why there is none.
    enum Exchange: Sendable, Equatable {
        case token(String, expiresIn: TimeInterval)
        case failed(FCMResult.Failure)
    }

    private typealias Waiter = CheckedContinuation<Outcome?, Never>

    private enum Phase {
        case none
        /// `current`: the token being renewed early, still usable until `until` if the renewal fails.
        case fetching(waiters: [Waiter], current: (token: String, until: Date)?)
        /// `usableUntil`: how long the token may serve if its renewal fails.
        case ready(token: String, refreshAt: Date, usableUntil: Date)
    }

    private struct State {
        var phase = Phase.none
        var fetches = 0
    }

    private let account: ServiceAccount
    private let endpoint: FCMEndpoint?
    private let pool: HTTP2ConnectionPool?
    private let requestTimeout: Duration
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    /// How long before its expiry (at most) a token being renewed stops serving when the renewal fails.
    static let fallbackMargin: TimeInterval = 60
    /// How long after a failed early renewal the next one is tried.
    static let retryRenewalAfter: TimeInterval = 30
    /// The longest margin before expiry at which a token is renewed.
    static let renewalMargin: TimeInterval = 300
    /// The form value of `grant_type`.
    static let grantType = "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"

    /// Creates a provider; nothing connects until the first exchange.
    init(
        account: ServiceAccount, caCertificates: [NIOSSLCertificate], requestTimeout: Duration, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.account = account
        let endpoint = URL(string: account.tokenURI).map {
            FCMEndpoint($0, caCertificates: caCertificates, connections: 1)
        }
        self.endpoint = endpoint
        self.pool = endpoint.flatMap { try? HTTP2ConnectionPool($0.pool, logger: logger) }
        self.requestTimeout = requestTimeout
        self.logger = logger
        self.now = now
    }

    /// How many exchanges were started.
    var fetches: Int { state.withLock { $0.fetches } }

    /// Whether an exchange is under way.
    var exchanging: Bool {
        state.withLock {
            if case .fetching = $0.phase { true } else { false }
        }
    }

    /// A valid access token: the current one, the result of the exchange in flight, or of a new exchange.
    func token() async -> Outcome {
        while true {
            let start = now()
            let step: Step = state.withLock { state in
                switch state.phase {
                case .ready(let token, let refreshAt, _) where start < refreshAt:
                    return .use(token)
                case .ready(let token, _, let until) where start < until:
                    // Renewed early, in the background: the current token serves meanwhile, so a slow
                    // or failing token endpoint delays no send.
                    state.phase = .fetching(waiters: [], current: (token, until))
                    state.fetches += 1
                    return .renewInBackground(token)
                case .fetching(_, let current?) where start < current.until:
                    return .use(current.token)
                case .fetching:
                    return .wait
                case .none, .ready:
                    state.phase = .fetching(waiters: [], current: nil)
                    state.fetches += 1
                    return .fetch
                }
            }
            switch step {
            case .use(let token):
                return .token(token)
            case .renewInBackground(let token):
                Task { _ = await self.fetch(start: start) }
                return .token(token)
            case .fetch:
                return await fetch(start: start)
            case .wait:
                let outcome: Outcome? = await withCheckedContinuation { continuation in
                    let waiting = state.withLock { state in
                        guard case .fetching(var waiters, let current) = state.phase else { return false }
                        waiters.append(continuation)
                        state.phase = .fetching(waiters: waiters, current: current)
                        return true
                    }
                    // The exchange ended meanwhile: look again.
                    if !waiting { continuation.resume(returning: nil) }
                }
                if let outcome { return outcome }
            }
        }
    }

    private enum Step {
        case use(String)
        case renewInBackground(String)
        case wait
        case fetch
    }

    /// Reports that FCM refused `token` (`401 UNAUTHENTICATED`): the next ``token()`` exchanges again.
    /// Reports about an older token are ignored, so many refusals cause one exchange.
    func invalidate(_ token: String) {
        state.withLock { state in
            switch state.phase {
            case .ready(let current, _, _) where current == token:
                state.phase = .none
            case .fetching(let waiters, let current?) where current.token == token:
                // Being renewed: the refused token no longer serves meanwhile, nor after a failed renewal.
                state.phase = .fetching(waiters: waiters, current: nil)
            default:
                break
            }
        }
    }

    /// Closes the connection to the token endpoint.
    func shutdown() async {
        await pool?.shutdown()
    }

    /// When a token obtained by a request started at `start` and valid for `expiresIn` seconds is renewed:
    /// 5 minutes before it expires, or halfway when its lifetime is shorter than 10 minutes.
    static func refreshDate(start: Date, expiresIn: TimeInterval) -> Date {
        beforeExpiry(start: start, expiresIn: expiresIn, margin: renewalMargin, share: 1 / 2)
    }

    /// How long such a token may serve when its renewal fails: until a minute before it expires, or a
    /// tenth of its lifetime when that is shorter.
    static func usableUntil(start: Date, expiresIn: TimeInterval) -> Date {
        beforeExpiry(start: start, expiresIn: expiresIn, margin: fallbackMargin, share: 1 / 10)
    }

    /// `margin`, or `share` of the lifetime when that is shorter, before the token expires.
    private static func beforeExpiry(start: Date, expiresIn: TimeInterval, margin: TimeInterval, share: Double) -> Date
    {
        start.addingTimeInterval(expiresIn - min(margin, expiresIn * share))
    }

    /// Runs one exchange and hands its outcome to the waiters.
    private func fetch(start: Date) async -> Outcome {
        let result = await exchange(start: start)
        let (waiters, outcome) = state.withLock { state -> ([Waiter], Outcome) in
            guard case .fetching(let waiters, let current) = state.phase else { return ([], Outcome(result)) }
            switch result {
            case .token(let token, let expiresIn):
                state.phase = .ready(
                    token: token, refreshAt: Self.refreshDate(start: start, expiresIn: expiresIn),
                    usableUntil: Self.usableUntil(start: start, expiresIn: expiresIn))
                return (waiters, Outcome(result))
            case .failed:
                guard let current, now() < current.until else {
                    state.phase = .none
                    return (waiters, Outcome(result))
                }
                state.phase = .ready(
                    token: current.token,
                    refreshAt: min(now().addingTimeInterval(Self.retryRenewalAfter), current.until),
                    usableUntil: current.until)
                return (waiters, .token(current.token))
            }
        }
        if case .failed(let failure) = result, case .token = outcome {
            logger.warning(
                "FCM access token renewal failed; the current token serves until it nears its expiry",
                metadata: ["reason": "\(failure)"])
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
        return outcome
    }

    private func exchange(start: Date) async -> Exchange {
        guard let endpoint, let pool else { return .failed(.authorization("the token_uri is not usable")) }
        let assertion: String
        do {
            assertion = try FCMJWT.make(
                account, issuedAt: Int64(start.timeIntervalSince1970.rounded(.down)), key: account.signingKey)
        } catch {
            return .failed(.authorization("cannot sign the token request"))
        }
        var headers: HPACKHeaders = [":method": "POST", ":scheme": "https", ":authority": endpoint.authority]
        headers.add(name: ":path", value: endpoint.path.isEmpty ? "/" : endpoint.path)
        headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        headers.add(name: "accept", value: "application/json")
        let body = "grant_type=\(Self.grantType)&assertion=\(assertion)"
        headers.add(name: "content-length", value: String(body.utf8.count))
        let outcome = await pool.execute(
            [HTTP2Request(headers: headers, body: ByteBuffer(string: body))],
            deadline: NIODeadline.now() + TimeAmount(requestTimeout))[0]
        let result = Self.parse(outcome)
        switch result {
        case .token(_, let expiresIn):
            logger.debug(
                "FCM access token obtained",
                metadata: ["fcm.client_email": "\(account.clientEmail)", "fcm.token_expires_in": "\(expiresIn)"])
        case .failed(let failure):
            logger.warning(
                "FCM access token not obtained",
                metadata: ["fcm.client_email": "\(account.clientEmail)", "fcm.failure": "\(failure)"])
        }
        return result
    }

    private struct TokenBody: Decodable {
        var access_token: String
        var expires_in: Double
        var token_type: String?
    }

    /// The token and its lifetime in seconds from the token endpoint's answer, or why there is none:
    /// `.transport` for no answer or a 5xx, `.authorization` for a refusal (4xx) or an unusable body.
    static func parse(_ outcome: HTTP2Outcome) -> Exchange {
        switch outcome {
        case .success(let response): parse(status: response.status, body: Data(response.body.readableBytesView))
        case .failure(let error): .failed(.transport("token exchange: \(error)"))
        }
    }

    /// The token and its lifetime from an HTTP answer of the token endpoint (see ``parse(_:)``).
    static func parse(status: Int, body data: Data) -> Exchange {
        guard (200..<300).contains(status) else {
            let reason = "token endpoint answered HTTP \(status)" + refusalDetail(data)
            return (400..<500).contains(status) ? .failed(.authorization(reason)) : .failed(.transport(reason))
        }
        guard let body = try? JSONDecoder().decode(TokenBody.self, from: data), !body.access_token.isEmpty,
            body.expires_in.isFinite, body.expires_in > 0
        else {
            return .failed(.authorization("token endpoint answered without access_token and expires_in"))
        }
        if let type = body.token_type, type.lowercased() != "bearer" {
            return .failed(.authorization("token endpoint answered token_type \(type.prefix(20)), not Bearer"))
        }
        return .token(body.access_token, expiresIn: body.expires_in)
    }

    /// `: <error>: <error_description>` of an OAuth error body, clipped; empty when there is none.
    private static func refusalDetail(_ data: Data) -> String {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return "" }
        var detail = ""
        if let error = object["error"] as? String {
            detail += ": " + error
        } else if let error = object["error"] as? [String: Any], let message = error["message"] as? String {
            detail += ": " + message
        }
        if let description = object["error_description"] as? String { detail += ": " + description }
        return String(detail.prefix(FCMResult.maximumMessageLength))
    }
}
