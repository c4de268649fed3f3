import Crypto
import CryptoExtras
import Foundation
import JOSE
import ScoreDomain

/// Builds the signed assertion of the OAuth 2.0 JWT-bearer exchange: header
/// `{"alg":"RS256","typ":"JWT","kid":<private_key_id>}`, claims
/// `{"iss":<client_email>,"scope":<FCM scope>,"aud":<token_uri>,"iat":…,"exp":iat+3600}`, RS256
/// (RSASSA-PKCS1-v1_5 over SHA-256), base64url without padding.
enum FCMJWT {
    /// The OAuth scope of sending through FCM.
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// How long an assertion is valid (the most Google accepts).
    static let lifetime: Int64 = 3600

    /// The JOSE header.
    static func header(keyId: String) -> String {
        "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":" + JSONValue.quoted(keyId) + "}"
    }

    /// The claims.
    static func claims(_ account: ServiceAccount, issuedAt: Int64) -> String {
        "{\"iss\":" + JSONValue.quoted(account.clientEmail) + ",\"scope\":" + JSONValue.quoted(scope) + ",\"aud\":"
            + JSONValue.quoted(account.tokenURI) + ",\"iat\":\(issuedAt),\"exp\":\(issuedAt + lifetime)}"
    }

    /// Signs an assertion.
    /// - Parameters:
    ///   - account: Supplies `kid`, `iss` and `aud`.
    ///   - issuedAt: UNIX seconds (`iat`).
    ///   - key: The account's RSA key.
    /// - Returns: The compact JWT `header.claims.signature`.
    /// - Throws: When the key cannot sign (the error says nothing of the key).
    static func make(_ account: ServiceAccount, issuedAt: Int64, key: _RSA.Signing.PrivateKey) throws -> String {
        let input =
            Base64URL.encode(Array(header(keyId: account.privateKeyId).utf8)) + "."
            + Base64URL.encode(Array(claims(account, issuedAt: issuedAt).utf8))
        let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
