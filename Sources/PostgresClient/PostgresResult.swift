import CLibPQ
import Foundation

/// The rows of one successful statement, in text format.
///
/// Owns its `PGresult` and clears it exactly once, when the last reference goes away. A result is
/// immutable once libpq has produced it, so reading it from any thread is safe.
public final class PostgresResult: @unchecked Sendable {
    private let handle: OpaquePointer
    private let counter: ResultCounter

    init(_ handle: OpaquePointer, counter: ResultCounter) {
        self.handle = handle
        self.counter = counter
        counter.add(1)
    }

    deinit {
        PQclear(handle)
        counter.add(-1)
    }

    /// Number of rows returned.
    public var count: Int { Int(PQntuples(handle)) }

    /// Number of rows a data-modifying statement affected (`INSERT`, `UPDATE`, `DELETE`).
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// Column names, in order.
    public var columns: [String] {
        (0..<PQnfields(handle)).map { String(cString: PQfname(handle, $0)) }
    }

    /// The row at `index`.
    public subscript(index: Int) -> PostgresRow {
        precondition(index >= 0 && index < count, "row \(index) out of range 0..<\(count)")
        return PostgresRow(result: self, index: Int32(index))
    }

    /// All rows, in order.
    public var rows: [PostgresRow] { (0..<count).map { self[$0] } }

    func column(named name: String) -> Int32? {
        let index = PQfnumber(handle, name)
        return index < 0 ? nil : index
    }

    func text(row: Int32, column: Int32) -> String? {
        if PQgetisnull(handle, row, column) != 0 { return nil }
        return String(cString: PQgetvalue(handle, row, column))
    }
}

/// One row of a ``PostgresResult``, read by column name or position.
public struct PostgresRow: Sendable {
    let result: PostgresResult
    let index: Int32

    /// The text of a column, or `nil` for NULL. Throws when the column does not exist.
    public func text(_ column: String) throws(PostgresError) -> String? {
        guard let position = result.column(named: column) else {
            throw PostgresError(kind: .decoding, message: "no column \"\(column)\" in the result")
        }
        return result.text(row: index, column: position)
    }

    /// The text of the column at `position`, or `nil` for NULL.
    public func text(at position: Int) -> String? {
        result.text(row: index, column: Int32(position))
    }

    /// A non-NULL text column.
    public func string(_ column: String) throws(PostgresError) -> String {
        try required(column, text(column))
    }

    /// A non-NULL integer column.
    public func int(_ column: String) throws(PostgresError) -> Int {
        let value = try string(column)
        guard let number = Int(value) else { throw mismatch(column, value, "an integer") }
        return number
    }

    /// An integer column that may be NULL.
    public func optionalInt(_ column: String) throws(PostgresError) -> Int? {
        guard let value = try text(column) else { return nil }
        guard let number = Int(value) else { throw mismatch(column, value, "an integer") }
        return number
    }

    /// A non-NULL boolean column.
    public func bool(_ column: String) throws(PostgresError) -> Bool {
        let value = try string(column)
        switch value {
        case "t": return true
        case "f": return false
        default: throw mismatch(column, value, "a boolean")
        }
    }

    /// A non-NULL text column holding one of the raw values of `T`.
    public func value<T: RawRepresentable<String>>(_ column: String, as type: T.Type = T.self) throws(PostgresError)
        -> T
    {
        let text = try string(column)
        guard let value = T(rawValue: text) else { throw mismatch(column, text, "a \(T.self)") }
        return value
    }

    /// A text column read as a `RawRepresentable` value; `nil` when NULL.
    public func optionalValue<T: RawRepresentable<String>>(_ column: String, as type: T.Type = T.self)
        throws(PostgresError) -> T?
    {
        guard try text(column) != nil else { return nil }
        return try value(column, as: type)
    }

    /// A non-NULL `timestamptz` column.
    public func date(_ column: String) throws(PostgresError) -> Date {
        let value = try string(column)
        guard let date = PostgresTimestamp.parse(value) else { throw mismatch(column, value, "a timestamp") }
        return date
    }

    private func required(_ column: String, _ value: String?) throws(PostgresError) -> String {
        guard let value else {
            throw PostgresError(kind: .decoding, message: "column \"\(column)\" is NULL")
        }
        return value
    }

    private func mismatch(_ column: String, _ value: String, _ expected: String) -> PostgresError {
        PostgresError(kind: .decoding, message: "column \"\(column)\" holds \"\(value.prefix(40))\", not \(expected)")
    }
}
