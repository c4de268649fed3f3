/// What an FCM answer asks of the sender: the one error table of FCM HTTP v1, for every kind of message
/// (an activity's update, an Android data message, a push-to-start). The error is read from the body's
/// `error.details[].errorCode`; the status alone decides only when no such detail came.
public enum FCMAction: Sendable, Hashable {
    /// 2xx: FCM accepted the message.
    case delivered
    /// `UNREGISTERED` (404), `SENDER_ID_MISMATCH` (403): the registration is gone or belongs to another
    /// sender; retire it.
    case deactivate(reason: String)
    /// `INVALID_ARGUMENT` (400), and any answer no rule covers: a bug in the message; fail it, never retry.
    case neverRetry(reason: String)
    /// `QUOTA_EXCEEDED` (429), `UNAVAILABLE` (503), `INTERNAL` (500), any other 429 or 5xx: send again after
    /// ``FCMResult/retryAfter``, else after a backoff.
    case retry(reason: String)
    /// Every message would get the same answer: `THIRD_PARTY_AUTH_ERROR` (the APNs key in Firebase), a
    /// refused OAuth exchange, an access token still refused after its renewal, a 403 without an FCM
    /// error, a 404 without Google's error body (a wrong `SCOREFEED_FCM_URL`). Stop sending, say so
    /// loudly, deactivate nothing.
    case pause(reason: String)
    /// No answer after the message was written (timeout, closed connection, reset stream): FCM may have it.
    case noAnswer(reason: String)
    /// The message never left: sending it later cannot make it twice.
    case notSent(reason: String)
}

extension FCMResult {
    /// What this answer asks of the sender (``FCMAction``).
    public var action: FCMAction {
        switch failure {
        case .authorization(let why): return .pause(reason: "the OAuth token exchange was refused (\(why))")
        case .transport(let why): return .noAnswer(reason: why)
        case .notSent(let why): return .notSent(reason: why)
        case nil: break
        }
        if isSuccess { return .delivered }
        let status = self.status ?? 0
        let code = errorCode ?? "HTTP \(status)"
        switch self.code {
        case .unregistered, .senderIdMismatch:
            return .deactivate(reason: code)
        case .invalidArgument:
            return .neverRetry(reason: "INVALID_ARGUMENT: \(message ?? "no message")")
        case .quotaExceeded, .unavailable, .internalError:
            return .retry(reason: code)
        case .thirdPartyAuthError:
            return .pause(
                reason: "THIRD_PARTY_AUTH_ERROR: the APNs key or certificate uploaded to Firebase is not accepted")
        case .unspecified, nil:
            switch status {
            case 401: return .pause(reason: "FCM refused the renewed access token (\(code))")
            case 403: return .pause(reason: "FCM denied the project (\(code))")
            case 404 where errorCode == nil:
                return .pause(reason: "FCM answered 404 without an FCM error: check SCOREFEED_FCM_URL")
            case 429, 500...599: return .retry(reason: code)
            default: return .neverRetry(reason: "HTTP \(status) \(errorCode ?? ""): \(message ?? "")")
            }
        }
    }
}
