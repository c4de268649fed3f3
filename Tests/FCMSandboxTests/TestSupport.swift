import CryptoExtras
import Foundation
import JOSE
import Logging
import ScoreDomain

@testable import FCMSandbox

/// Shared values and helpers of the FCM sandbox tests.
enum Fixture {
    static let logger = Logger(label: "fcm-sandbox-tests", factory: { _ in SwiftLogNoOpLogHandler() })
    /// 2027-01-15T08:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let otherKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let clientEmail = "firebase-adminsdk-sandbox@scorefeed-sandbox.iam.gserviceaccount.com"
    static let keyId = "0123456789abcdef0123456789abcdef01234567"
    static let tokenURI = "https://127.0.0.1:2198/token"
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    static let verifier = AssertionVerifier(
        clientEmail: clientEmail, keyId: keyId, audience: tokenURI, publicKey: key.publicKey)

    static let header: JSONObject = [
        "alg": .string("RS256"), "typ": .string("JWT"), "kid": .string(keyId),
    ]

    /// The claims a Google client library sends, issued at `iat`.
    static func claims(iat: Date = now) -> JSONObject {
        let seconds = Int(iat.timeIntervalSince1970)
        return [
            "iss": .string(clientEmail), "aud": .string(tokenURI), "scope": .string(scope),
            "iat": .int(seconds), "exp": .int(seconds + 3600),
        ]
    }

    /// A compact RS256 JWT.
    static func jwt(
        header: JSONObject = header, claims: JSONObject = claims(),
        key: _RSA.Signing.PrivateKey = key
    ) -> String {
        let input =
            Base64URL.encode(Array(JSONValue.object(header).serialized().utf8)) + "."
            + Base64URL.encode(Array(JSONValue.object(claims).serialized().utf8))
        let signature = try! key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// A valid Live Activity message to `token` (or with `message` members replaced).
    static func message(token: String = "device-a:APA91b", extra: String = "") -> String {
        #"{"message":{"token":"\#(token)","apns":{"live_activity_token":"la-token","#
            + #""headers":{"apns-priority":"5","apns-expiration":"1800000900"},"#
            + #""payload":{"aps":{"timestamp":1800000000,"event":"update","content-state":{"home":2}}}}\#(extra)}}"#
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("fcm-sandbox-tests-\(UUID())-\(name)").path
    }
}
