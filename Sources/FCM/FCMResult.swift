import Foundation

/// The `errorCode` values of FCM's `FcmError` detail, and what each asks of the sender.
public enum FCMErrorCode: String, Sendable {
    /// 404: the registration is gone; drop it.
    case unregistered = "UNREGISTERED"
    /// 403: the registration belongs to another sender; drop it.
    case senderIdMismatch = "SENDER_ID_MISMATCH"
    /// 400: the message is malformed (a bug); do not retry.
    case invalidArgument = "INVALID_ARGUMENT"
    /// 429: a quota is exhausted; back off, honouring `Retry-After`.
    case quotaExceeded = "QUOTA_EXCEEDED"
    /// 503: overloaded; retry with backoff.
    case unavailable = "UNAVAILABLE"
    /// 500: an internal error; retry with backoff.
    case internalError = "INTERNAL"
    /// 401: the APNs key or certificate uploaded to Firebase is wrong; pause and alert.
    case thirdPartyAuthError = "THIRD_PARTY_AUTH_ERROR"
    /// No more precise code.
    case unspecified = "UNSPECIFIED_ERROR"
}

/// What became of one message: FCM's answer, or why none came.
public struct FCMResult: Sendable, Equatable {
    /// The HTTP status; `nil` when no answer came (see ``failure``).
    public var status: Int?
    /// The `errorCode` of the error body's `FcmError` detail when present, else `error.status`
    /// (e.g. `UNAUTHENTICATED`); `nil` on success.
    public var errorCode: String?
    /// The error body's `error.message` (clipped to ``maximumMessageLength`` characters).
    public var message: String?
    /// Seconds to wait, from a `Retry-After` header (delta-seconds or HTTP date).
    public var retryAfter: Double?
    /// The sent message's name (`projects/<project>/messages/<id>`) on success.
    public var name: String?
    /// Why there is no usable answer; `nil` when FCM answered.
    public var failure: Failure?

    /// Why a message got no usable answer.
    public enum Failure: Sendable, Equatable, CustomStringConvertible {
        /// No answer after the message was written: timeout, closed connection, reset stream (FCM may
        /// have received it).
        case transport(String)
        /// The message never left: the connection or the access token could not be had, the pool is shut
        /// down (sending it later cannot make it twice).
        case notSent(String)
        /// The OAuth token exchange was refused or the key is unusable: nothing was sent.
        case authorization(String)

        public var description: String {
            switch self {
            case .transport(let reason): "transport: \(reason)"
            case .notSent(let reason): "not sent: \(reason)"
            case .authorization(let reason): "authorization: \(reason)"
            }
        }
    }

    /// The longest ``message`` kept.
    public static let maximumMessageLength = 200

    /// Creates a result.
    public init(
        status: Int? = nil, errorCode: String? = nil, message: String? = nil, retryAfter: Double? = nil,
        name: String? = nil, failure: Failure? = nil
    ) {
        self.status = status
        self.errorCode = errorCode
        self.message = message
        self.retryAfter = retryAfter
        self.name = name
        self.failure = failure
    }

    /// Creates the result of an HTTP answer of `messages:send`.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - body: The response body: `{"name":…}` on success, `{"error":{…}}` otherwise.
    ///   - retryAfter: The `Retry-After` header, if any.
    ///   - now: The current time, to turn an HTTP-date `Retry-After` into seconds.
    public init<Body: Collection>(status: Int, body: Body, retryAfter: String? = nil, now: Date = Date())
    where Body.Element == UInt8 {
        self.init(status: status)
        self.retryAfter = retryAfter.flatMap { Self.parseRetryAfter($0, now: now) }
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        if (200..<300).contains(status) {
            name = object?["name"] as? String
            return
        }
        guard let error = object?["error"] as? [String: Any] else {
            // Not FCM's error body (e.g. a proxy's page): keep the start of it for the logs.
            message = String(decoding: body, as: UTF8.self).prefix(Self.maximumMessageLength).description
            if message?.isEmpty == true { message = nil }
            return
        }
        message = (error["message"] as? String).map { String($0.prefix(Self.maximumMessageLength)) }
        let details = error["details"] as? [[String: Any]] ?? []
        let fcmError = details.first { ($0["@type"] as? String)?.hasSuffix("google.firebase.fcm.v1.FcmError") == true }
        errorCode = fcmError?["errorCode"] as? String ?? error["status"] as? String
    }

    /// `true` when FCM accepted the message (any 2xx).
    public var isSuccess: Bool { failure == nil && status.map { (200..<300).contains($0) } == true }

    /// ``errorCode`` as a known ``FCMErrorCode``; `nil` on success or for other codes (`UNAUTHENTICATED`).
    public var code: FCMErrorCode? { errorCode.flatMap(FCMErrorCode.init(rawValue:)) }

    /// Seconds from a `Retry-After` value: delta-seconds (`120`) or an HTTP date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`, or the RFC 850 form), never negative; `nil` when unreadable.
    public static func parseRetryAfter(_ text: String, now: Date) -> Double? {
        let value = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(value), seconds.isFinite {
            return seconds >= 0 ? seconds : nil
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) {
                return max(0, date.timeIntervalSince(now))
            }
        }
        return nil
    }
}
