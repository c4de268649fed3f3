/// What to do after an APNs answer, per the response table of the Live Activity push facts.
public enum APNsAction: Sendable, Hashable {
    /// `200`: mark the push as sent.
    case delivered
    /// The token is gone or wrong (`410 Unregistered`/`ExpiredToken`, `400 BadDeviceToken`,
    /// `DeviceTokenNotForTopic`, `TopicDisallowed`, `BadTopic`): deactivate it for good, do not retry.
    case deactivate(reason: String)
    /// `403 ExpiredProviderToken`: make a new JWT and retry.
    case refreshTokenAndRetry
    /// `403 InvalidProviderToken`: the key, team or key id is wrong; stop sending and alert the operator.
    case pause(reason: String)
    /// `429 TooManyRequests`, `500`, `503` (any 5xx) or a transport error: retry later with backoff.
    case retry
    /// `429 TooManyProviderTokenUpdates`: keep the current JWT longer, then retry.
    case keepTokenLongerAndRetry
    /// `413 PayloadTooLarge` (a bug upstream) and every other 4xx or unexpected status: never retry.
    case neverRetry(reason: String)

    /// Whether the same push should be sent again (after a backoff or a token refresh).
    public var isRetry: Bool {
        switch self {
        case .retry, .refreshTokenAndRetry, .keepTokenLongerAndRetry: true
        case .delivered, .deactivate, .pause, .neverRetry: false
        }
    }

    private static let deactivatingBadRequestReasons: Set<String> = [
        "BadDeviceToken", "DeviceTokenNotForTopic", "TopicDisallowed", "BadTopic",
    ]

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
        case 403 where reason == "ExpiredProviderToken":
            return .refreshTokenAndRetry
        case 403 where reason == "InvalidProviderToken":
            return .pause(reason: reasonText)
        case 429 where reason == "TooManyProviderTokenUpdates":
            return .keepTokenLongerAndRetry
        case 429, 500..<600:
            return .retry
        default:
            return .neverRetry(reason: reasonText)
        }
    }
}
