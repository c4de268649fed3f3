import Foundation

/// Base64url (RFC 4648 §5) without padding, as JWTs use it: the one encoding of the APNs and FCM
/// clients' tokens and of the local servers that verify them.
public enum Base64URL {
    /// Encodes bytes as base64url without `=` padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url without padding (correct padding tolerated); `nil` when the text is not base64url.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") || base64.count % 4 == 0 else { return nil }
        if base64.count % 4 != 0 { base64 += String(repeating: "=", count: 4 - base64.count % 4) }
        return Data(base64Encoded: base64)
    }
}
