import Crypto
import Foundation
import NIOConcurrencyHelpers

/// Checks `authorization: bearer <JWT>` as APNs does.
struct ProviderTokenVerifier: Sendable {
    let keyId: String
    let teamId: String
    let publicKey: P256.Signing.PublicKey
    let lifetime: TimeInterval
    /// Tokens whose signature was already verified, with their `iat`: a client reuses one JWT for
    /// close to an hour, so verifying it once per connection's worth of requests is enough.
    private let verified = NIOLockedValueBox<[Substring: Int64]>([:])

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
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return "InvalidProviderToken" }
        if let iat = verified.withLockedValue({ $0[parts[1]] }) {
            return now.timeIntervalSince1970 - TimeInterval(iat) > lifetime ? "ExpiredProviderToken" : nil
        }
        let segments = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
            let headerBytes = Self.decode(segments[0]),
            let claimsBytes = Self.decode(segments[1]),
            let signatureBytes = Self.decode(segments[2]),
            let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
            let claims = try? JSONDecoder().decode(Claims.self, from: Data(claimsBytes)),
            header.alg == "ES256", header.kid == keyId, claims.iss == teamId,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { return "InvalidProviderToken" }
        let signingInput = Data("\(segments[0]).\(segments[1])".utf8)
        guard publicKey.isValidSignature(signature, for: signingInput) else { return "InvalidProviderToken" }
        verified.withLockedValue { cache in
            if cache.count >= 64 { cache.removeAll() }
            cache[parts[1]] = claims.iat
        }
        if now.timeIntervalSince1970 - TimeInterval(claims.iat) > lifetime {
            return "ExpiredProviderToken"
        }
        return nil
    }

    /// Base64url without padding (padding tolerated).
    static func decode(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") || base64.count % 4 == 0 else { return nil }
        if base64.count % 4 != 0 {
            base64 += String(repeating: "=", count: 4 - base64.count % 4)
        }
        return Data(base64Encoded: base64).map { Array($0) }
    }
}
