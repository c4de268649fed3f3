import Foundation

/// One request the sandbox received and what it did with it.
public struct Delivery: Sendable, Hashable {
    /// What became of the request.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Valid, answered `200`: the push counts as delivered.
        case delivered
        /// Invalid, answered with an APNs error status and reason.
        case rejected
        /// An injected ``Fault/respond(status:reason:timestamp:)`` answered it.
        case faulted
        /// An injected ``Fault/dropConnection`` closed the connection instead of answering.
        case dropped
        /// After an injected ``Fault/delay(_:)`` the client had gone; nothing was answered.
        case abandoned
        /// A channel management request (create, read, delete, list channels), answered.
        case managed
    }

    /// When the request was complete.
    public var time: Date
    /// The number of the TCP connection (1, 2, … in order of acceptance).
    public var connection: Int
    /// The `:method`.
    public var method: String
    /// The `:path`.
    public var path: String
    /// The device token taken from `/3/device/<token>`, if the path has that shape.
    public var token: String?
    /// The `apns-id` answered: the request's, or a generated one when it had none (lowercase).
    public var apnsId: String
    /// `apns-push-type`.
    public var pushType: String?
    /// `apns-topic`.
    public var topic: String?
    /// `apns-priority` as a number, `nil` when absent or not a number.
    public var priority: Int?
    /// `apns-expiration` as a number, `nil` when absent or not a number.
    public var expiration: Int64?
    /// All request headers, names lowercased; `authorization` is shortened so no usable JWT is stored.
    public var headers: [String: String]
    /// The body (at most the first 64 KiB).
    public var payload: [UInt8]
    /// The status answered, `nil` when nothing was answered (dropped / abandoned).
    public var status: Int?
    /// The `reason` answered, `nil` on 200 or no answer.
    public var reason: String?
    /// The injected fault that applied (its ``Fault/description``), `nil` for a normal answer.
    public var fault: String?
    /// What became of the request.
    public var outcome: Outcome

    /// `true` only for a valid request answered `200`: never for an answered or dropped fault (a request
    /// that was only delayed and then answered `200` counts as delivered).
    public var isDelivered: Bool { outcome == .delivered }

    /// `apns-channel-id`: the channel of a broadcast or a management request (the one created, for a create).
    public var channelId: String? { headers["apns-channel-id"] }

    /// Whether it was a broadcast (`/4/broadcasts/apps/<bundle>`) rather than a push to one device.
    public var isBroadcast: Bool { path.hasPrefix(BroadcastValidator.broadcastPrefix) }
}

/// The JSON-lines form of a ``Delivery`` (payload as text).
struct DeliveryLogLine: Encodable {
    var time: String
    var connection: Int
    var method: String
    var path: String
    var token: String?
    var apnsId: String
    var pushType: String?
    var topic: String?
    var priority: Int?
    var expiration: Int64?
    var payload: String
    var status: Int?
    var reason: String?
    var fault: String?
    var outcome: Delivery.Outcome

    init(_ delivery: Delivery) {
        time = delivery.time.formatted(.iso8601)
        connection = delivery.connection
        method = delivery.method
        path = delivery.path
        token = delivery.token
        apnsId = delivery.apnsId
        pushType = delivery.pushType
        topic = delivery.topic
        priority = delivery.priority
        expiration = delivery.expiration
        payload = String(decoding: delivery.payload, as: UTF8.self)
        status = delivery.status
        reason = delivery.reason
        fault = delivery.fault
        outcome = delivery.outcome
    }
}

extension Delivery {
    /// A record of `request`, received at `time`, with no answer yet.
    init(_ request: SandboxRequest, connectionId: Int, time: Date) {
        self.init(
            time: time,
            connection: connectionId,
            method: request.method,
            path: request.path,
            token: request.token,
            apnsId: request.apnsId ?? UUID().uuidString.lowercased(),
            pushType: request.pushType,
            topic: request.topic,
            priority: request.priority.flatMap { Int($0) },
            expiration: request.expiration.flatMap { Int64($0) },
            headers: request.headers,
            payload: request.body,
            status: nil,
            reason: nil,
            fault: nil,
            outcome: .rejected
        )
    }
}
