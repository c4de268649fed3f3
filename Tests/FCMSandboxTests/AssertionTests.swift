import CryptoExtras
import Foundation
import JOSE
import ScoreDomain
import Testing

@testable import FCMSandbox

@Suite("JWT assertions at the token endpoint")
struct AssertionTests {
    static let shortLived =
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
        + "Check your iat and exp values in the JWT claim."

    /// Changes to the header and claims of a good assertion, and the `error_description` expected (`nil`: valid).
    static let cases: [(String, [String: JSONValue?], [String: JSONValue?], String?)] = [
        ("a client library's assertion", [:], [:], nil),
        ("no typ and no kid", ["typ": nil, "kid": nil], [:], nil),
        ("cloud-platform scope", [:], ["scope": .string("https://www.googleapis.com/auth/cloud-platform")], nil),
        (
            "several scopes",
            [:],
            [
                "scope":
                    .string(
                        "https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/firebase.messaging"
                    )
            ],
            nil
        ),
        ("iat 50 s ahead (clock skew)", [:], ["iat": .int(1_800_000_050)], nil),
        ("alg ES256", ["alg": .string("ES256")], [:], "Invalid JWT: unsupported algorithm 'ES256'; expected RS256"),
        ("alg none", ["alg": .string("none")], [:], "Invalid JWT: unsupported algorithm 'none'; expected RS256"),
        ("no alg", ["alg": nil], [:], "Invalid JWT: unsupported algorithm ''; expected RS256"),
        ("typ JWS", ["typ": .string("JWS")], [:], "Invalid JWT: typ 'JWS' is not JWT"),
        ("another kid", ["kid": .string("ffff")], [:], "Invalid JWT: kid is not this service account's private_key_id"),
        (
            "another iss",
            [:], ["iss": .string("someone@else.iam.gserviceaccount.com")],
            "Invalid grant: account not found (iss 'someone@else.iam.gserviceaccount.com' is not the client_email)"
        ),
        (
            "Google's aud",
            [:], ["aud": .string("https://oauth2.googleapis.com/token")],
            "Invalid JWT: Failed audience check. The expected value was https://127.0.0.1:2198/token"
        ),
        (
            "no scope",
            [:], ["scope": nil],
            "Invalid OAuth scope: the scope claim must contain https://www.googleapis.com/auth/firebase.messaging"
        ),
        (
            "another scope",
            [:], ["scope": .string("https://www.googleapis.com/auth/datastore")],
            "Invalid OAuth scope: the scope claim must contain https://www.googleapis.com/auth/firebase.messaging"
        ),
        ("no exp", [:], ["exp": nil], "Invalid JWT: iat and exp are required"),
        ("expired", [:], ["iat": .int(1_799_990_000), "exp": .int(1_799_993_600)], shortLived),
        ("exp exactly now", [:], ["iat": .int(1_799_996_400), "exp": .int(1_800_000_000)], shortLived),
        ("lives 3601 s", [:], ["exp": .int(1_800_003_601)], shortLived),
        ("iat 2 min ahead", [:], ["iat": .int(1_800_000_120), "exp": .int(1_800_003_000)], shortLived),
        ("exp before iat", [:], ["iat": .int(1_800_000_010), "exp": .int(1_800_000_005)], shortLived),
    ]

    @Test("assertions are checked as Google does", arguments: cases)
    func verify(name: String, header: [String: JSONValue?], claims: [String: JSONValue?], expected: String?) {
        var headerFields = Fixture.header
        for (key, value) in header { headerFields[key] = value }
        var claimFields = Fixture.claims()
        for (key, value) in claims { claimFields[key] = value }
        let assertion = Fixture.jwt(header: headerFields, claims: claimFields)
        #expect(Fixture.verifier.problem(with: assertion, now: Fixture.now) == expected)
    }

    @Test("a signature by another key is refused")
    func otherKey() {
        let assertion = Fixture.jwt(key: Fixture.otherKey)
        #expect(Fixture.verifier.problem(with: assertion, now: Fixture.now) == "Invalid JWT Signature.")
    }

    @Test("changed claims break the signature")
    func tampered() {
        let good = Fixture.jwt().split(separator: ".")
        var claims = Fixture.claims()
        claims["exp"] = .int(1_800_003_000)
        let forged = Base64URL.encode(Array(JSONValue.object(claims).serialized().utf8))
        let assertion = "\(good[0]).\(forged).\(good[2])"
        #expect(Fixture.verifier.problem(with: assertion, now: Fixture.now) == "Invalid JWT Signature.")
    }

    static let malformedCases: [(String, String)] = [
        ("", "Invalid JWT: the assertion is not three base64url parts"),
        ("a.b", "Invalid JWT: the assertion is not three base64url parts"),
        ("!!!.e30.AAAA", "Invalid JWT: the header is not base64url JSON"),
        ("e30.!!!.AAAA", "Invalid JWT: the claim set is not base64url JSON"),
        ("e30.e30.!!!", "Invalid JWT Signature."),
    ]

    @Test("malformed assertions are refused", arguments: malformedCases)
    func malformed(assertion: String, expected: String) {
        #expect(Fixture.verifier.problem(with: assertion, now: Fixture.now) == expected)
    }
}
