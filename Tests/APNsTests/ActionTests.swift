import APNs
import Testing

@Suite("Response classification and backoff")
struct ActionTests {
    static let cases: [(Int?, String?, APNsAction)] = [
        (200, nil, .delivered),
        (410, "Unregistered", .deactivate(reason: "Unregistered")),
        (410, "ExpiredToken", .deactivate(reason: "ExpiredToken")),
        (400, "BadDeviceToken", .deactivate(reason: "BadDeviceToken")),
        (400, "DeviceTokenNotForTopic", .deactivate(reason: "DeviceTokenNotForTopic")),
        (400, "TopicDisallowed", .pause(reason: "TopicDisallowed")),
        (400, "BadTopic", .pause(reason: "BadTopic")),
        (400, "MissingTopic", .pause(reason: "MissingTopic")),
        (400, "FeatureNotEnabled", .pause(reason: "FeatureNotEnabled")),
        (403, "Forbidden", .pause(reason: "Forbidden")),
        (403, "BadEnvironmentKeyIdInToken", .pause(reason: "BadEnvironmentKeyIdInToken")),
        (403, "TopicMismatch", .pause(reason: "TopicMismatch")),
        (403, "BadCertificate", .pause(reason: "BadCertificate")),
        (400, "IdleTimeout", .reconnectAndRetry),
        (403, "UnrelatedKeyIdInToken", .reconnectAndRetry),
        (403, "ExpiredProviderToken", .refreshTokenAndRetry),
        (403, "InvalidProviderToken", .pause(reason: "InvalidProviderToken")),
        (429, "TooManyRequests", .retry),
        (429, "TooManyProviderTokenUpdates", .keepTokenLongerAndRetry),
        (500, "InternalServerError", .retry),
        (503, "ServiceUnavailable", .retry),
        (503, "Shutdown", .retry),
        (502, nil, .retry),
        (nil, nil, .retry),
        (413, "PayloadTooLarge", .neverRetry(reason: "PayloadTooLarge")),
        (400, "BadPriority", .neverRetry(reason: "BadPriority")),
        (400, "PayloadEmpty", .neverRetry(reason: "PayloadEmpty")),
        (403, "MissingProviderToken", .pause(reason: "MissingProviderToken")),
        (405, "MethodNotAllowed", .neverRetry(reason: "MethodNotAllowed")),
        (404, nil, .neverRetry(reason: "HTTP 404")),
        (301, nil, .neverRetry(reason: "HTTP 301")),
    ]

    @Test(arguments: cases)
    func classify(status: Int?, reason: String?, expected: APNsAction) {
        #expect(APNsAction.classify(status: status, reason: reason) == expected)
    }

    @Test(arguments: [
        (APNsError.Code.timeout, APNsAction.retry),
        (.connectionClosed, .retry),
        (.connectFailed, .retry),
        (.transport, .retry),
        (.invalidRequest, .neverRetry(reason: "apns.invalid_request")),
        (.clientShutDown, .neverRetry(reason: "apns.client_shut_down")),
        (.signingFailed, .pause(reason: "apns.signing_failed")),
    ])
    func transportErrors(code: APNsError.Code, expected: APNsAction) {
        #expect(APNsResult(error: APNsError(code, "test")).action == expected)
    }
}
