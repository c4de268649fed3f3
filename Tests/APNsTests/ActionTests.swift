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
        (400, "TopicDisallowed", .deactivate(reason: "TopicDisallowed")),
        (400, "BadTopic", .deactivate(reason: "BadTopic")),
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
        (403, "MissingProviderToken", .neverRetry(reason: "MissingProviderToken")),
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

    /// (attempt, ceiling in milliseconds)
    @Test(arguments: [
        (0, 1000), (1, 1000), (2, 2000), (3, 4000), (4, 8000), (8, 128_000), (9, 256_000), (10, 300_000),
        (30, 300_000), (1000, 300_000), (Int.max, 300_000),
    ])
    func backoffCeiling(attempt: Int, milliseconds: Int) {
        let backoff = APNsBackoff()
        #expect(backoff.ceiling(attempt: attempt) == .milliseconds(milliseconds))
        #expect(backoff.delay(attempt: attempt, unitRandom: 1) == .milliseconds(milliseconds))
        #expect(backoff.delay(attempt: attempt, unitRandom: 0) == .zero)
        #expect(backoff.delay(attempt: attempt, unitRandom: 0.5) == .milliseconds(milliseconds / 2))
    }

    @Test(arguments: [(-1.0, 0), (2.0, 4000), (0.25, 1000)])
    func backoffClampsTheRandomFraction(unitRandom: Double, milliseconds: Int) {
        #expect(APNsBackoff().delay(attempt: 3, unitRandom: unitRandom) == .milliseconds(milliseconds))
    }

    @Test func backoffWithGeneratorStaysWithinTheCeiling() {
        var generator = SplitMix64(seed: 42)
        let backoff = APNsBackoff()
        var seen = Set<Duration>()
        for attempt in 1...20 {
            for _ in 0..<50 {
                let delay = backoff.delay(attempt: attempt, using: &generator)
                #expect(delay >= .zero && delay <= backoff.ceiling(attempt: attempt))
                seen.insert(delay)
            }
        }
        #expect(seen.count > 900)  // jittered, not constant
    }
}

/// A deterministic random source for tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
