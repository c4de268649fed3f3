import Foundation
import ScoreDomain
import Testing

@testable import FCMSandbox

@Suite("Token exchange, authorization and limits without a socket")
struct SandboxCoreTests {
    static func core(limit: Int = 240, lifetime: Duration = .seconds(3600), faults: [FCMScriptedFault] = [])
        -> SandboxCore
    {
        SandboxCore(
            projectId: "scorefeed-sandbox", verifier: Fixture.verifier, tokenLifetime: lifetime,
            perDeviceLimit: limit, faults: faults)
    }

    static func form(_ assertion: String, grantType: String = SandboxCore.grantType) -> TokenRequest {
        let encoded = grantType.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return TokenRequest(
            contentType: "application/x-www-form-urlencoded",
            body: Array("grant_type=\(encoded)&assertion=\(assertion)".utf8))
    }

    static func send(_ token: String, body: String = Fixture.message(), project: String = "scorefeed-sandbox")
        -> SendRequest
    {
        SendRequest(
            projectId: project, authorization: "Bearer \(token)", contentType: "application/json",
            body: Array(body.utf8))
    }

    /// Exchanges a good assertion and returns the access token.
    static func accessToken(_ core: inout SandboxCore, now: Date = Fixture.now) throws -> String {
        let answer = core.exchange(form(Fixture.jwt(claims: Fixture.claims(iat: now))), now: now)
        #expect(answer.status == 200)
        let parsed = try JSONValue.parse(Data(answer.body.utf8))
        let members: JSONObject? = if case .object(let members) = parsed { members } else { nil }
        let object = try #require(members)
        #expect(object["expires_in"] == .int(3600))
        #expect(object["token_type"] == .string("Bearer"))
        let token: String? = if case .string(let token)? = object["access_token"] { token } else { nil }
        return try #require(token)
    }

    @Test("an access token for a good assertion is accepted until it expires")
    func tokenLifetime() throws {
        var core = Self.core(lifetime: .seconds(3600))
        let token = try Self.accessToken(&core)
        #expect(token.hasPrefix("ya29."))
        #expect(core.send(Self.send(token), now: Fixture.now.addingTimeInterval(3599)).status == 200)
        let expired = core.send(Self.send(token), now: Fixture.now.addingTimeInterval(3600))
        #expect(expired.status == 401)
        #expect(expired.errorCode == "UNAUTHENTICATED")
        #expect(core.tokens.issued == 1)
    }

    @Test("expireAccessTokens revokes every token issued so far")
    func revoke() throws {
        var core = Self.core()
        let first = try Self.accessToken(&core)
        core.expireAccessTokens()
        #expect(core.send(Self.send(first), now: Fixture.now).status == 401)
        let second = try Self.accessToken(&core)
        #expect(core.send(Self.send(second), now: Fixture.now).status == 200)
        #expect(core.tokens.issued == 2)
    }

    static let tokenCases: [(TokenRequest, Int, String)] = [
        (
            form(Fixture.jwt(), grantType: "client_credentials"), 400,
            #"{"error":"unsupported_grant_type","error_description":"Invalid grant_type: client_credentials"}"#
        ),
        (form(""), 400, #"{"error":"invalid_request","error_description":"Missing required parameter: assertion"}"#),
        (
            TokenRequest(contentType: "application/json", body: Array("{}".utf8)), 400,
            #"{"error":"invalid_request","error_description":"Content-Type must be application/x-www-form-urlencoded"}"#
        ),
        (
            form(Fixture.jwt(key: Fixture.otherKey)), 400,
            #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#
        ),
    ]

    @Test("refused exchanges answer Google's OAuth errors", arguments: tokenCases)
    func refusedExchange(request: TokenRequest, status: Int, body: String) {
        var core = Self.core()
        let answer = core.exchange(request, now: Fixture.now)
        #expect(answer.status == status)
        #expect(answer.body == body)
        #expect(core.tokens.issued == 0)
    }

    @Test("a refuseToken fault refuses the next exchange only")
    func refuseToken() throws {
        var core = Self.core(faults: [FCMScriptedFault(.refuseToken)])
        let refused = core.exchange(Self.form(Fixture.jwt()), now: Fixture.now)
        #expect(refused.status == 400)
        #expect(
            refused.body
                == #"{"error":"invalid_grant","error_description":"Refused by a scripted fault (oauth:invalid_grant)"}"#
        )
        _ = try Self.accessToken(&core)
    }

    static let unauthenticated =
        #"{"error":{"code":401,"message":"Request had invalid authentication credentials. Expected OAuth 2 access "#
        + #"token, login cookie or other valid authentication credential.","status":"UNAUTHENTICATED"}}"#

    @Test("requests are refused in Google's formats")
    func refusals() throws {
        var core = Self.core()
        let token = try Self.accessToken(&core)
        let unknown = core.send(Self.send("ya29.unknown"), now: Fixture.now)
        #expect(unknown.status == 401)
        #expect(unknown.body == Self.unauthenticated)
        #expect(unknown.headers == ["www-authenticate": #"Bearer realm="https://accounts.google.com/""#])
        var missing = Self.send(token)
        missing.authorization = nil
        #expect(core.send(missing, now: Fixture.now).status == 401)
        let otherProject = core.send(Self.send(token, project: "other"), now: Fixture.now)
        #expect(otherProject.status == 403)
        #expect(otherProject.errorCode == "PERMISSION_DENIED")
        let invalid = core.send(Self.send(token, body: #"{"message":{}}"#), now: Fixture.now)
        #expect(invalid.status == 400)
        #expect(
            invalid.body
                == #"{"error":{"code":400,"details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","#
                + #""errorCode":"INVALID_ARGUMENT"},{"@type":"type.googleapis.com/google.rpc.BadRequest","#
                + #""fieldViolations":[{"description":"Recipient of the message is not set.","field":"message"}]}],"#
                + #""message":"Recipient of the message is not set.","status":"INVALID_ARGUMENT"}}"#)
        var plain = Self.send(token)
        plain.contentType = "text/plain"
        #expect(core.send(plain, now: Fixture.now).errorCode == "INVALID_ARGUMENT")
    }

    @Test("accepted messages get unique names; a dry run is answered but not accepted")
    func names() throws {
        var core = Self.core()
        let token = try Self.accessToken(&core)
        let first = core.send(Self.send(token), now: Fixture.now)
        let second = core.send(Self.send(token), now: Fixture.now)
        #expect(first.isAccepted && second.isAccepted)
        #expect(first.body.hasPrefix(#"{"name":"projects/scorefeed-sandbox/messages/0:1800000000000000%"#))
        #expect(first.body != second.body)
        let dryRun = core.send(
            Self.send(token, body: #"{"message":{"token":"t"},"validate_only":true}"#), now: Fixture.now)
        #expect(dryRun.status == 200)
        #expect(!dryRun.isAccepted)
        #expect(dryRun.body == #"{"name":"projects/scorefeed-sandbox/messages/fake_message_id"}"#)
    }

    @Test("more than the per-device limit in a rolling minute is 429 QUOTA_EXCEEDED with retry-after")
    func perDeviceLimit() throws {
        var core = Self.core(limit: 3)
        let token = try Self.accessToken(&core)
        let statuses = (0..<4).map { second in
            core.send(Self.send(token), now: Fixture.now.addingTimeInterval(Double(second) * 10)).status
        }
        #expect(statuses == [200, 200, 200, 429])
        let refused = core.send(Self.send(token), now: Fixture.now.addingTimeInterval(30))
        #expect(refused.errorCode == "QUOTA_EXCEEDED")
        #expect(refused.headers == ["retry-after": "30"])
        // Another device has its own budget; topics have none.
        #expect(core.send(Self.send(token, body: Fixture.message(token: "device-b")), now: Fixture.now).status == 200)
        #expect(core.send(Self.send(token, body: #"{"message":{"topic":"t"}}"#), now: Fixture.now).status == 200)
        // A minute after the first, one more fits.
        #expect(core.send(Self.send(token), now: Fixture.now.addingTimeInterval(60)).status == 200)
        #expect(core.send(Self.send(token), now: Fixture.now.addingTimeInterval(61)).status == 429)
    }

    static let routes: [(String, String, Route)] = [
        ("POST", "/token", .token),
        ("GET", "/token", .notFound),
        ("POST", "/v1/projects/scorefeed-sandbox/messages:send", .send(projectId: "scorefeed-sandbox")),
        ("POST", "/v1/projects/other/messages:send?alt=json", .send(projectId: "other")),
        ("GET", "/v1/projects/scorefeed-sandbox/messages:send", .notFound),
        ("POST", "/v1/projects//messages:send", .notFound),
        ("POST", "/fcm/send", .notFound),
    ]

    @Test("routes", arguments: routes)
    func route(method: String, path: String, expected: Route) {
        #expect(Route(method: method, path: path) == expected)
    }

    @Test("form bodies are URL-decoded")
    func form() {
        #expect(
            SandboxCore.parseForm(Array("grant_type=urn%3Aietf%3Aparams&assertion=a.b.c&x=1+2&flag".utf8))
                == ["grant_type": "urn:ietf:params", "assertion": "a.b.c", "x": "1 2", "flag": ""])
    }
}
