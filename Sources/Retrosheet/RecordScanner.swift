/// Splits an event file into lines (LF or CRLF) and each line into comma-separated fields, working on
/// UTF-8 bytes. A field may be quoted (`"a, b"`); inside quotes `""` is a literal quote.
struct RecordScanner {
    /// One non-blank line: its number and its fields as byte ranges of the buffer.
    struct Line {
        var number: Int
        var fields: [Range<Int>]
        /// `true` when a field opened a quote that the line does not close.
        var unterminatedQuote: Bool
    }

    let bytes: [UInt8]
    private var position = 0
    private var lineNumber = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next non-blank line, or `nil` at the end of the buffer.
    mutating func next() -> Line? {
        bytes.withUnsafeBufferPointer { buffer in
            while position < buffer.count {
                lineNumber += 1
                let start = position
                var end = start
                while end < buffer.count && buffer[end] != UInt8(ascii: "\n") { end += 1 }
                position = end + 1
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if end == start { continue }
                return Self.split(buffer, start..<end, number: lineNumber)
            }
            return nil
        }
    }

    /// Field ranges of one line; a quoted field's range excludes the quotes.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, number: Int) -> Line {
        var fields: [Range<Int>] = []
        fields.reserveCapacity(8)
        var index = range.lowerBound
        var unterminated = false
        while true {
            if index < range.upperBound && bytes[index] == UInt8(ascii: "\"") {
                let open = index + 1
                var close = open
                while close < range.upperBound {
                    if bytes[close] == UInt8(ascii: "\"") {
                        if close + 1 < range.upperBound && bytes[close + 1] == UInt8(ascii: "\"") {
                            close += 2
                            continue
                        }
                        break
                    }
                    close += 1
                }
                if close >= range.upperBound {
                    unterminated = true
                    fields.append(open..<range.upperBound)
                    break
                }
                fields.append(open..<close)
                index = close + 1
                // Anything between the closing quote and the next comma is dropped.
                while index < range.upperBound && bytes[index] != UInt8(ascii: ",") { index += 1 }
            } else {
                var end = index
                while end < range.upperBound && bytes[end] != UInt8(ascii: ",") { end += 1 }
                fields.append(index..<end)
                index = end
            }
            if index >= range.upperBound { break }
            index += 1  // the comma
            if index == range.upperBound {
                fields.append(index..<index)
                break
            }
        }
        return Line(number: number, fields: fields, unterminatedQuote: unterminated)
    }

    /// The text of a field (quoted fields with `""` unescaped).
    func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[range])
            var hasQuote = false
            for byte in slice where byte == UInt8(ascii: "\"") {
                hasQuote = true
                break
            }
            guard hasQuote else { return String(decoding: slice, as: UTF8.self) }
            var unescaped: [UInt8] = []
            var previousWasQuote = false
            for byte in slice {
                if byte == UInt8(ascii: "\""), previousWasQuote {
                    previousWasQuote = false
                    continue
                }
                previousWasQuote = byte == UInt8(ascii: "\"")
                unescaped.append(byte)
            }
            return String(decoding: unescaped, as: UTF8.self)
        }
    }

    /// `true` when the field is exactly `literal`.
    func field(_ range: Range<Int>, is literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != pointer[offset] {
            return false
        }
        return true
    }

    /// The field as a non-negative decimal integer, or `nil`.
    func integer(_ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 9 else { return nil }
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
