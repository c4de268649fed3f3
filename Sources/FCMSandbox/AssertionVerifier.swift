import Crypto
import CryptoExtras
import Foundation
import JOSE

/// Checks the JWT a client signs with its service-account key and exchanges at the token endpoint
/// (RFC 7523 as Google's OAuth 2.0 server does). Pure: the time comes in as a parameter.
struct AssertionVerifier: Sendable {
    /// The scope FCM needs; `cloud-platform` also grants it.
    static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"
    static let cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"
    /// How far in the future `iat` may be (clock skew).
    static let leeway: TimeInterval = 60
    /// The longest `exp - iat` Google accepts.
    static let maximumLifetime: TimeInterval = 3600

    /// The service account's `client_email` (`iss`).
    let clientEmail: String
    /// The service account's `private_key_id` (`kid`, when the header has one).
    let keyId: String
    /// The `token_uri` (`aud`).
    let audience: String
    let publicKey: _RSA.Signing.PublicKey

    private struct Header: Decodable {
        var alg: String?
        var typ: String?
        var kid: String?
    }

    private struct Claims: Decodable {
        var iss: String?
        var aud: String?
        var scope: String?
        var iat: Double?
        var exp: Double?
    }

    /// Verifies an assertion.
    /// - Parameters:
    ///   - assertion: The compact JWT.
    ///   - now: The current time.
    /// - Returns: `nil` when it is valid, else the `error_description` of Google's `invalid_grant` answer.
    func problem(with assertion: String, now: Date) -> String? {
        guard let jwt = CompactJWT(assertion) else {
            return "Invalid JWT: the assertion is not three base64url parts"
        }
        guard let header = CompactJWT.decode(Header.self, from: jwt.header) else {
            return "Invalid JWT: the header is not base64url JSON"
        }
        guard let claims = CompactJWT.decode(Claims.self, from: jwt.claims) else {
            return "Invalid JWT: the claim set is not base64url JSON"
        }
        guard let signatureBytes = jwt.signature else { return "Invalid JWT Signature." }
        guard header.alg == "RS256" else {
            return "Invalid JWT: unsupported algorithm '\(header.alg ?? "")'; expected RS256"
        }
        if let typ = header.typ, typ != "JWT" { return "Invalid JWT: typ '\(typ)' is not JWT" }
        if let kid = header.kid, kid != keyId { return "Invalid JWT: kid is not this service account's private_key_id" }
        guard claims.iss == clientEmail else {
            return "Invalid grant: account not found (iss '\(claims.iss ?? "")' is not the client_email)"
        }
        guard claims.aud == audience else {
            return "Invalid JWT: Failed audience check. The expected value was \(audience)"
        }
        let scopes = (claims.scope ?? "").split(separator: " ")
        guard scopes.contains(where: { $0 == Self.messagingScope || $0 == Self.cloudPlatformScope }) else {
            return "Invalid OAuth scope: the scope claim must contain \(Self.messagingScope)"
        }
        guard let iat = claims.iat, let exp = claims.exp else { return "Invalid JWT: iat and exp are required" }
        let time = now.timeIntervalSince1970
        guard iat <= time + Self.leeway, exp > time, exp > iat, exp - iat <= Self.maximumLifetime else {
            return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
                + "Check your iat and exp values in the JWT claim."
        }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signatureBytes)
        guard publicKey.isValidSignature(signature, for: jwt.signingInput, padding: .insecurePKCS1v1_5) else {
            return "Invalid JWT Signature."
        }
        return nil
    }
}
