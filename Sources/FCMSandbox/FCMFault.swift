import Foundation
import LocalServer

/// A misbehaviour the sandbox plays instead of answering a request normally.
public enum FCMFault: Sendable, Hashable, CustomStringConvertible {
    /// Answer a `messages:send` request with this HTTP status and Google's error body carrying an
    /// `FcmError` detail with `code` as its `errorCode` (plus `retry-after: <seconds>` when given),
    /// without checking the request.
    case error(status: Int, code: String, retryAfter: Int?)
    /// Wait this long, then check and answer the `messages:send` request normally (if the client is
    /// still there).
    case delay(Duration)
    /// Close the TCP connection of a `messages:send` request without answering.
    case drop
    /// The token endpoint refuses the next exchange: `400 {"error":"invalid_grant",…}`.
    case refuseToken

    /// `404 NOT_FOUND`, errorCode `UNREGISTERED`: the registration token is gone.
    public static let unregistered = FCMFault.error(status: 404, code: "UNREGISTERED", retryAfter: nil)
    /// `403 PERMISSION_DENIED`, errorCode `SENDER_ID_MISMATCH`.
    public static let senderIdMismatch = FCMFault.error(status: 403, code: "SENDER_ID_MISMATCH", retryAfter: nil)
    /// `400 INVALID_ARGUMENT`, errorCode `INVALID_ARGUMENT`.
    public static let invalidArgument = FCMFault.error(status: 400, code: "INVALID_ARGUMENT", retryAfter: nil)
    /// `503 UNAVAILABLE`, errorCode `UNAVAILABLE`.
    public static let unavailable = FCMFault.error(status: 503, code: "UNAVAILABLE", retryAfter: nil)
    /// `500 INTERNAL`, errorCode `INTERNAL`.
    public static let internalError = FCMFault.error(status: 500, code: "INTERNAL", retryAfter: nil)
    /// `401 UNAUTHENTICATED`, errorCode `THIRD_PARTY_AUTH_ERROR`: the APNs credentials in Firebase are wrong.
    public static let thirdPartyAuthError = FCMFault.error(status: 401, code: "THIRD_PARTY_AUTH_ERROR", retryAfter: nil)

    /// `429 RESOURCE_EXHAUSTED`, errorCode `QUOTA_EXCEEDED`.
    /// - Parameter retryAfter: The `retry-after` header in seconds, `nil` for none.
    /// - Returns: The fault.
    public static func quotaExceeded(retryAfter: Int?) -> FCMFault {
        .error(status: 429, code: "QUOTA_EXCEEDED", retryAfter: retryAfter)
    }

    /// The text form ``FCMScriptedFault/init(parsing:)`` reads.
    public var description: String {
        switch self {
        case .error(let status, let code, let retryAfter):
            retryAfter.map { "\(status):\(code):\($0)" } ?? "\(status):\(code)"
        case .delay(let duration):
            "delay:\(FaultTiming.milliseconds(duration))ms"
        case .drop:
            "drop"
        case .refuseToken:
            "oauth:invalid_grant"
        }
    }

    /// Whether the fault applies to the token endpoint (rather than to `messages:send`).
    var isTokenFault: Bool { self == .refuseToken }
}

/// A fault queued for the next `count` matching requests (all targets, or only `token`).
public struct FCMScriptedFault: Sendable, Hashable, CustomStringConvertible {
    /// What to do.
    public var fault: FCMFault
    /// How many matching requests it applies to (at least 1).
    public var count: Int
    /// Only messages to this registration token or FID match (case-sensitive, as FCM tokens are);
    /// `nil` matches every message. Always `nil` for ``FCMFault/refuseToken``.
    public var token: String?

    /// Creates a scripted fault.
    /// - Parameters:
    ///   - fault: What to do.
    ///   - count: How many matching requests it applies to (default 1; less than 1 counts as 1).
    ///   - token: Restrict it to messages to one registration token or FID (default: any; ignored for
    ///     ``FCMFault/refuseToken``).
    public init(_ fault: FCMFault, count: Int = 1, token: String? = nil) {
        self.fault = fault
        self.count = max(1, count)
        self.token = fault.isTokenFault ? nil : token
    }

    /// Parses the text form used by CLIs: `FAULT[*COUNT][@TOKEN]` where FAULT is
    /// `STATUS:ERROR_CODE[:RETRY_AFTER_SECONDS]` (e.g. `404:UNREGISTERED`, `429:QUOTA_EXCEEDED:30`), a bare
    /// known error code (`UNAVAILABLE`, with its usual status), `delay:DURATION` (`250ms`, `2s`), `drop`
    /// or `oauth:invalid_grant` (the token endpoint refuses; cannot take `@TOKEN`).
    /// Examples: `429:QUOTA_EXCEEDED:30*3`, `503:UNAVAILABLE@<registration token>`.
    /// - Parameter text: The description.
    /// - Throws: ``FCMSandboxError`` with code `invalidFaultSpec`, naming what is wrong.
    public init(parsing text: String) throws(FCMSandboxError) {
        func invalid(_ problem: String) -> FCMSandboxError {
            FCMSandboxError(.invalidFaultSpec, "fault '\(text)': \(problem)")
        }
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard !rest.isEmpty else { throw invalid("empty") }
        var token: String?
        // Registration tokens contain ':' but never '@'.
        if let at = rest.firstIndex(of: "@") {
            let scoped = rest[rest.index(after: at)...]
            guard !scoped.isEmpty else { throw invalid("no token after '@'") }
            guard !scoped.contains(where: { $0.isWhitespace || $0 == "@" }) else {
                throw invalid("the token after '@' contains a space or a second '@'")
            }
            token = String(scoped)
            rest = rest[..<at]
        }
        var count = 1
        if let star = rest.lastIndex(of: "*") {
            let countText = rest[rest.index(after: star)...]
            guard let parsed = Int(countText), parsed >= 1 else {
                throw invalid("count '\(countText)' after '*' is not a positive integer")
            }
            count = parsed
            rest = rest[..<star]
        }
        let fault = try Self.parseFault(rest, invalid: invalid)
        if fault.isTokenFault, token != nil {
            throw invalid("oauth:invalid_grant applies to the token endpoint and cannot be limited to a token")
        }
        self.init(fault, count: count, token: token)
    }

    public var description: String {
        "\(fault)" + (count == 1 ? "" : "*\(count)") + (token.map { "@\($0)" } ?? "")
    }

    /// Whether a `messages:send` request to `target` (its token or FID) is affected.
    func matches(target: String?) -> Bool {
        guard !fault.isTokenFault else { return false }
        guard let token else { return true }
        return target == token
    }

    private static func parseFault(
        _ text: Substring, invalid: (String) -> FCMSandboxError
    ) throws(FCMSandboxError) -> FCMFault {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts[0].lowercased() {
        case "drop":
            guard parts.count == 1 else { throw invalid("'drop' takes no ':' arguments") }
            return .drop
        case "delay":
            guard parts.count == 2 else { throw invalid("expected delay:DURATION such as delay:250ms") }
            guard let duration = parseDuration(parts[1]) else {
                throw invalid("duration '\(parts[1])' is not like 250ms or 1.5s (at most a day)")
            }
            return .delay(duration)
        case "oauth":
            guard parts.count == 2, parts[1] == "invalid_grant" else {
                throw invalid("the only token endpoint fault is oauth:invalid_grant")
            }
            return .refuseToken
        default:
            break
        }
        if parts.count == 1, let status = GoogleError.knownStatus(errorCode: String(parts[0])) {
            return .error(status: status, code: String(parts[0]), retryAfter: nil)
        }
        guard parts.count == 2 || parts.count == 3 else {
            throw invalid("expected STATUS:ERROR_CODE[:RETRY_AFTER], delay:DURATION, drop or oauth:invalid_grant")
        }
        guard let status = Int(parts[0]), (400..<600).contains(status) else {
            throw invalid("status '\(parts[0])' is not an HTTP error status (400-599)")
        }
        let code = parts[1]
        guard !code.isEmpty, code.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else { throw invalid("error code '\(code)' is not like UNREGISTERED (capitals, digits, '_')") }
        var retryAfter: Int?
        if parts.count == 3 {
            guard let seconds = Int(parts[2]), seconds >= 0 else {
                throw invalid("retry-after '\(parts[2])' is not a whole number of seconds")
            }
            retryAfter = seconds
        }
        return .error(status: status, code: String(code), retryAfter: retryAfter)
    }

    static func parseDuration(_ text: Substring) -> Duration? { FaultTiming.parseDelay(text, atMostSeconds: 24 * 3600) }
}
