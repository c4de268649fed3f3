import Foundation
import JOSE

/// The access tokens the token endpoint issued, with their expiry. Pure: time comes in as a parameter.
struct AccessTokens: Sendable {
    private var expiries: [String: Date] = [:]
    /// How many were issued since start (also those expired or revoked since).
    private(set) var issued = 0

    /// Issues a new random token valid for `lifetime` from `now` (`ya29.` and 48 random bytes in
    /// base64url, shaped like Google's).
    mutating func issue(now: Date, lifetime: Duration) -> String {
        if expiries.count >= 1024 { expiries = expiries.filter { $0.value > now } }
        var bytes = [UInt8](repeating: 0, count: 48)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        let token = "ya29." + Base64URL.encode(bytes)
        expiries[token] = now.addingTimeInterval(lifetime / .seconds(1))
        issued += 1
        return token
    }

    /// Whether `token` was issued here, is not expired and was not revoked.
    func isValid(_ token: String, now: Date) -> Bool {
        guard let expiry = expiries[token] else { return false }
        return now < expiry
    }

    /// Revokes every token issued so far.
    mutating func revokeAll() { expiries.removeAll() }
}

/// FCM's per-device rate limit: at most `limit` accepted messages to one registration token or FID in
/// any rolling minute. Pure: time comes in as a parameter.
struct DeviceRateLimiter: Sendable {
    let limit: Int
    let window: TimeInterval = 60
    /// Accept times per device, oldest first.
    private var accepted: [String: [Date]] = [:]

    init(limit: Int) { self.limit = limit }

    /// Counts a message to `device` when it is within the limit.
    /// - Returns: `nil` when the message may go (and is counted), else the seconds to wait (at least 1).
    mutating func admit(_ device: String, now: Date) -> Int? {
        if accepted.count >= 4096 {
            accepted = accepted.filter { $0.value.last.map { now.timeIntervalSince($0) < window } ?? false }
        }
        var times = accepted[device, default: []]
        times.removeFirst(times.prefix { now.timeIntervalSince($0) >= window }.count)
        if times.count >= limit, let oldest = times.first {
            accepted[device] = times
            return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
        }
        times.append(now)
        accepted[device] = times
        return nil
    }
}

/// The scripted faults not consumed yet, in order.
struct FaultQueue: Sendable {
    private(set) var pending: [FCMScriptedFault]

    init(_ faults: [FCMScriptedFault]) { pending = faults }

    mutating func append(_ fault: FCMScriptedFault) { pending.append(fault) }

    /// Consumes one use of the first fault matching a `messages:send` request to `device`.
    mutating func takeMessageFault(device: String?) -> FCMFault? {
        take { $0.matches(target: device) }
    }

    /// Consumes one use of the first ``FCMFault/refuseToken``; `true` when there was one.
    mutating func takeTokenFault() -> Bool {
        take { $0.fault.isTokenFault } != nil
    }

    private mutating func take(where matches: (FCMScriptedFault) -> Bool) -> FCMFault? {
        guard let index = pending.firstIndex(where: matches) else { return nil }
        let fault = pending[index].fault
        pending[index].count -= 1
        if pending[index].count == 0 { pending.remove(at: index) }
        return fault
    }
}
