import Crypto
import Foundation
import JOSE

/// Builds APNs provider tokens: ES256 JWTs with `{"alg":"ES256","kid":KEYID}` and
/// `{"iss":TEAMID,"iat":SECONDS}`, base64url without padding, signature in raw `r||s` form.
public enum APNsJWT {
    /// The JOSE header of an APNs provider token.
    public struct Header: Codable, Sendable, Hashable {
        /// Always `ES256`.
        public var alg: String
        /// The key id.
        public var kid: String
    }

    /// The claims of an APNs provider token.
    public struct Claims: Codable, Sendable, Hashable {
        /// The team id.
        public var iss: String
        /// Issued-at, UNIX seconds.
        public var iat: Int64
    }

    /// Signs a provider token.
    /// - Parameters:
    ///   - keyId: The key id (`kid`).
    ///   - teamId: The team id (`iss`).
    ///   - issuedAt: UNIX seconds (`iat`).
    ///   - signingKey: The P-256 key of the `.p8` file.
    /// - Returns: The compact JWT `header.claims.signature`.
    /// - Throws: ``APNsError`` with code `signingFailed` when the key cannot sign.
    public static func make(
        keyId: String,
        teamId: String,
        issuedAt: Int64,
        signingKey: P256.Signing.PrivateKey
    ) throws(APNsError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let header = try encoder.encode(Header(alg: "ES256", kid: keyId))
            let claims = try encoder.encode(Claims(iss: teamId, iat: issuedAt))
            let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
            let signature = try signingKey.signature(for: Data(signingInput.utf8))
            return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
        } catch {
            throw APNsError(.signingFailed, "cannot sign the provider token")
        }
    }
}
