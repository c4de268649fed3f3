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
        let segments = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
            let headerBytes = Base64URL.decode(segments[0]),
            let claimsBytes = Base64URL.decode(segments[1]),
            let signatureBytes = Base64URL.decode(segments[2]),
            let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
            let claims = try? JSONDecoder().decode(Claims.self, from: Data(claimsBytes)),
            header.alg == "ES256", header.kid == keyId, claims.iss == teamId,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { return "InvalidProviderToken" }
        let signingInput = Data("\(segments[0]).\(segments[1])".utf8)
        guard publicKey.isValidSignature(signature, for: signingInput) else { return "InvalidProviderToken" }
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
