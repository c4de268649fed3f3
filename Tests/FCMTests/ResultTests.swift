import FCM
import Foundation
import Testing

@Suite("Answers of messages:send")
struct ResultTests {
    static let now = Date(timeIntervalSince1970: 1_445_412_400)  // Wed, 21 Oct 2015 07:26:40 GMT

    static func errorBody(_ code: Int, _ status: String, _ errorCode: String, message: String = "msg") -> String {
        #"{"error":{"code":\#(code),"message":"\#(message)","status":"\#(status)","details":["#
            + #"{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#(errorCode)"}]}}"#
    }

    static let codes: [(Int, String, String, FCMErrorCode)] = [
        (404, "NOT_FOUND", "UNREGISTERED", .unregistered),
        (403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH", .senderIdMismatch),
        (400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", .invalidArgument),
        (429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", .quotaExceeded),
        (503, "UNAVAILABLE", "UNAVAILABLE", .unavailable),
        (500, "INTERNAL", "INTERNAL", .internalError),
        (401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR", .thirdPartyAuthError),
        (400, "INVALID_ARGUMENT", "UNSPECIFIED_ERROR", .unspecified),
    ]

    @Test(arguments: codes)
    func errorCode(_ status: Int, _ googleStatus: String, _ errorCode: String, _ expected: FCMErrorCode) {
        let result = FCMResult(
            status: status, body: Array(Self.errorBody(status, googleStatus, errorCode).utf8), now: Self.now)
        #expect(result == FCMResult(status: status, errorCode: errorCode, message: "msg"))
        #expect(result.code == expected)
        #expect(!result.isSuccess)
    }

    static let bodies: [(Int, String, String?, FCMResult)] = [
        (
            200, #"{"name":"projects/example-project/messages/0:1700000000000000%abc"}"#, nil,
            FCMResult(status: 200, name: "projects/example-project/messages/0:1700000000000000%abc")
        ),
        (
            401,
            #"{"error":{"code":401,"message":"Request had invalid authentication credentials.","#
                + #""status":"UNAUTHENTICATED"}}"#, nil,
            FCMResult(
                status: 401, errorCode: "UNAUTHENTICATED", message: "Request had invalid authentication credentials.")
        ),
        (
            400,
            #"{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT","details":["#
                + #"{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[]},"#
                + #"{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#,
            nil, FCMResult(status: 400, errorCode: "INVALID_ARGUMENT", message: "bad")
        ),
        (
            429, errorBody(429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED"), "30",
            FCMResult(status: 429, errorCode: "QUOTA_EXCEEDED", message: "msg", retryAfter: 30)
        ),
        (
            503, errorBody(503, "UNAVAILABLE", "UNAVAILABLE"), "Wed, 21 Oct 2015 07:28:00 GMT",
            FCMResult(status: 503, errorCode: "UNAVAILABLE", message: "msg", retryAfter: 80)
        ),
        (502, "Bad Gateway", nil, FCMResult(status: 502, message: "Bad Gateway")),
        (500, "", nil, FCMResult(status: 500)),
        (
            404, errorBody(404, "NOT_FOUND", "UNREGISTERED", message: String(repeating: "x", count: 500)), nil,
            FCMResult(status: 404, errorCode: "UNREGISTERED", message: String(repeating: "x", count: 200))
        ),
    ]

    @Test(arguments: bodies)
    func body(_ status: Int, _ body: String, _ retryAfter: String?, _ expected: FCMResult) {
        #expect(FCMResult(status: status, body: Array(body.utf8), retryAfter: retryAfter, now: Self.now) == expected)
    }

    @Test(arguments: [
        ("120", 120.0), (" 0 ", 0), ("1.5", 1.5), ("Wed, 21 Oct 2015 07:28:00 GMT", 80),
        ("Wednesday, 21-Oct-15 07:28:00 GMT", 80), ("Wed, 21 Oct 2015 07:00:00 GMT", 0),
    ])
    func retryAfter(_ text: String, _ expected: Double) {
        #expect(FCMResult.parseRetryAfter(text, now: Self.now) == expected)
    }

    @Test(arguments: ["", "soon", "-5", "nan", "21 Oct 2015"])
    func unreadableRetryAfter(_ text: String) {
        #expect(FCMResult.parseRetryAfter(text, now: Self.now) == nil)
    }

    @Test func successAndFailures() {
        #expect(FCMResult(status: 200).isSuccess)
        #expect(FCMResult(status: 200).code == nil)
        #expect(!FCMResult(failure: .transport("timeout")).isSuccess)
        #expect(!FCMResult(failure: .authorization("invalid_grant")).isSuccess)
        #expect(FCMResult(status: 401, errorCode: "UNAUTHENTICATED").code == nil)
    }

    static let actions: [(FCMResult, FCMAction)] = [
        (FCMResult(status: 200), .delivered),
        (FCMResult(status: 404, errorCode: "UNREGISTERED"), .deactivate(reason: "UNREGISTERED")),
        (FCMResult(status: 403, errorCode: "SENDER_ID_MISMATCH"), .deactivate(reason: "SENDER_ID_MISMATCH")),
        (
            FCMResult(status: 400, errorCode: "INVALID_ARGUMENT", message: "bad"),
            .neverRetry(reason: "INVALID_ARGUMENT: bad")
        ),
        (FCMResult(status: 429, errorCode: "QUOTA_EXCEEDED"), .retry(reason: "QUOTA_EXCEEDED")),
        (FCMResult(status: 503, errorCode: "UNAVAILABLE"), .retry(reason: "UNAVAILABLE")),
        (FCMResult(status: 500, errorCode: "INTERNAL"), .retry(reason: "INTERNAL")),
        (FCMResult(status: 502, message: "Bad Gateway"), .retry(reason: "HTTP 502")),
        (
            FCMResult(status: 401, errorCode: "THIRD_PARTY_AUTH_ERROR"),
            .pause(reason: "THIRD_PARTY_AUTH_ERROR: the APNs key or certificate uploaded to Firebase is not accepted")
        ),
        (
            FCMResult(status: 401, errorCode: "UNAUTHENTICATED"),
            .pause(reason: "FCM refused the renewed access token (UNAUTHENTICATED)")
        ),
        (FCMResult(status: 403), .pause(reason: "FCM denied the project (HTTP 403)")),
        (
            FCMResult(status: 404),
            .pause(reason: "FCM answered 404 without an FCM error: check SCOREFEED_FCM_URL")
        ),
        (
            FCMResult(status: 404, errorCode: "NOT_FOUND", message: "gone"),
            .neverRetry(reason: "HTTP 404 NOT_FOUND: gone")
        ),
        (
            FCMResult(failure: .authorization("invalid_grant")),
            .pause(reason: "the OAuth token exchange was refused (invalid_grant)")
        ),
        (FCMResult(failure: .transport("timeout")), .noAnswer(reason: "timeout")),
        (FCMResult(failure: .notSent("connect failed")), .notSent(reason: "connect failed")),
    ]

    @Test("each answer's action: the error code decides, the status only without one", arguments: actions)
    func action(_ result: FCMResult, _ expected: FCMAction) {
        #expect(result.action == expected)
    }
}
