/// A JSON value that keeps integers, floating-point numbers and booleans apart, and serializes
/// deterministically.
///
/// Serialization is compact (no spaces), sorts object keys by their UTF-8 bytes, writes non-ASCII
/// text as raw UTF-8 and does not escape `/`. It is the one JSON writer of ScoreDomain and
/// LiveActivity, so every stored or pushed document is byte-for-byte reproducible.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The compact, key-sorted JSON text of this value.
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the compact, key-sorted JSON text of this value to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null:
            out += "null"
        case .bool(let value):
            out += value ? "true" : "false"
        case .int(let value):
            out += String(value)
        case .double(let value):
            out += value.isFinite ? "\(value)" : "null"
        case .string(let value):
            JSONValue.writeString(value, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    /// Appends `text` as a JSON string literal: `"` and `\` escaped, control characters as
    /// `\n`-style or `\u00XX` escapes, everything else (including `/` and non-ASCII) verbatim.
    public static func writeString(_ text: String, to out: inout String) {
        out += "\""
        guard text.utf8.contains(where: needsEscape) else {
            out += text
            out += "\""
            return
        }
        // Every byte that needs an escape is ASCII, so escaping byte by byte keeps UTF-8 intact.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            guard needsEscape(byte) else {
                escaped.append(byte)
                continue
            }
            escaped.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped.append(byte)
            case 0x0A: escaped.append(UInt8(ascii: "n"))
            case 0x0D: escaped.append(UInt8(ascii: "r"))
            case 0x09: escaped.append(UInt8(ascii: "t"))
            case 0x08: escaped.append(UInt8(ascii: "b"))
            case 0x0C: escaped.append(UInt8(ascii: "f"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                escaped += [
                    UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ]
            }
        }
        out += String(decoding: escaped, as: UTF8.self)
        out += "\""
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
