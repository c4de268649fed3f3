/// Watches the answers of one connection and says when too many of the recent ones were errors.
///
/// APNs closes connections that make too many errors; a client that notices first retires the
/// connection itself (no new streams, the ones in flight finish) and opens a fresh one after a
/// backoff, instead of losing every stream in flight to the server's GOAWAY. Pure: no clock, no I/O.
public struct ErrorRateGuard: Sendable, Hashable {
    /// When to trip.
    public struct Policy: Sendable, Hashable {
        /// How many of the latest answers are looked at.
        public var window: Int
        /// Trips when more than this many of them were errors.
        public var maximumErrors: Int

        /// Creates a policy: more than `maximumErrors` errors among the last `window` answers trips.
        public init(window: Int = 200, maximumErrors: Int = 100) {
            self.window = max(1, window)
            self.maximumErrors = max(0, maximumErrors)
        }
    }

    /// The policy in force.
    public let policy: Policy
    private var recent: [Bool] = []
    private var next = 0
    /// Errors among the answers in the window.
    public private(set) var errors = 0

    /// Creates a guard that has seen nothing.
    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Records one answer.
    /// - Parameter isError: Whether the answer was an error.
    /// - Returns: `true` when the errors in the window now exceed the policy's maximum.
    public mutating func record(isError: Bool) -> Bool {
        if recent.count < policy.window {
            recent.append(isError)
        } else {
            if recent[next] { errors -= 1 }
            recent[next] = isError
            next = (next + 1) % policy.window
        }
        if isError { errors += 1 }
        return errors > policy.maximumErrors
    }
}
