import Foundation
import ScoreDomain

/// One `messages:send` request the sandbox received and what it answered.
public struct FCMReceivedMessage: Sendable, Equatable {
    /// The HTTP status answered; `0` when nothing was answered (a ``FCMFault/drop``, or the client left
    /// during a ``FCMFault/delay(_:)``).
    public var status: Int
    /// The `FcmError` errorCode answered (e.g. `UNREGISTERED`), or the error `status` when the answer had
    /// no `FcmError` detail (e.g. `UNAUTHENTICATED`, `PERMISSION_DENIED`); `nil` when accepted or not
    /// answered.
    public var errorCode: String?
    /// The request body exactly as received (decoded as UTF-8).
    public var body: String
    /// The message's `token` or `fid`, `nil` for a topic or condition or an unreadable body.
    public var target: String?
    /// The topic the message is sent to (its name, without `/topics/`), `nil` for any other target.
    public var topic: String?
    /// Valid, within the limits and answered `200` with a message name: it counts as sent. A
    /// `validate_only` dry run is answered `200` but is not accepted.
    public var isAccepted: Bool
    /// When the request was complete.
    public var receivedAt: Date

    /// Creates a record.
    /// - Parameters:
    ///   - status: The HTTP status answered (`0`: none).
    ///   - errorCode: The errorCode or error status answered.
    ///   - body: The request body.
    ///   - target: The registration token or FID.
    ///   - isAccepted: Whether the message counts as sent.
    ///   - receivedAt: When the request was complete.
    ///   - topic: The topic, for a topic message.
    public init(
        status: Int, errorCode: String?, body: String, target: String?, topic: String? = nil, isAccepted: Bool,
        receivedAt: Date
    ) {
        self.status = status
        self.errorCode = errorCode
        self.body = body
        self.target = target
        self.topic = topic
        self.isAccepted = isAccepted
        self.receivedAt = receivedAt
    }

    /// The `messages.jsonl` line (without the newline), keys sorted.
    var jsonLine: String {
        var object: JSONObject = [
            "accepted": .bool(isAccepted),
            "body": .string(body),
            "receivedAt": .string(receivedAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            "status": .int(status),
        ]
        if let errorCode { object["errorCode"] = .string(errorCode) }
        if let target { object["target"] = .string(target) }
        if let topic { object["topic"] = .string(topic) }
        return JSONValue.object(object).serialized()
    }
}
