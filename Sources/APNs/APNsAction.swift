/// What to do after an APNs answer, per the response table of the Live Activity push facts.
public enum APNsAction: Sendable, Hashable {
    /// `200`: mark the push as sent.
    case delivered
    /// The token is gone or wrong (`410 Unregistered`/`ExpiredToken`, `400 BadDeviceToken`,
    /// `DeviceTokenNotForTopic`): deactivate it for good, do not retry. (A 410 deactivates only a
    /// token registered before the answer's `timestamp`: the delivery side decides that.)
    case deactivate(reason: String)
    /// `403 ExpiredProviderToken`: make a new JWT and retry.
    case refreshTokenAndRetry
    /// The provider's configuration is wrong and every token would get the same answer (`400
    /// TopicDisallowed`, `BadTopic`, `MissingTopic`, `FeatureNotEnabled`; `403 InvalidProviderToken`,
    /// `Forbidden`, `MissingProviderToken`, `BadEnvironmentKeyIdInToken`, `TopicMismatch`,
    /// `BadCertificate`, `BadCertificateEnvironment`): stop sending, alert the operator, deactivate nothing.
    case pause(reason: String)
    /// `400 IdleTimeout`, `403 UnrelatedKeyIdInToken`: the connection is the problem; send again at once
    /// on a new one (the client retires the connection that answered so).
    case reconnectAndRetry
    /// `429 TooManyRequests`, `500`, `503` (any 5xx) or a transport error: retry later with backoff.
    case retry
    /// `429 TooManyProviderTokenUpdates`: keep the current JWT longer, then retry.
    case keepTokenLongerAndRetry
    /// `413 PayloadTooLarge` (a bug upstream) and every other 4xx or unexpected status: never retry.
    case neverRetry(reason: String)

    /// Whether the same push should be sent again (after a backoff or a token refresh).
    public var isRetry: Bool {
        switch self {
        case .retry, .refreshTokenAndRetry, .keepTokenLongerAndRetry, .reconnectAndRetry: true
        case .delivered, .deactivate, .pause, .neverRetry: false
        }
    }

    private static let deactivatingBadRequestReasons: Set<String> = ["BadDeviceToken", "DeviceTokenNotForTopic"]

    /// Answers that mean the provider's configuration is wrong (Apple's response table).
    public static let configurationReasons: Set<String> = [
        "TopicDisallowed", "BadTopic", "MissingTopic", "FeatureNotEnabled", "InvalidProviderToken", "Forbidden",
        "MissingProviderToken", "BadEnvironmentKeyIdInToken", "TopicMismatch", "BadCertificate",
        "BadCertificateEnvironment",
    ]

    /// Answers after which the connection that gave them must not be used again (`IdleTimeout`,
    /// `UnrelatedKeyIdInToken`, `503 Shutdown`).
    public static func retiresConnection(status: Int, reason: String?) -> Bool {
        switch (status, reason) {
        case (400, "IdleTimeout"), (403, "UnrelatedKeyIdInToken"), (503, "Shutdown"): true
        default: false
        }
    }

    /// Classifies an APNs answer.
    /// - Parameters:
    ///   - status: The HTTP status, `nil` for a transport error (no answer).
    ///   - reason: The `reason` of the error body, if any.
    /// - Returns: The action to take.
    public static func classify(status: Int?, reason: String?) -> APNsAction {
        guard let status else { return .retry }
        let reasonText = reason ?? "HTTP \(status)"
        switch status {
        case 200..<300:
            return .delivered
        case 410:
            return .deactivate(reason: reasonText)
        case 400 where deactivatingBadRequestReasons.contains(reasonText):
            return .deactivate(reason: reasonText)
        case 400 where configurationReasons.contains(reasonText), 403 where configurationReasons.contains(reasonText):
            return .pause(reason: reasonText)
        case 400 where reason == "IdleTimeout", 403 where reason == "UnrelatedKeyIdInToken":
            return .reconnectAndRetry
        case 403 where reason == "ExpiredProviderToken":
            return .refreshTokenAndRetry
        case 429 where reason == "TooManyProviderTokenUpdates":
            return .keepTokenLongerAndRetry
        case 429, 500..<600:
            return .retry
        default:
            return .neverRetry(reason: reasonText)
        }
    }
}
