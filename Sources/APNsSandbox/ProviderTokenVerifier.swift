import Crypto
import Foundation
import JOSE
import NIOConcurrencyHelpers

/// Checks `authorization: bearer <JWT>` as APNs does.
struct ProviderTokenVerifier: Sendable {
    let keyId: String
    let teamId: String
    let publicKey: P256.Signing.PublicKey
    let lifetime: TimeInterval
    /// `authorization` values whose JWT signature was already verified, with their `iat` (at most
    /// 64, shared by all connections): a client reuses one JWT for close to an hour, so each is
    /// verified once.
    private let verified = NIOLockedValueBox<[String: Int64]>([:])

    init(keyId: String, teamId: String, publicKey: P256.Signing.PublicKey, lifetime: TimeInterval) {
        self.keyId = keyId
        self.teamId = teamId
        self.publicKey = publicKey
        self.lifetime = lifetime
    }

    private struct Header: Decodable {
        var alg: String
        var kid: String
    }

    private struct Claims: Decodable {
        var iss: String
        var iat: Int64
    }

    /// The APNs error reason, or `nil` when the token is valid.
    func check(authorization: String?, now: Date) -> String? {
        guard let authorization, !authorization.isEmpty else { return "MissingProviderToken" }
        if let iat = verified.withLockedValue({ $0[authorization] }) { return expiry(iat, now: now) }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return "InvalidProviderToken" }
        guard let jwt = CompactJWT(parts[1]),
            let header = CompactJWT.decode(Header.self, from: jwt.header),
            let claims = CompactJWT.decode(Claims.self, from: jwt.claims),
            header.alg == "ES256", header.kid == keyId, claims.iss == teamId,
            let signatureBytes = jwt.signature,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { return "InvalidProviderToken" }
        guard publicKey.isValidSignature(signature, for: jwt.signingInput) else { return "InvalidProviderToken" }
        verified.withLockedValue { cache in
            if cache.count >= 64 { cache.removeAll() }
            cache[authorization] = claims.iat
        }
        return expiry(claims.iat, now: now)
    }

    /// `ExpiredProviderToken` for a token issued more than ``lifetime`` ago, else `nil`.
    private func expiry(_ issuedAt: Int64, now: Date) -> String? {
        now.timeIntervalSince1970 - TimeInterval(issuedAt) > lifetime ? "ExpiredProviderToken" : nil
    }
}
