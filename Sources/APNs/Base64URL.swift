import Foundation

/// Base64url (RFC 4648 §5) without padding, as used by JWT.
enum Base64URL {
    /// Encodes bytes as base64url without `=` padding.
    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

}
