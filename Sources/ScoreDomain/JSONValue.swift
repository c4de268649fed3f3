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
    case object(JSONObject)

    /// The compact, key-sorted JSON text of this value.
    public func serialized() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact, key-sorted JSON text of this value to `out`.
    public func write(to out: inout String) {
        out += serialized()
    }

    /// Appends the compact, key-sorted JSON text of this value to `bytes` (UTF-8): the one writer,
    /// byte by byte into one buffer, with no intermediate strings.
    public func write(to bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes += "null".utf8
        case .bool(let value):
            bytes += (value ? "true" : "false").utf8
        case .int(let value):
            bytes += String(value).utf8
        case .double(let value):
            bytes += (value.isFinite ? "\(value)" : "null").utf8
        case .string(let value):
            JSONValue.writeString(value, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            let keys = members.keys
            let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
            for (index, position) in order.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                let member = members[position]
                JSONValue.writeString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as a JSON string literal to `bytes` (see ``writeString(_:to:)-(String,String)``).
    public static func writeString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            guard needsEscape(byte) else {
                bytes.append(byte)
                continue
            }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [
                    UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ]
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out = ""
        writeString(text, to: &out)
        return out
    }

    /// Appends `text` as a JSON string literal: `"` and `\` escaped, control characters as
    /// `\n`-style or `\u00XX` escapes, everything else (including `/` and non-ASCII) verbatim.
    public static func writeString(_ text: String, to out: inout String) {
        guard text.utf8.contains(where: needsEscape) else {
            out += "\""
            out += text
            out += "\""
            return
        }
        // Every byte that needs an escape is ASCII, so escaping byte by byte keeps UTF-8 intact.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        writeString(text, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}

extension JSONValue {
    /// The member `key` of an object; `nil` for a value that is not one or has no such member. Read in
    /// place: the object is not copied (a copy is two reference counts up and down per field read).
    public func member(_ key: String) -> JSONValue? {
        switch self {
        case .object(let object): object[key]
        default: nil
        }
    }
}
