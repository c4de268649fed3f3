import Retry

/// Faults drawn at random for a share of the requests, reproducibly from a seed: the chaos run's APNs.
///
/// Each request that no scripted fault matches gets, with probability ``rate``, one of
/// `429 TooManyRequests`, `500 InternalServerError`, `503 ServiceUnavailable`, a dropped connection or a
/// delay of 50 ms to 1 s (then a normal answer), each as likely as the others.
public struct RandomFaults: Sendable, Hashable {
    /// The share of requests that get a fault, from 0 to 1.
    public var rate: Double
    /// The seed of the generator: the same seed and the same request order give the same faults.
    public var seed: UInt64

    /// Creates a random fault mix.
    /// - Parameters:
    ///   - rate: The share of requests that get a fault (clamped to 0...1).
    ///   - seed: The generator's seed.
    public init(rate: Double, seed: UInt64) {
        self.rate = min(1, max(0, rate))
        self.seed = seed
    }

    /// The kinds drawn from, in order.
    static let kinds: [Fault] = [.tooManyRequests, .internalServerError, .serviceUnavailable, .dropConnection]

    /// The fault for one request, advancing `generator`; `nil` for a normal answer.
    func draw(_ generator: inout SplitMix64) -> Fault? {
        guard Double(generator.next() >> 11) / Double(1 << 53) < rate else { return nil }
        let kind = Int(generator.next() % UInt64(Self.kinds.count + 1))
        guard kind < Self.kinds.count else { return .delay(.milliseconds(50 + Int(generator.next() % 951))) }
        return Self.kinds[kind]
    }
}
