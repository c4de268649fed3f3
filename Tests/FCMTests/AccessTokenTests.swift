import Foundation
import Testing

@testable import FCM

@Suite("Access token exchange (pure parts)")
struct AccessTokenTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [(3600.0, 3300.0), (3599, 3299), (600, 300), (300, 150), (60, 30)])
    func renewal(_ expiresIn: Double, _ after: Double) {
        #expect(
            FCMAccessTokenProvider.refreshDate(start: Self.start, expiresIn: expiresIn)
                == Self.start.addingTimeInterval(after))
    }

    static let answers: [(Int, String, FCMAccessTokenProvider.Exchange)] = [
        (
            200, #"{"access_token":"ya29.abc","expires_in":3599,"token_type":"Bearer"}"#,
            .token("ya29.abc", expiresIn: 3599)
        ),
        (200, #"{"access_token":"ya29.abc","expires_in":60.5}"#, .token("ya29.abc", expiresIn: 60.5)),
        (
            200, #"{"expires_in":3599,"token_type":"Bearer"}"#,
            .failed(.authorization("token endpoint answered without access_token and expires_in"))
        ),
        (
            200, #"{"access_token":"ya29.abc","expires_in":0}"#,
            .failed(.authorization("token endpoint answered without access_token and expires_in"))
        ),
        (200, "not json", .failed(.authorization("token endpoint answered without access_token and expires_in"))),
        (
            200, #"{"access_token":"ya29.abc","expires_in":3599,"token_type":"MAC"}"#,
            .failed(.authorization("token endpoint answered token_type MAC, not Bearer"))
        ),
        (
            400, #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#,
            .failed(.authorization("token endpoint answered HTTP 400: invalid_grant: Invalid JWT Signature."))
        ),
        (401, "", .failed(.authorization("token endpoint answered HTTP 401"))),
        (503, "unavailable", .failed(.transport("token endpoint answered HTTP 503"))),
    ]

    @Test(arguments: answers)
    func answer(_ status: Int, _ body: String, _ expected: FCMAccessTokenProvider.Exchange) {
        #expect(FCMAccessTokenProvider.parse(status: status, body: Data(body.utf8)) == expected)
    }

    @Test(arguments: [
        (FCMResult(status: 401, errorCode: "UNAUTHENTICATED"), true),
        (FCMResult(status: 401), true),
        (FCMResult(status: 401, errorCode: "THIRD_PARTY_AUTH_ERROR"), false),
        (FCMResult(status: 403, errorCode: "SENDER_ID_MISMATCH"), false),
        (FCMResult(status: 200), false),
        (FCMResult(failure: .transport("timeout")), false),
    ])
    func renewsOn(_ result: FCMResult, _ expected: Bool) {
        #expect(FCMClient.refusesAccessToken(result) == expected)
    }
}
