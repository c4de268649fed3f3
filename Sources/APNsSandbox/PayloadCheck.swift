/// Checks that a payload is a JSON object with an `aps` object, without building the document.
///
/// Strict JSON (RFC 8259) in UTF-8: a leading byte-order mark is ignored; trailing commas, leading zeros,
/// unescaped control characters, invalid UTF-8 and unpaired surrogate escapes are errors. Containers nest
/// at most 512 deep (as Foundation's parser). Duplicate keys are allowed; the last `aps` decides.
enum PayloadCheck {
    static let maximumDepth = 512

    /// Whether `body` is a valid JSON document whose top level is an object with an `aps` object.
    static func hasApsObject(_ body: [UInt8]) -> Bool {
        body.withUnsafeBufferPointer { bytes in
            var scanner = Scanner(bytes: bytes)
            return (try? scanner.document()) == true
        }
    }

    private struct Invalid: Error {}

    private enum Kind {
        case object, other
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        /// The whole document: one top-level object, then only whitespace. Returns whether it has `aps`.
        mutating func document() throws(Invalid) -> Bool {
            skipWhitespace()
            guard peek() == UInt8(ascii: "{") else { throw Invalid() }
            let hasAps = try object(top: true)
            skipWhitespace()
            guard index == bytes.count else { throw Invalid() }
            return hasAps
        }

        private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func next() throws(Invalid) -> UInt8 {
            guard index < bytes.count else { throw Invalid() }
            defer { index += 1 }
            return bytes[index]
        }

        private mutating func expect(_ byte: UInt8) throws(Invalid) {
            guard try next() == byte else { throw Invalid() }
        }

        private mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        private mutating func value() throws(Invalid) -> Kind {
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: "{"):
                _ = try object(top: false)
                return .object
            case UInt8(ascii: "["):
                try array()
            case UInt8(ascii: "\""):
                _ = try string()
            case UInt8(ascii: "t"):
                try literal("true")
            case UInt8(ascii: "f"):
                try literal("false")
            case UInt8(ascii: "n"):
                try literal("null")
            default:
                try number()
            }
            return .other
        }

        /// An object starting at `{`; for the top level, whether its last `aps` member is an object.
        private mutating func object(top: Bool) throws(Invalid) -> Bool {
            try enter()
            var hasAps = false
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return false
            }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw Invalid() }
                let isAps = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                let kind = try value()
                if top, isAps { hasAps = kind == .object }
                skipWhitespace()
                switch try next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"):
                    depth -= 1
                    return hasAps
                default: throw Invalid()
                }
            }
        }

        private mutating func array() throws(Invalid) {
            try enter()
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return
            }
            while true {
                _ = try value()
                skipWhitespace()
                switch try next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"):
                    depth -= 1
                    return
                default: throw Invalid()
                }
            }
        }

        /// Consumes the opening bracket and counts the nesting level.
        private mutating func enter() throws(Invalid) {
            index += 1
            depth += 1
            guard depth <= PayloadCheck.maximumDepth else { throw Invalid() }
        }

        private mutating func literal(_ word: StaticString) throws(Invalid) {
            let length = word.utf8CodeUnitCount
            guard bytes.count - index >= length else { throw Invalid() }
            for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { throw Invalid() }
            index += length
        }

        private mutating func number() throws(Invalid) {
            if peek() == UInt8(ascii: "-") { index += 1 }
            switch try next() {
            case UInt8(ascii: "0"): break
            case UInt8(ascii: "1")...UInt8(ascii: "9"): skipDigits()
            default: throw Invalid()
            }
            if peek() == UInt8(ascii: ".") {
                index += 1
                try digits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                index += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
                try digits()
            }
        }

        /// One or more digits.
        private mutating func digits() throws(Invalid) {
            guard let byte = peek(), Self.isDigit(byte) else { throw Invalid() }
            skipDigits()
        }

        private mutating func skipDigits() {
            while let byte = peek(), Self.isDigit(byte) { index += 1 }
        }

        private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        /// A string starting at `"`; returns whether its decoded value is `aps`.
        private mutating func string() throws(Invalid) -> Bool {
            index += 1
            var decoded = ApsMatcher()
            while true {
                let byte = try next()
                switch byte {
                case UInt8(ascii: "\""):
                    return decoded.isAps
                case UInt8(ascii: "\\"):
                    decoded.add(try escape())
                case 0x00..<0x20:
                    throw Invalid()
                case 0x20..<0x80:
                    decoded.add(UInt32(byte))
                default:
                    decoded.add(try multiByte(lead: byte))
                }
            }
        }

        /// The scalar of an escape sequence after `\` (a surrogate pair for `\uD8xx\uDCxx`).
        private mutating func escape() throws(Invalid) -> UInt32 {
            switch try next() {
            case UInt8(ascii: "\""): return 0x22
            case UInt8(ascii: "\\"): return 0x5C
            case UInt8(ascii: "/"): return 0x2F
            case UInt8(ascii: "b"): return 0x08
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            case UInt8(ascii: "u"):
                let unit = try hex4()
                switch unit {
                case 0xD800..<0xDC00:
                    try expect(UInt8(ascii: "\\"))
                    try expect(UInt8(ascii: "u"))
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw Invalid() }
                    return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                case 0xDC00..<0xE000:
                    throw Invalid()
                default:
                    return unit
                }
            default:
                throw Invalid()
            }
        }

        private mutating func hex4() throws(Invalid) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = try next()
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Invalid()
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }

        /// One UTF-8 sequence of 2–4 bytes (no overlongs, surrogates or values above U+10FFFF).
        private mutating func multiByte(lead: UInt8) throws(Invalid) -> UInt32 {
            let count: Int
            var scalar: UInt32
            var lowest: UInt32
            switch lead {
            case 0xC2...0xDF: (count, scalar, lowest) = (1, UInt32(lead & 0x1F), 0x80)
            case 0xE0...0xEF: (count, scalar, lowest) = (2, UInt32(lead & 0x0F), 0x800)
            case 0xF0...0xF4: (count, scalar, lowest) = (3, UInt32(lead & 0x07), 0x10000)
            default: throw Invalid()
            }
            for _ in 0..<count {
                let byte = try next()
                guard byte & 0xC0 == 0x80 else { throw Invalid() }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            guard scalar >= lowest, scalar <= 0x10FFFF, !(0xD800..<0xE000).contains(scalar) else { throw Invalid() }
            return scalar
        }
    }

    /// Compares decoded scalars against `aps` as they come.
    private struct ApsMatcher {
        private var count = 0
        private var matches = true

        mutating func add(_ scalar: UInt32) {
            if matches {
                switch count {
                case 0: matches = scalar == 0x61
                case 1: matches = scalar == 0x70
                case 2: matches = scalar == 0x73
                default: matches = false
                }
            }
            count += 1
        }

        var isAps: Bool { matches && count == 3 }
    }
}
