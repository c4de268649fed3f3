import Foundation

/// A one-dimensional array parameter in PostgreSQL's binary format (what `array_recv` reads):
/// each element's bytes behind its length, so neither side quotes, escapes or parses array text,
/// and numbers and timestamps travel as integers. Bind it with a matching cast (`$1::text[]`).
public struct PostgresBinaryArray: PostgresEncodable, Equatable {
    /// The array type's OID (`text[]` is 1009).
    public let oid: UInt32
    /// The whole parameter as sent.
    public let bytes: [UInt8]

    public var postgresParameter: PostgresParameter { .binary(oid: oid, bytes: bytes) }

    /// A `text[]`.
    public static func text<C: Collection>(_ values: C) -> Self where C.Element == String {
        Self(oid: 1009, element: 25, values, reserve: 16) { value, out in
            out.append(contentsOf: value.utf8)
            return true
        }
    }

    /// A `text[]` with NULLs.
    public static func text<C: Collection>(_ values: C) -> Self where C.Element == String? {
        Self(oid: 1009, element: 25, values, reserve: 16) { value, out in
            guard let value else { return false }
            out.append(contentsOf: value.utf8)
            return true
        }
    }

    /// A `bigint[]`.
    public static func bigint<C: Collection>(_ values: C) -> Self where C.Element == Int {
        Self(oid: 1016, element: 20, values, reserve: 8) { value, out in
            out.appendBigEndian(UInt64(bitPattern: Int64(value)))
            return true
        }
    }

    /// A `timestamptz[]`, to the microsecond (rounded as ``PostgresTimestamp/format(_:)`` rounds).
    public static func timestamptz<C: Collection>(_ values: C) -> Self where C.Element == Date {
        Self(oid: 1185, element: 1184, values, reserve: 8) { value, out in
            // Microseconds since 2000-01-01 00:00:00 UTC, PostgreSQL's epoch.
            let micros = Int64((value.timeIntervalSince1970 * 1_000_000).rounded()) - 946_684_800_000_000
            out.appendBigEndian(UInt64(bitPattern: micros))
            return true
        }
    }

    /// A `jsonb[]` of JSON texts (the server parses each, as it parses `jsonb` input text).
    public static func jsonb<C: Collection>(_ texts: C) -> Self where C.Element == String {
        Self(oid: 3807, element: 3802, texts, reserve: 128) { text, out in
            out.append(1)  // jsonb's binary format version
            out.append(contentsOf: text.utf8)
            return true
        }
    }

    /// Writes the header (one dimension, lower bound 1) and each element behind its length;
    /// `write` appends an element's bytes, or returns `false` for NULL (having appended nothing).
    private init<C: Collection>(
        oid: UInt32, element: UInt32, _ values: C, reserve: Int, _ write: (C.Element, inout [UInt8]) -> Bool
    ) {
        var out: [UInt8] = []
        out.reserveCapacity(20 + values.count * (4 + reserve))
        out.appendBigEndian(UInt32(values.isEmpty ? 0 : 1))
        out.appendBigEndian(UInt32(0))  // has NULLs: set below
        out.appendBigEndian(element)
        if !values.isEmpty {
            out.appendBigEndian(UInt32(values.count))
            out.appendBigEndian(UInt32(1))
        }
        var nulls = false
        for value in values {
            let start = out.count
            out.appendBigEndian(UInt32(0))
            if write(value, &out) {
                out.setBigEndian(UInt32(out.count - start - 4), at: start)
            } else {
                out.setBigEndian(UInt32(bitPattern: -1), at: start)
                nulls = true
            }
        }
        if nulls { out.setBigEndian(UInt32(1), at: 4) }
        self.oid = oid
        self.bytes = out
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    fileprivate mutating func setBigEndian(_ value: UInt32, at index: Int) {
        Swift.withUnsafeBytes(of: value.bigEndian) { bytes in
            for (offset, byte) in bytes.enumerated() { self[index + offset] = byte }
        }
    }
}
