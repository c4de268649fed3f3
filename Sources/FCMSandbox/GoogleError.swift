import ScoreDomain

/// An answer the sandbox writes: status, extra headers, JSON body, and what it records.
struct SandboxAnswer: Sendable, Hashable {
    var status: Int
    /// Headers besides `:status` and `content-type`/`content-length`, e.g. `retry-after`.
    var headers: [String: String] = [:]
    var body: String
    /// The `FcmError` errorCode, else the error `status` (e.g. `UNAUTHENTICATED`); `nil` on 200.
    var errorCode: String?
    /// A `messages:send` that was delivered (not a dry run, not refused).
    var isAccepted = false
    /// The body's media type.
    var contentType = "application/json; charset=UTF-8"
}

/// A field a `messages:send` body gets wrong, as Google's `BadRequest.fieldViolations` entry.
struct FieldViolation: Sendable, Hashable, Error {
    /// The field path, e.g. `message.apns.headers`.
    var field: String
    /// What is wrong, naming the field.
    var description: String

    init(_ field: String, _ description: String) {
        self.field = field
        self.description = description
    }
}

/// Google's error answers: `{"error":{"code","message","status","details"}}` for the FCM API, and
/// `{"error","error_description"}` for the OAuth 2.0 token endpoint.
enum GoogleError {
    /// The `google.rpc.Code` name Google pairs with an HTTP status.
    static func statusName(_ httpStatus: Int) -> String {
        switch httpStatus {
        case 400: "INVALID_ARGUMENT"
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 409: "ABORTED"
        case 429: "RESOURCE_EXHAUSTED"
        case 499: "CANCELLED"
        case 500: "INTERNAL"
        case 501: "UNIMPLEMENTED"
        case 503: "UNAVAILABLE"
        case 504: "DEADLINE_EXCEEDED"
        default: "UNKNOWN"
        }
    }

    /// The HTTP status FCM answers with for a documented `FcmError` errorCode.
    static func knownStatus(errorCode: String) -> Int? {
        switch errorCode {
        case "UNSPECIFIED_ERROR": 500
        case "INVALID_ARGUMENT": 400
        case "UNREGISTERED": 404
        case "SENDER_ID_MISMATCH": 403
        case "QUOTA_EXCEEDED": 429
        case "UNAVAILABLE": 503
        case "INTERNAL": 500
        case "THIRD_PARTY_AUTH_ERROR": 401
        default: nil
        }
    }

    /// The `message` FCM writes for an errorCode.
    static func message(errorCode: String) -> String {
        switch errorCode {
        case "UNREGISTERED": "Requested entity was not found."
        case "SENDER_ID_MISMATCH": "SenderId mismatch"
        case "INVALID_ARGUMENT": "Request contains an invalid argument."
        case "QUOTA_EXCEEDED": "Device message rate exceeded."
        case "UNAVAILABLE": "The service is currently unavailable."
        case "INTERNAL": "Internal error encountered."
        case "THIRD_PARTY_AUTH_ERROR": "Auth error from APNS or Web Push Service"
        default: "Error \(errorCode)."
        }
    }

    static let fcmErrorType = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
    static let badRequestType = "type.googleapis.com/google.rpc.BadRequest"

    /// An FCM error with an `FcmError` detail (and a `BadRequest` detail for a field violation).
    static func fcm(
        status: Int, errorCode: String, message: String? = nil, retryAfter: Int? = nil,
        violation: FieldViolation? = nil
    ) -> SandboxAnswer {
        var details: [JSONValue] = [.object(["@type": .string(fcmErrorType), "errorCode": .string(errorCode)])]
        if let violation {
            details.append(
                .object([
                    "@type": .string(badRequestType),
                    "fieldViolations": .array([
                        .object(["field": .string(violation.field), "description": .string(violation.description)])
                    ]),
                ]))
        }
        let text = message ?? violation?.description ?? Self.message(errorCode: errorCode)
        var answer = api(status: status, message: text, details: details)
        answer.errorCode = errorCode
        if let retryAfter { answer.headers["retry-after"] = String(retryAfter) }
        return answer
    }

    /// `400 INVALID_ARGUMENT` for a malformed message.
    static func invalidArgument(_ violation: FieldViolation) -> SandboxAnswer {
        fcm(status: 400, errorCode: "INVALID_ARGUMENT", violation: violation)
    }

    /// A Google API error; the recorded errorCode is its `status` name.
    static func api(status: Int, message: String, details: [JSONValue] = []) -> SandboxAnswer {
        var error: JSONObject = [
            "code": .int(status), "message": .string(message), "status": .string(statusName(status)),
        ]
        if !details.isEmpty { error["details"] = .array(details) }
        return SandboxAnswer(
            status: status, body: JSONValue.object(["error": .object(error)]).serialized(),
            errorCode: statusName(status))
    }

    /// A path the server does not have: Google's front end answers such a request with an HTML 404 page,
    /// not the API's JSON error (so a client set to a wrong server path gets no FCM error to act on).
    static func pageNotFound(path: String) -> SandboxAnswer {
        let shown = path.prefix(200).map { "<>&\"".contains($0) ? "?" : String($0) }.joined()
        return SandboxAnswer(
            status: 404,
            body: "<!DOCTYPE html>\n<html lang=en><title>Error 404 (Not Found)</title>"
                + "<p><b>404.</b> The requested URL <code>\(shown)</code> was not found on this server.</p></html>\n",
            contentType: "text/html; charset=UTF-8")
    }

    /// `401 UNAUTHENTICATED` for a missing, unknown or expired bearer token.
    static func unauthenticated(missing: Bool) -> SandboxAnswer {
        let message =
            missing
            ? "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie "
                + "or other valid authentication credential."
            : "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other "
                + "valid authentication credential."
        var answer = api(status: 401, message: message)
        answer.headers["www-authenticate"] = #"Bearer realm="https://accounts.google.com/""#
        return answer
    }

    /// An OAuth 2.0 token endpoint error (`400`).
    static func oauth(_ error: String, _ description: String) -> SandboxAnswer {
        SandboxAnswer(
            status: 400,
            body: JSONValue.object(["error": .string(error), "error_description": .string(description)]).serialized(),
            errorCode: error)
    }
}
