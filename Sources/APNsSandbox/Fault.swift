import LocalServer

/// A misbehaviour the sandbox plays instead of answering a request normally.
public enum Fault: Sendable, Hashable, CustomStringConvertible {
    /// Answer with this status and `{"reason": ...}` body (plus `timestamp` in ms when given, or for 410
    /// the current time when `nil`), without checking the request.
    case respond(status: Int, reason: String, timestamp: Int64? = nil)
    /// Wait this long, then check and answer the request normally (if the client is still there).
    case delay(Duration)
    /// Close the TCP connection without answering.
    case dropConnection

    /// `429 TooManyRequests`.
    public static let tooManyRequests = Fault.respond(status: 429, reason: "TooManyRequests")
    /// `429 TooManyProviderTokenUpdates`.
    public static let tooManyProviderTokenUpdates = Fault.respond(status: 429, reason: "TooManyProviderTokenUpdates")
    /// `500 InternalServerError`.
    public static let internalServerError = Fault.respond(status: 500, reason: "InternalServerError")
    /// `503 ServiceUnavailable`.
    public static let serviceUnavailable = Fault.respond(status: 503, reason: "ServiceUnavailable")
    /// `503 Shutdown`.
    public static let shutdown = Fault.respond(status: 503, reason: "Shutdown")

    /// `410 Unregistered` with the given `timestamp` (ms since 1970; `nil` = now).
    /// - Parameter timestamp: When the token became invalid, in milliseconds.
    /// - Returns: The fault.
    public static func unregistered(timestamp: Int64? = nil) -> Fault {
        .respond(status: 410, reason: "Unregistered", timestamp: timestamp)
    }

    public var description: String {
        switch self {
        case .respond(let status, let reason, let timestamp):
            timestamp.map { "\(status):\(reason):\($0)" } ?? "\(status):\(reason)"
        case .delay(let duration):
            "delay:\(FaultTiming.milliseconds(duration))ms"
        case .dropConnection:
            "drop"
        }
    }
}

/// A fault queued for the next `count` matching requests (all tokens, or only `token`).
public struct ScriptedFault: Sendable, Hashable, CustomStringConvertible {
    /// What to do.
    public var fault: Fault
    /// How many matching requests it applies to (at least 1).
    public var count: Int
    /// Only requests to this device token match (case-insensitive); `nil` matches every request.
    public var token: String?

    /// Creates a scripted fault.
    /// - Parameters:
    ///   - fault: What to do.
    ///   - count: How many matching requests it applies to (default 1).
    ///   - token: Restrict it to one device token (default: any).
    public init(_ fault: Fault, count: Int = 1, token: String? = nil) {
        self.fault = fault
        self.count = max(1, count)
        self.token = token?.lowercased()
    }

    /// Parses the text form used by configuration files and CLIs: `FAULT[*COUNT][@TOKEN]` where FAULT is
    /// `STATUS:REASON[:TIMESTAMP_MS]` (e.g. `429:TooManyRequests`, `410:Unregistered:1700000000000`),
    /// `delay:DURATION` (`250ms`, `2s`) or `drop`. Examples: `503:ServiceUnavailable*3`, `drop@ab12…`.
    /// - Parameter text: The description.
    /// - Throws: ``APNsSandboxError`` with code `invalidFaultSpec`.
    public init(parsing text: String) throws(APNsSandboxError) {
        let invalid = APNsSandboxError(.invalidFaultSpec, "cannot parse fault '\(text)'")
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var token: String?
        if let at = rest.lastIndex(of: "@") {
            token = String(rest[rest.index(after: at)...])
            rest = rest[..<at]
            guard token?.isEmpty == false else { throw invalid }
        }
        var count = 1
        if let star = rest.lastIndex(of: "*") {
            guard let parsed = Int(rest[rest.index(after: star)...]), parsed >= 1 else { throw invalid }
            count = parsed
            rest = rest[..<star]
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        let fault: Fault
        switch parts.first?.lowercased() {
        case "drop" where parts.count == 1:
            fault = .dropConnection
        case "delay" where parts.count == 2:
            guard let duration = Self.parseDuration(parts[1]) else { throw invalid }
            fault = .delay(duration)
        default:
            guard parts.count == 2 || parts.count == 3, let status = Int(parts[0]), (100..<600).contains(status),
                !parts[1].isEmpty
            else { throw invalid }
            var timestamp: Int64?
            if parts.count == 3 {
                guard let parsed = Int64(parts[2]) else { throw invalid }
                timestamp = parsed
            }
            fault = .respond(status: status, reason: String(parts[1]), timestamp: timestamp)
        }
        self.init(fault, count: count, token: token)
    }

    public var description: String {
        "\(fault)" + (count == 1 ? "" : "*\(count)") + (token.map { "@\($0)" } ?? "")
    }

    func matches(token requestToken: String?) -> Bool {
        guard let token else { return true }
        return requestToken?.lowercased() == token
    }

    private static func parseDuration(_ text: Substring) -> Duration? {
        FaultTiming.parseDelay(text, atMostSeconds: 365 * 24 * 3600)
    }
}
