/// Exponential backoff with full jitter: attempt `n` (from 1) waits a uniformly random time in
/// `0 ... min(cap, base * 2^(n-1))`. The one backoff of every retry loop: APNs retries, the MLB
/// follower's requests, and the reconnections to the database.
public struct Backoff: Sendable, Hashable {
    /// The ceiling of the first retry.
    public var base: Duration
    /// The largest ceiling.
    public var cap: Duration

    /// Creates a backoff policy.
    /// - Parameters:
    ///   - base: The ceiling of the first retry (default 1 s).
    ///   - cap: The largest ceiling (default 5 minutes).
    public init(base: Duration = .seconds(1), cap: Duration = .seconds(300)) {
        self.base = base
        self.cap = cap
    }

    /// Pushes APNs asked to retry (429, 5xx, transport errors): 1 s, doubling up to 5 minutes.
    public static let push = Backoff()
    /// Requests to a scoring provider's feed: 1 s, doubling up to a minute.
    public static let feed = Backoff(base: .seconds(1), cap: .seconds(60))
    /// Reconnecting to the database: 100 ms, doubling up to 5 s.
    public static let reconnect = Backoff(base: .milliseconds(100), cap: .seconds(5))

    /// The wait before retry `attempt`, with jitter from the system's random source.
    public func delay(attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(attempt: attempt, using: &generator)
    }

    /// The upper bound of the wait before retry `attempt`: `min(cap, base * 2^(attempt-1))`.
    /// - Parameter attempt: The retry number, from 1 (values below 1 count as 1).
    /// - Returns: The ceiling of the jittered delay.
    public func ceiling(attempt: Int) -> Duration {
        let exponent = max(0, min(attempt - 1, 62))
        var ceiling = base
        for _ in 0..<exponent {
            ceiling *= 2
            if ceiling >= cap { return cap }
        }
        return min(ceiling, cap)
    }

    /// The wait before retry `attempt`, for a given random fraction.
    /// - Parameters:
    ///   - attempt: The retry number, from 1.
    ///   - unitRandom: A random number in `0...1` (clamped).
    /// - Returns: `ceiling(attempt) * unitRandom`.
    public func delay(attempt: Int, unitRandom: Double) -> Duration {
        ceiling(attempt: attempt) * min(1, max(0, unitRandom))
    }

    /// The wait before retry `attempt`, drawing the jitter from `generator`.
    /// - Parameters:
    ///   - attempt: The retry number, from 1.
    ///   - generator: The random source.
    /// - Returns: A uniformly random duration in `0...ceiling(attempt)`.
    public func delay(attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        delay(attempt: attempt, unitRandom: Double.random(in: 0...1, using: &generator))
    }
}
