import Foundation

/// The priority of a push (`apns-priority`).
public enum APNsPriority: Int, Sendable, Hashable, Codable, CaseIterable {
    /// `5`: delivered when power allows; does not count against the per-device budget.
    case consideringDevicePower = 5
    /// `10`: delivered at once; counts against the per-device hourly budget.
    case immediately = 10
}

/// One Live Activity push to one activity push token.
public struct APNsRequest: Sendable, Hashable {
    /// The activity push token as hex text (goes into the path `/3/device/<token>`).
    public var deviceToken: String
    /// The exact body, `{"aps":{...}}`, at most 4096 bytes.
    public var payload: [UInt8]
    /// `apns-priority`.
    public var priority: APNsPriority
    /// `apns-expiration`: absolute UNIX seconds, `0` = deliver once or not at all.
    public var expiration: Int64
    /// `apns-id`, sent as a lowercase UUID; APNs echoes it back.
    public var apnsId: UUID

    /// Creates a request.
    /// - Parameters:
    ///   - deviceToken: The activity push token (hex).
    ///   - payload: The JSON body.
    ///   - priority: `apns-priority` (default `.immediately`).
    ///   - expiration: `apns-expiration`, absolute UNIX seconds or `0` (default).
    ///   - apnsId: `apns-id` (default a fresh UUID).
    public init(
        deviceToken: String,
        payload: [UInt8],
        priority: APNsPriority = .immediately,
        expiration: Int64 = 0,
        apnsId: UUID = UUID()
    ) {
        self.deviceToken = deviceToken
        self.payload = payload
        self.priority = priority
        self.expiration = expiration
        self.apnsId = apnsId
    }

    /// At most the first 8 characters of the token, safe for logs.
    public var redactedToken: String { APNsRedaction.token(deviceToken) }
}

/// Helpers that keep secrets out of logs.
public enum APNsRedaction {
    /// The first 8 characters of a device token followed by `…` (the whole value when it is shorter).
    /// - Parameter token: A device token.
    /// - Returns: A prefix safe for logs.
    public static func token(_ token: String) -> String {
        token.count > 8 ? String(token.prefix(8)) + "…" : token
    }
}
