/// Why a text is not JSON: a message and the 1-based byte column where the problem was found.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `expected ',' or '}' but found '"'`.
    public var message: String
    /// The 1-based byte column (offset in the text) where it was found.
    public var column: Int

    /// `<message> at column <column>`.
    public var description: String { "\(message) at column \(column)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes producing ``JSONValue``.
///
/// Strictness beyond the RFC: duplicate object keys are rejected (they make the meaning of a
/// message ambiguous), nesting is limited to ``maxDepth`` levels, strings must be valid UTF-8 and
/// must not contain lone surrogate escapes.
struct JSONParser {
    static let maxDepth = 32

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// The elements of the arrays being parsed, innermost last: an array is built once, at its `]`,
    /// with exactly its count (no growth by doubling, no spare capacity kept in the tree).
    private var elements: [JSONValue] = []
    /// The members of the objects being parsed (with each key's column), innermost last: an object's
    /// values are one array built at its `}`, at its final size.
    private var members: [Member] = []
    /// The keys read so far (see ``parseKey()``), and which of them the filter keeps.
    private var keys: JSONKeyTable
    /// The objects' shapes made so far (see ``takeMembers(from:)``).
    private var shapes = JSONShapeTable()

    /// A member read, its key's column kept for a duplicate's error.
    private struct Member {
        var key: String
        var value: JSONValue
        var column: Int
        /// The key's fingerprint, to find a duplicate without comparing texts.
        var fingerprint: UInt64
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, filter: JSONMemberFilter?) {
        self.bytes = bytes
        keys = JSONKeyTable(filter: filter, documentSize: bytes.count)
    }

    /// Parses exactly one JSON value, surrounded by optional whitespace, keeping only the members
    /// `filter` names (all of them when it is `nil`; the others are checked and skipped, see
    /// ``skipValue(depth:)``).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, keeping filter: JSONMemberFilter? = nil)
        throws(JSONSyntaxError) -> JSONValue
    {
        var parser = JSONParser(bytes: bytes, filter: filter)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return value
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = peek() else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw error("unexpected \(describeCurrent())")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
        position += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return .object([:])
        }
        let start = members.count
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw error("expected a string key but found \(describeCurrent())")
            }
            let keyColumn = position + 1
            let (key, fingerprint, kept) = try parseKey()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' but found \(describeCurrent())") }
            position += 1
            skipWhitespace()
            if kept == .keep || (kept == .object && peek() == UInt8(ascii: "{")) {
                let value = try parseValue(depth: depth)
                members.append(Member(key: key, value: value, column: keyColumn, fingerprint: fingerprint))
            } else {
                try skipValue(depth: depth)
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members.count == start ? [:] : try takeMembers(from: start))
            default:
                throw error("expected ',' or '}' but found \(describeCurrent())")
            }
        }
    }

    /// The object of the members from `start` on (removed from ``members``), its shape shared with the
    /// earlier objects of the same keys in the same order.
    /// - Throws: for a key given twice, at its second occurrence.
    private mutating func takeMembers(from start: Int) throws(JSONSyntaxError) -> JSONObject {
        let count = members.count - start
        let fingerprint = JSONShapeTable.fingerprint(members[start...].lazy.map(\.fingerprint))
        let shape: JSONObjectShape
        if let known = shapes.shape(fingerprint), known.keys.count == count,
            known.keys.indices.allSatisfy({ known.keys[$0] == members[start + $0].key })
        {
            shape = known  // its keys are distinct
        } else {
            try checkDistinct(from: start)
            shape = JSONObjectShape(
                keys: members[start...].map(\.key), fingerprints: members[start...].map(\.fingerprint))
            shapes.remember(shape, fingerprint)
        }
        var values: [JSONValue] = []
        values.reserveCapacity(count)
        // Each value moved out (`null` left in its place), so none is retained and released again on its
        // way into the object.
        members.withUnsafeMutableBufferPointer { buffer in
            for position in start..<buffer.count {
                var value = JSONValue.null
                swap(&value, &buffer[position].value)
                values.append(value)
            }
        }
        members.removeSubrange(start...)
        return JSONObject(shape: shape, values: values)
    }

    /// Throws for the first key of the members from `start` on that an earlier one has.
    private func checkDistinct(from start: Int) throws(JSONSyntaxError) {
        if members.count - start > JSONObject.indexedCount {
            var seen = Set<String>(minimumCapacity: members.count - start)
            for member in members[start...] where !seen.insert(member.key).inserted { throw duplicate(member) }
        } else {
            // Pairwise by fingerprint: a full comparison only where two fingerprints agree.
            for second in start..<members.count {
                let member = members[second]
                for first in start..<second
                where members[first].fingerprint == member.fingerprint && members[first].key == member.key {
                    throw duplicate(member)
                }
            }
        }
    }

    private func duplicate(_ member: Member) -> JSONSyntaxError {
        JSONSyntaxError(message: "duplicate key \"\(member.key)\"", column: member.column)
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
        position += 1  // [
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        let start = elements.count
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "]"):
                position += 1
                var array: [JSONValue] = []
                array.reserveCapacity(elements.count - start)
                array.append(contentsOf: elements[start...])
                elements.removeSubrange(start...)
                return .array(array)
            default:
                throw error("expected ',' or ']' but found \(describeCurrent())")
            }
        }
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        let isInteger = try scanNumber()
        // Up to 18 digits always fit in Int: read them directly, without a text.
        let negative = bytes[start] == UInt8(ascii: "-")
        if isInteger, position - start - (negative ? 1 : 0) <= 18 {
            var magnitude = 0
            for index in (negative ? start + 1 : start)..<position {
                magnitude = magnitude &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
            }
            return .int(negative ? -magnitude : magnitude)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let value = Int(text) {
            return .int(value)
        }
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(message: "number \(text) is out of range", column: start + 1)
        }
        return .double(value)
    }

    /// Moves past a number, checking its grammar; whether it is an integer (no fraction, no exponent).
    mutating func scanNumber() throws(JSONSyntaxError) -> Bool {
        var isInteger = true
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit but found \(describeCurrent())") }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), isDigit(next) { throw error("leading zeros are not allowed in numbers") }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let next = peek(), isDigit(next) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let next = peek(), isDigit(next) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        return isInteger
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: - Strings

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let openColumn = position + 1
        position += 1  // opening quote
        var utf8: [UInt8] = []
        var runStart = position
        var bits: UInt8 = 0  // every byte of the run or'ed: below 0x80 when all are ASCII
        while true {
            scanRun(&bits)
            guard let byte = peek() else {
                throw JSONSyntaxError(message: "unterminated string", column: openColumn)
            }
            switch byte {
            case UInt8(ascii: "\""):
                let text: String?
                if utf8.isEmpty {  // no escapes: decode straight from the input
                    let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
                    text = bits < 0x80 ? String(decoding: run, as: UTF8.self) : JSONParser.validatedString(run)
                } else {
                    utf8.append(contentsOf: bytes[runStart..<position])
                    text = JSONParser.validatedString(utf8)
                }
                position += 1
                guard let text else {
                    throw JSONSyntaxError(message: "string is not valid UTF-8", column: openColumn)
                }
                return text
            case UInt8(ascii: "\\"):
                utf8.append(contentsOf: bytes[runStart..<position])
                try parseEscape(into: &utf8)
                runStart = position
            default:
                throw error("control character U+\(hex4(UInt32(byte))) must be escaped in a string")
            }
        }
    }

    /// A member's key, as ``parseString()`` reads it, its fingerprint (``JSONKeyTable``) and whether the
    /// filter keeps it: a key of ASCII bytes without escapes is made into a `String` once per document
    /// (see ``keys``).
    private mutating func parseKey() throws(JSONSyntaxError) -> (
        key: String, fingerprint: UInt64, kept: JSONMemberKeeping
    ) {
        let start = position + 1
        position = start
        var bits: UInt8 = 0
        scanRun(&bits)
        guard bits < 0x80, position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            position = start - 1
            let key = try parseString()
            return (key, JSONKeyTable.fingerprint(key), keys.keeps(key))
        }
        let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
        position += 1
        return keys.key(run)
    }

    /// Moves ``position`` to the next `"`, `\` or control character (or the end), or'ing the bytes it
    /// passes into `bits`: eight bytes at a time while none of them is one of those or non-ASCII.
    mutating func scanRun(_ bits: inout UInt8) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while position + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                // A high bit where a byte is 0 (quote, backslash), below 0x20, or non-ASCII.
                let found =
                    ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                    | ((word &- ones &* 0x20) & ~word) | word
                if found & highs != 0 { break }
                position += 8
            }
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            bits |= byte
            position += 1
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        position += 1  // backslash
        guard let byte = peek() else { throw error("unterminated escape sequence") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try parseUnicodeEscape()
            UTF8.encode(scalar) { utf8.append($0) }
        default:
            position -= 1
            throw error("invalid escape sequence \\\(describeCurrent())")
        }
    }

    /// Parses the `XXXX` after `\u`, combining a surrogate pair written as two escapes.
    mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let escapeColumn = position - 1
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            guard peek() == UInt8(ascii: "\\"), peek(offset: 1) == UInt8(ascii: "u") else {
                throw JSONSyntaxError(message: "lone surrogate \\u\(hex4(high))", column: escapeColumn)
            }
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONSyntaxError(message: "lone surrogate \\u\(hex4(high))", column: escapeColumn)
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw JSONSyntaxError(message: "lone surrogate \\u\(hex4(high))", column: escapeColumn)
        }
        return scalar
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = hexDigitValue(byte) else {
                throw error("expected 4 hex digits after \\u")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    func hex4(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `bytes` as a `String`, or `nil` if they are not valid UTF-8 (never repaired with U+FFFD).
    /// Written out rather than `String(validating:as:)`, which needs macOS 15 at run time.
    static func validatedString(_ bytes: some Collection<UInt8>) -> String? {
        bytes.allSatisfy({ $0 < 0x80 }) || isValidUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Whether `bytes` are valid UTF-8 (what ``validatedString(_:)`` and a skipped string check).
    static func isValidUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    // MARK: - Helpers

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = position
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard peek() == byte else {
                throw JSONSyntaxError(message: "invalid literal, expected \(literal)", column: start + 1)
            }
            position += 1
        }
    }

    mutating func skipWhitespace() {
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
        {
            position += 1
        }
    }

    func peek(offset: Int = 0) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, column: position + 1)
    }

    /// A short description of the byte at the current position, for error messages.
    func describeCurrent() -> String {
        guard let byte = peek() else { return "end of input" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
