import Foundation

/// A JWT in its compact form, `header.claims.signature`, split and each part decoded: the one reader of
/// the tokens the local servers verify (APNs provider tokens, Google OAuth assertions). Nothing is
/// verified here: the signature is checked over ``signingInput`` by the caller, with its key.
public struct CompactJWT: Sendable {
    /// The header's JSON bytes; `nil` when that part is not base64url.
    public let header: Data?
    /// The claim set's JSON bytes; `nil` when that part is not base64url.
    public let claims: Data?
    /// The signature's bytes; `nil` when that part is not base64url.
    public let signature: Data?
    /// `<header>.<claims>` as written: what the signature signs.
    public let signingInput: Data

    /// Splits a compact JWT; `nil` when it is not three `.`-separated parts.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        header = Base64URL.decode(parts[0])
        claims = Base64URL.decode(parts[1])
        signature = Base64URL.decode(parts[2])
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
    }

    /// `part` (``header`` or ``claims``) decoded as JSON; `nil` when it is missing or not that shape.
    public static func decode<T: Decodable>(_ type: T.Type, from part: Data?) -> T? {
        part.flatMap { try? JSONDecoder().decode(type, from: $0) }
    }
}
