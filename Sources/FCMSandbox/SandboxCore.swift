import Foundation
import ScoreDomain

/// A request to the token endpoint.
struct TokenRequest: Sendable, Hashable {
    var contentType: String?
    var body: [UInt8]
}

/// A `POST /v1/projects/{projectId}/messages:send` request.
struct SendRequest: Sendable, Equatable {
    /// The project named in the path.
    var projectId: String
    var authorization: String?
    var contentType: String?
    var body: [UInt8]
    /// The body parsed, `nil` when it is not JSON.
    var json: JSONValue?
    /// The registration token or FID the body names (also when the body is invalid).
    var device: String?

    init(projectId: String, authorization: String?, contentType: String?, body: [UInt8]) {
        self.projectId = projectId
        self.authorization = authorization
        self.contentType = contentType
        self.body = body
        json = try? JSONValue.parse(Data(body))
        device = MessageValidator.device(in: json)
    }
}

/// Where a request goes, read from its method and path.
enum Route: Sendable, Hashable {
    case token
    case send(projectId: String)
    case notFound

    init(method: String, path: String) {
        let path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if method == "POST", path == "/token" {
            self = .token
            return
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // ["", "v1", "projects", projectId, "messages:send"]
        guard method == "POST", parts.count == 5, parts[0].isEmpty, parts[1] == "v1", parts[2] == "projects",
            !parts[3].isEmpty, parts[4] == "messages:send"
        else {
            self = .notFound
            return
        }
        self = .send(projectId: String(parts[3]))
    }
}

/// The decisions of the sandbox: token exchanges, faults, message checks, the per-device limit.
/// Pure: no I/O and no clock (time comes in as a parameter); ``FCMSandbox`` keeps it behind a lock.
struct SandboxCore: Sendable {
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    let projectId: String
    /// Set once the port (and so the `token_uri`) is known, before any request.
    var verifier: AssertionVerifier
    let tokenLifetime: Duration
    private(set) var tokens = AccessTokens()
    private(set) var faults: FaultQueue
    private var limiter: DeviceRateLimiter
    private var sent = 0

    init(
        projectId: String, verifier: AssertionVerifier, tokenLifetime: Duration, perDeviceLimit: Int,
        faults: [FCMScriptedFault]
    ) {
        self.projectId = projectId
        self.verifier = verifier
        self.tokenLifetime = tokenLifetime
        self.limiter = DeviceRateLimiter(limit: perDeviceLimit)
        self.faults = FaultQueue(faults)
    }

    // MARK: Token endpoint

    /// Answers `POST /token`: an access token for a valid JWT bearer assertion, else Google's OAuth error.
    mutating func exchange(_ request: TokenRequest, now: Date) -> SandboxAnswer {
        guard let contentType = request.contentType,
            contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else {
            return GoogleError.oauth(
                "invalid_request", "Content-Type must be application/x-www-form-urlencoded")
        }
        let form = Self.parseForm(request.body)
        guard form["grant_type"] == Self.grantType else {
            return GoogleError.oauth("unsupported_grant_type", "Invalid grant_type: \(form["grant_type"] ?? "")")
        }
        guard let assertion = form["assertion"], !assertion.isEmpty else {
            return GoogleError.oauth("invalid_request", "Missing required parameter: assertion")
        }
        if faults.takeTokenFault() {
            return GoogleError.oauth("invalid_grant", "Refused by a scripted fault (oauth:invalid_grant)")
        }
        if let problem = verifier.problem(with: assertion, now: now) {
            return GoogleError.oauth("invalid_grant", problem)
        }
        let token = tokens.issue(now: now, lifetime: tokenLifetime)
        let body = JSONValue.object([
            "access_token": .string(token),
            "expires_in": .int(Int(tokenLifetime.components.seconds)),
            "token_type": .string("Bearer"),
        ])
        return SandboxAnswer(status: 200, headers: ["cache-control": "no-store"], body: body.serialized())
    }

    /// Revokes every access token issued so far.
    mutating func expireAccessTokens() { tokens.revokeAll() }

    // MARK: messages:send

    /// Consumes the fault for a `messages:send` request to `device`, if one is queued.
    mutating func takeFault(device: String?) -> FCMFault? { faults.takeMessageFault(device: device) }

    mutating func inject(_ fault: FCMScriptedFault) { faults.append(fault) }

    /// Checks a `messages:send` request as FCM does and answers it.
    mutating func send(_ request: SendRequest, now: Date) -> SandboxAnswer {
        guard let authorization = request.authorization, !authorization.isEmpty else {
            return GoogleError.unauthenticated(missing: true)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", tokens.isValid(String(parts[1]), now: now) else {
            return GoogleError.unauthenticated(missing: false)
        }
        guard request.projectId == projectId else {
            return GoogleError.api(
                status: 403,
                message: "Permission 'cloudmessaging.messages.create' denied on resource "
                    + "'//cloudresourcemanager.googleapis.com/projects/\(request.projectId)' (or it may not exist).")
        }
        guard let contentType = request.contentType, contentType.lowercased().hasPrefix("application/json") else {
            return GoogleError.invalidArgument(
                FieldViolation("", "Invalid content type '\(request.contentType ?? "")': expected application/json"))
        }
        let message: ValidMessage
        switch MessageValidator.validate(request.json) {
        case .success(let valid): message = valid
        case .failure(let violation): return GoogleError.invalidArgument(violation)
        }
        if message.validateOnly {
            let body = JSONValue.object(["name": .string("projects/\(projectId)/messages/fake_message_id")])
            return SandboxAnswer(status: 200, body: body.serialized())
        }
        if let device = message.target.device, let retryAfter = limiter.admit(device, now: now) {
            return GoogleError.fcm(status: 429, errorCode: "QUOTA_EXCEEDED", retryAfter: retryAfter)
        }
        sent += 1
        let micros = Int64(now.timeIntervalSince1970 * 1_000_000)
        let suffix = String(UInt64.random(in: 0..<(1 << 32)) << 32 | UInt64(sent & 0xFFFF_FFFF), radix: 16)
        let name = "projects/\(projectId)/messages/0:\(micros)%\(suffix)"
        var answer = SandboxAnswer(status: 200, body: JSONValue.object(["name": .string(name)]).serialized())
        answer.isAccepted = true
        return answer
    }

    // MARK: Helpers

    /// An `application/x-www-form-urlencoded` body (`+` is a space, `%XX` a byte); later keys win.
    static func parseForm(_ body: [UInt8]) -> [String: String] {
        var form: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeFormComponent(parts[0]) else { continue }
            form[name] = parts.count == 2 ? decodeFormComponent(parts[1]) ?? "" : ""
        }
        return form
    }

    private static func decodeFormComponent(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
