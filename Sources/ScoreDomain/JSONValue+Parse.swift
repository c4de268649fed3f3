import Foundation

extension JSONValue {
    /// Parses one JSON document with the strict parser of the canonical feed (RFC 8259; duplicate keys,
    /// nesting deeper than 32 levels, invalid UTF-8 and lone surrogate escapes are rejected). A leading
    /// UTF-8 byte order mark is ignored.
    /// - Parameters:
    ///   - data: the UTF-8 JSON text.
    ///   - filter: the members to keep in every object (``JSONMemberFilter``); `nil` keeps them all.
    /// - Returns: the value, integers kept apart from other numbers.
    /// - Throws: ``JSONSyntaxError`` with the byte column of the problem.
    public static func parse(_ data: Data, keeping filter: JSONMemberFilter? = nil) throws(JSONSyntaxError)
        -> JSONValue
    {
        let result = data.withUnsafeBytes { raw -> Result<JSONValue, JSONSyntaxError> in
            var bytes = UnsafeBufferPointer(
                start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
            return Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes, keeping: filter) }
        }
        return try result.get()
    }
}
