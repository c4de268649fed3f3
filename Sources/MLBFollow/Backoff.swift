/// Exponential backoff with full jitter: retry `n` (from 1) waits a uniformly random time in
/// `0 ... min(cap, base * 2^(n-1))`.
public struct Backoff: Sendable, Hashable {
    /// The ceiling of the first retry.
    public var base: Duration
    /// The largest ceiling.
    public var cap: Duration

    /// Creates a policy (defaults: 1 s, at most 60 s).
    public init(base: Duration = .seconds(1), cap: Duration = .seconds(60)) {
        self.base = base
        self.cap = cap
    }

    /// `min(cap, base * 2^(attempt-1))`.
    public func ceiling(attempt: Int) -> Duration {
        var ceiling = base
        for _ in 0..<max(0, min(attempt - 1, 62)) {
            ceiling *= 2
            if ceiling >= cap { return cap }
        }
        return min(ceiling, cap)
    }

    /// The wait before retry `attempt` for a random fraction `unitRandom` in `0...1` (clamped).
    public func delay(attempt: Int, unitRandom: Double) -> Duration {
        ceiling(attempt: attempt) * min(1, max(0, unitRandom))
    }
}
