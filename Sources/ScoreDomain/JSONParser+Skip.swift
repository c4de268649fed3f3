/// The values of members a ``JSONMemberFilter`` does not keep: checked as strictly as a parse checks
/// them (grammar, nesting limit, control characters, escapes, UTF-8) but never built, so they cost no
/// allocation. Not checked, as nothing is made of them: duplicate keys and numbers out of range.
extension JSONParser {
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        guard let byte = peek() else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"):
            try skipContainer(depth: depth + 1, close: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            try skipContainer(depth: depth + 1, close: UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
        case UInt8(ascii: "f"):
            try expectLiteral("false")
        case UInt8(ascii: "n"):
            try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try scanNumber()
        default:
            throw error("unexpected \(describeCurrent())")
        }
    }

    /// An object (`close` is `}`: members of a string key, `:` and a value) or an array (`]`).
    private mutating func skipContainer(depth: Int, close: UInt8) throws(JSONSyntaxError) {
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
        let isObject = close == UInt8(ascii: "}")
        position += 1  // { or [
        skipWhitespace()
        if peek() == close {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            if isObject {
                guard peek() == UInt8(ascii: "\"") else {
                    throw error("expected a string key but found \(describeCurrent())")
                }
                try skipString()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw error("expected ':' but found \(describeCurrent())") }
                position += 1
                skipWhitespace()
            }
            try skipValue(depth: depth)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
            case close:
                position += 1
                return
            default:
                throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' but found \(describeCurrent())")
            }
        }
    }

    private mutating func skipString() throws(JSONSyntaxError) {
        let openColumn = position + 1
        position += 1  // opening quote
        var runStart = position
        var bits: UInt8 = 0
        while true {
            scanRun(&bits)
            guard let byte = peek() else {
                throw JSONSyntaxError(message: "unterminated string", column: openColumn)
            }
            // The bytes between escapes are valid UTF-8 each on their own (an escape is ASCII, so no
            // character spans one).
            if bits >= 0x80, !JSONParser.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[runStart..<position])) {
                throw JSONSyntaxError(message: "string is not valid UTF-8", column: openColumn)
            }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                try skipEscape()
                runStart = position
                bits = 0
            default:
                throw error("control character U+\(hex4(UInt32(byte))) must be escaped in a string")
            }
        }
    }

    private mutating func skipEscape() throws(JSONSyntaxError) {
        position += 1  // backslash
        guard let byte = peek() else { throw error("unterminated escape sequence") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            _ = try parseUnicodeEscape()
        default:
            position -= 1
            throw error("invalid escape sequence \\\(describeCurrent())")
        }
    }
}
