import Crypto
import Foundation
import Hummingbird

/// Checks the credentials of a request, in constant time.
enum Credentials {
    /// What a request's credentials amount to.
    enum Verdict: Equatable {
        case accepted
        /// No credentials at all: 401.
        case missing
        /// Credentials that are wrong: 403.
        case refused(String)
    }

    /// The token of an `Authorization: Bearer …` header.
    static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// Whether `candidate` is one of `keys`, compared as ``index(of:in:)`` compares.
    static func matches(_ candidate: String, anyOf keys: [String]) -> Bool {
        index(of: candidate, in: keys) != nil
    }

    /// Where `candidate` is in `keys`. Every key is compared, each through a digest of fixed length,
    /// so neither the time taken nor an early exit tells how much of a key matched.
    static func index(of candidate: String, in keys: [String]) -> Int? {
        let digest = Array(SHA256.hash(data: Data(candidate.utf8)))
        var found: Int?
        for (index, key) in keys.enumerated() {
            let equal = constantTimeEqual(digest, Array(SHA256.hash(data: Data(key.utf8))))
            if equal { found = index }
        }
        return found
    }

    /// The app whose key the request presents as its bearer key: `nil` when it has no bearer key at
    /// all; a 403 when it has a key of no app.
    static func app(_ request: Request, in apps: AppKeys) throws -> AppSettings? {
        guard let key = bearer(request.headers[.authorization]) else { return nil }
        guard let app = apps.app(presenting: key) else {
            throw APIError(.forbidden, "forbidden", "this bearer key is not an app key")
        }
        return app
    }

    /// The app of a request that must present an app key: a 401 without one, a 403 with another key.
    static func requireApp(_ request: Request, in apps: AppKeys) throws -> AppSettings {
        guard let app = try app(request, in: apps) else {
            var error = APIError(.unauthorized, "unauthorized", "send `Authorization: Bearer <app key>`")
            error.headers[.wwwAuthenticate] = "Bearer"
            throw error
        }
        return app
    }

    /// What a signed request's headers amount to.
    enum SignatureVerdict: Equatable {
        case accepted
        /// No usable `X-ScoreFeed-Timestamp`, or one outside the window: 401 with this reason.
        case expired(String)
        /// The signature does not match: 403.
        case mismatch
    }

    /// Checks `X-ScoreFeed-Signature: sha256=<hex>`, the HMAC-SHA256 of `"<timestamp>.<raw body>"`
    /// where `<timestamp>` is the `X-ScoreFeed-Timestamp` header (Unix seconds), and that the
    /// timestamp is within `tolerance` of `now`: a captured request cannot be replayed later.
    static func verifySignature(
        _ signature: String, timestamp: String?, body: some DataProtocol, secret: String, now: Date,
        tolerance: TimeInterval
    ) -> SignatureVerdict {
        guard let timestamp, !timestamp.isEmpty else {
            return .expired(
                "a signed request needs an X-ScoreFeed-Timestamp header (Unix seconds), signed with the body")
        }
        guard timestamp.utf8.count <= 12, timestamp.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let seconds = Int(timestamp)
        else {
            return .expired("X-ScoreFeed-Timestamp must be a Unix time in whole seconds")
        }
        guard abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else {
            return .expired(
                "X-ScoreFeed-Timestamp is more than \(Int(tolerance)) s away from the server's clock; sign the request again"
            )
        }
        guard signature.hasPrefix("sha256="), let mac = hexBytes(signature.dropFirst(7)), mac.count == 32 else {
            return .mismatch
        }
        var signed = Data(timestamp.utf8)
        signed.append(UInt8(ascii: "."))
        signed.append(contentsOf: body)
        let valid = HMAC<SHA256>.isValidAuthenticationCode(
            mac, authenticating: signed, using: SymmetricKey(data: Data(secret.utf8)))
        return valid ? .accepted : .mismatch
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    private static func hexBytes(_ text: Substring) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
