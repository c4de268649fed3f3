import Retry
import Testing

@Suite("the one retry backoff: exponential, full jitter")
struct BackoffTests {
    /// (attempt, ceiling in milliseconds)
    @Test(arguments: [
        (0, 1000), (1, 1000), (2, 2000), (3, 4000), (4, 8000), (8, 128_000), (9, 256_000), (10, 300_000),
        (30, 300_000), (1000, 300_000), (Int.max, 300_000),
    ])
    func backoffCeiling(attempt: Int, milliseconds: Int) {
        let backoff = Backoff()
        #expect(backoff.ceiling(attempt: attempt) == .milliseconds(milliseconds))
        #expect(backoff.delay(attempt: attempt, unitRandom: 1) == .milliseconds(milliseconds))
        #expect(backoff.delay(attempt: attempt, unitRandom: 0) == .zero)
        #expect(backoff.delay(attempt: attempt, unitRandom: 0.5) == .milliseconds(milliseconds / 2))
    }

    @Test(arguments: [(-1.0, 0), (2.0, 4000), (0.25, 1000)])
    func backoffClampsTheRandomFraction(unitRandom: Double, milliseconds: Int) {
        #expect(Backoff().delay(attempt: 3, unitRandom: unitRandom) == .milliseconds(milliseconds))
    }

    @Test func backoffWithGeneratorStaysWithinTheCeiling() {
        var generator = SplitMix64(seed: 42)
        let backoff = Backoff()
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

    @Test("the presets of each retry loop")
    func presets() {
        #expect(Backoff.push.ceiling(attempt: 100) == .seconds(300))
        #expect(Backoff.feed.ceiling(attempt: 100) == .seconds(60))
        #expect(Backoff.reconnect.ceiling(attempt: 1) == .milliseconds(100))
        #expect(Backoff.reconnect.ceiling(attempt: 100) == .seconds(5))
        for attempt in 1...10 { #expect(Backoff.reconnect.delay(attempt: attempt) <= .seconds(5)) }
    }
}
