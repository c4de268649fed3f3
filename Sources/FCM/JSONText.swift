/// Writing JSON text by hand, for bodies whose key order and embedded parts must be exact.
enum JSONText {
    /// `value` as a JSON string literal, quotes included (`"`, `\` and control characters escaped).
    static func string(_ value: String) -> String {
        var out = "\""
        out.unicodeScalars.reserveCapacity(value.unicodeScalars.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }
}
