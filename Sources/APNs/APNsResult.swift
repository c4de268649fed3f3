import Foundation

/// What became of one ``APNsRequest``: the HTTP answer of APNs, or a transport error.
public struct APNsResult: Sendable, Hashable {
    /// The HTTP status, `nil` when no answer arrived (see ``error``).
    public var status: Int?
    /// The `reason` of the JSON error body (e.g. `BadDeviceToken`), `nil` on success.
    public var reason: String?
    /// The `apns-id` echoed by APNs.
    public var apnsId: UUID?
    /// The `timestamp` of a 410 answer: milliseconds since 1970 when the token became invalid.
    public var timestamp: Int64?
    /// Why no HTTP answer arrived, `nil` when one did.
    public var error: APNsError?
    /// `apns-channel-id` of a channel management answer (the new channel's id on a create).
    public var channelId: String?
    /// The body of a channel management answer.
    public var body: [UInt8]?

    /// Creates a result for an HTTP answer.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - reason: The `reason` of the error body.
    ///   - apnsId: The echoed `apns-id`.
    ///   - timestamp: The 410 `timestamp` (ms).
    public init(status: Int, reason: String? = nil, apnsId: UUID? = nil, timestamp: Int64? = nil) {
        self.status = status
        self.reason = reason
        self.apnsId = apnsId
        self.timestamp = timestamp
    }

    /// Creates a result for a request that got no HTTP answer.
    /// - Parameter error: What went wrong.
    public init(error: APNsError) {
        self.error = error
    }

    /// `true` for `200` (any 2xx): APNs accepted the push (not proof of display).
    public var isDelivered: Bool { status.map { (200..<300).contains($0) } ?? false }

    /// What the caller should do next, per the APNs response table.
    public var action: APNsAction {
        if let error, !error.isRetryable {
            return error.code == .signingFailed
                ? .pause(reason: error.code.rawValue) : .neverRetry(reason: error.code.rawValue)
        }
        return APNsAction.classify(status: status, reason: reason)
    }
}
