import NIOCore
import NIOHPACK

/// A complete request as the sandbox received it, with what it checks picked out of the headers once.
struct SandboxRequest: Sendable {
    var method: String
    var path: String
    /// The device token of a `/3/device/<token>` path (see ``RequestValidator/deviceToken(inPath:)``).
    var token: String?
    /// The header fields as ``Delivery/headers`` shows them: names lowercased, repeated fields joined with
    /// `, `, `authorization` shortened; with `host` (from `:authority`) and `content-length` or
    /// `transfer-encoding` added as in the HTTP/1 view of the request.
    var headers: [String: String]
    var pushType: String?
    var topic: String?
    var priority: String?
    var expiration: String?
    /// The raw `apns-id` field.
    var apnsIdField: String?
    /// `apns-id` when it is a UUID, lowercased.
    var apnsId: String?
    var authorization: String?
    /// One of the fields that must appear at most once appears more often.
    var hasDuplicateHeaders = false
    /// The body, at most ``RequestValidator/maximumStoredBody`` bytes.
    var body: [UInt8] = []
    /// The full body length, even beyond what was stored.
    var bodyLength = 0

    /// Reads the request header block; `nil` when a pseudo-header (`:method`, `:path`, `:scheme`,
    /// `:authority`) is missing, repeated or malformed.
    init?(headerBlock: HPACKHeaders, endStream: Bool) {
        var method: String?
        var path: String?
        var scheme: String?
        var authority: String?
        var headers: [String: String] = [:]
        var seen = 0  // checked single fields seen, one bit each
        headers.reserveCapacity(headerBlock.count)
        for (name, value, _) in headerBlock {
            if name.utf8.first == UInt8(ascii: ":") {
                guard Self.isValidPseudoHeaderValue(value) else { return nil }
                switch name {
                case ":method": guard Self.setOnce(&method, value) else { return nil }
                case ":path": guard Self.setOnce(&path, value) else { return nil }
                case ":scheme": guard Self.setOnce(&scheme, value) else { return nil }
                case ":authority": guard Self.setOnce(&authority, value) else { return nil }
                default: break
                }
                continue
            }
            let key = Self.lowercased(name)
            let bit: Int
            switch key {
            case "apns-push-type": (bit, pushType) = (1, pushType ?? value)
            case "apns-topic": (bit, topic) = (2, topic ?? value)
            case "apns-priority": (bit, priority) = (4, priority ?? value)
            case "apns-expiration": (bit, expiration) = (8, expiration ?? value)
            case "apns-id": (bit, apnsIdField) = (16, apnsIdField ?? value)
            case "authorization": (bit, authorization) = (32, authorization ?? value)
            default: bit = 0
            }
            if seen & bit != 0 { hasDuplicateHeaders = true }
            seen |= bit
            let shown = bit == 32 ? String(value.prefix(16)) + "…" : value
            if let earlier = headers[key] {
                headers[key] = "\(earlier), \(shown)"
            } else {
                headers[key] = shown
            }
        }
        guard let method, let path, scheme != nil, let authority else { return nil }
        if headers["host"] == nil { headers["host"] = authority }
        switch method {
        case "GET", "HEAD", "DELETE", "CONNECT", "TRACE": break
        default:
            if headers["content-length"] == nil {
                if endStream {
                    headers["content-length"] = "0"
                } else {
                    headers["transfer-encoding"] = headers["transfer-encoding"].map { "chunked, \($0)" } ?? "chunked"
                }
            }
        }
        self.method = method
        self.path = path
        self.headers = headers
        token = RequestValidator.deviceToken(inPath: path)
        apnsId = apnsIdField.flatMap(Self.lowercaseUUID)
    }

    /// Appends a body part, storing at most ``RequestValidator/maximumStoredBody`` bytes.
    mutating func append(_ part: ByteBufferView) {
        bodyLength += part.count
        let room = RequestValidator.maximumStoredBody - body.count
        if room > 0 { body.append(contentsOf: part.prefix(room)) }
    }

    private static func setOnce(_ slot: inout String?, _ value: String) -> Bool {
        guard slot == nil else { return false }
        slot = value
        return true
    }

    /// As NIOHTTP2's HTTP/1 view: no control characters, space or DEL.
    private static func isValidPseudoHeaderValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 <= 0x20 || $0 == 0x7F }
    }

    /// `name` lowercased (HTTP/2 names already are, so usually `name` itself).
    private static func lowercased(_ name: String) -> String {
        name.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? name.lowercased() : name
    }

    /// `text` lowercased when it is a UUID (`8-4-4-4-12` hex digits), else `nil`.
    static func lowercaseUUID(_ text: String) -> String? {
        var hasUppercase = false
        var offset = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                guard offset == 8 || offset == 13 || offset == 18 || offset == 23 else { return nil }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
                guard offset != 8, offset != 13, offset != 18, offset != 23 else { return nil }
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                guard offset != 8, offset != 13, offset != 18, offset != 23 else { return nil }
                hasUppercase = true
            default:
                return nil
            }
            offset += 1
        }
        guard offset == 36 else { return nil }
        return hasUppercase ? text.lowercased() : text
    }
}
