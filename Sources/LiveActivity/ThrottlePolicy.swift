/// The knobs of the per-activity push throttle, with their defaults (see docs/throttling.md).
public struct ThrottlePolicy: Sendable, Equatable, Codable {
    /// At most one update per activity per this many seconds; changes in between coalesce.
    public var minInterval: Int
    /// Priority-10 pushes allowed per activity in any rolling hour.
    public var hourlyBudget: Int
    /// The same when the user granted frequent updates (`NSSupportsLiveActivitiesFrequentUpdates`).
    public var frequentHourlyBudget: Int
    /// `stale-date` = timestamp + this many seconds, on every update.
    public var staleAfter: Int
    /// `dismissal-date` = timestamp + this many seconds, on the end.
    public var dismissAfter: Int
    /// Apple ends an activity after 8 hours; we end it ourselves this many seconds before.
    public var lifetime: Int
    public var lifetimeMargin: Int
    /// An Android follower gets at most one data message per this many seconds (FCM allows 240 a
    /// minute per device); changes in between coalesce.
    public var liveUpdateInterval: Int

    public init(
        minInterval: Int = 10, hourlyBudget: Int = 12, frequentHourlyBudget: Int = 40, staleAfter: Int = 900,
        dismissAfter: Int = 3600, lifetime: Int = 8 * 3600, lifetimeMargin: Int = 15 * 60, liveUpdateInterval: Int = 5
    ) {
        self.liveUpdateInterval = liveUpdateInterval
        self.minInterval = minInterval
        self.hourlyBudget = hourlyBudget
        self.frequentHourlyBudget = frequentHourlyBudget
        self.staleAfter = staleAfter
        self.dismissAfter = dismissAfter
        self.lifetime = lifetime
        self.lifetimeMargin = lifetimeMargin
    }

    /// A broadcast channel's: at most one broadcast every 3 seconds (Apple's forum guidance is about one
    /// per second per channel), the same moments at priority 10 with an alert, no 8-hour limit of its own
    /// (each subscribed activity has its own).
    public static let channel = channel(interval: 3)

    /// A broadcast channel's policy with another interval between broadcasts.
    public static func channel(interval: Int) -> ThrottlePolicy {
        ThrottlePolicy(minInterval: interval, hourlyBudget: 120, frequentHourlyBudget: 120, lifetime: 7 * 24 * 3600)
    }
}
