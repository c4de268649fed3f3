import Crypto
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The description's `appKey` and `ingestKey` schemes (HTTP bearer): what the generated client leaves to
/// middleware.
struct BearerKey: ClientMiddleware {
    var key: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(key)"
        return try await next(request, body, baseURL)
    }
}

/// The description's `ingestSignature` scheme: `X-ScoreFeed-Signature: sha256=<hex>`, the HMAC-SHA256 with
/// the secret of `<timestamp>.<raw body>`, the timestamp in `X-ScoreFeed-Timestamp` (Unix seconds).
struct WebhookSignature: ClientMiddleware {
    var secret: String
    /// How far the timestamp is from now (negative: in the past).
    var offset: TimeInterval = 0

    static let timestampField = HTTPField.Name("X-ScoreFeed-Timestamp")!
    static let signatureField = HTTPField.Name("X-ScoreFeed-Signature")!

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let bytes: [UInt8] =
            if let body { try await [UInt8](collecting: body, upTo: 1 << 20) } else { [] }
        let timestamp = String(Int(Date().timeIntervalSince1970 + offset))
        let code = HMAC<SHA256>.authenticationCode(
            for: Array("\(timestamp).".utf8) + bytes, using: SymmetricKey(data: Array(secret.utf8)))
        var request = request
        request.headerFields[Self.timestampField] = timestamp
        request.headerFields[Self.signatureField] = "sha256=" + hex(code)
        return try await next(request, HTTPBody(bytes), baseURL)
    }
}

/// Lowercase hexadecimal, two digits a byte.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
