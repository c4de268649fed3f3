import CLibPQ

/// The one error type of the libpq wrapper.
///
/// It carries the SQLSTATE (`23505` for a unique violation), the server's message and the statement
/// that failed. Connection strings never appear in it, so passwords cannot leak into logs.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: String, Sendable {
        /// Could not connect, or the connection was lost.
        case connection
        /// The server rejected a statement.
        case query
        /// The connection was already closed by this process.
        case closed
        /// A value in a result did not have the expected type.
        case decoding
    }

    public var kind: Kind
    /// Five-character SQLSTATE code, when the server sent one.
    public var sqlState: String?
    /// The primary message (libpq's or the server's).
    public var message: String
    /// The server's DETAIL field, if any.
    public var detail: String?
    /// The constraint that was violated, if any (tells a duplicate from a version conflict).
    public var constraint: String?
    /// The statement that failed, if any.
    public var statement: String?

    public init(
        kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil,
        constraint: String? = nil, statement: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
        self.statement = statement
    }

    /// `true` for SQLSTATE 23505.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    public var description: String {
        var text = "PostgreSQL \(kind.rawValue) error"
        if let sqlState { text += " [\(sqlState)]" }
        text += ": \(message)"
        if let detail { text += " (\(detail))" }
        if let statement {
            let oneLine = statement.split(whereSeparator: \.isNewline).joined(separator: " ")
            text += " in statement: \(oneLine.prefix(200))"
        }
        return text
    }

    /// Builds an error from a failed result, reading the diagnostic fields in one place.
    static func from(result: OpaquePointer?, connection: OpaquePointer?, statement: String?) -> PostgresError {
        func field(_ code: Int32) -> String? {
            guard let result, let value = PQresultErrorField(result, code) else { return nil }
            return String(cString: value)
        }
        let sqlState = field(Int32(UInt8(ascii: "C")))  // PG_DIAG_SQLSTATE
        // Lost: libpq says so, or (before it notices) the server is going away (57P01-57P03: shutdown,
        // crash, cannot connect now), the link broke (class 08 but a protocol violation), or libpq
        // itself failed the statement without a server answer ("server closed the connection
        // unexpectedly"): a server always sends a SQLSTATE.
        let lost =
            (connection.map { PQstatus($0) == CONNECTION_BAD } ?? true) || sqlState == nil
            || (sqlState?.hasPrefix("08") == true && sqlState != "08P01") || sqlState?.hasPrefix("57P") == true
        let primary = field(Int32(UInt8(ascii: "M")))  // PG_DIAG_MESSAGE_PRIMARY
        let fallback = connection.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "unknown error"
        return PostgresError(
            kind: lost ? .connection : .query,
            sqlState: sqlState,
            message: (primary ?? fallback).trimmingWhitespace(),
            detail: field(Int32(UInt8(ascii: "D"))),  // PG_DIAG_MESSAGE_DETAIL
            constraint: field(Int32(UInt8(ascii: "n"))),  // PG_DIAG_CONSTRAINT_NAME
            statement: statement
        )
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var view = Substring(self)
        while let last = view.last, last.isWhitespace { view = view.dropLast() }
        while let first = view.first, first.isWhitespace { view = view.dropFirst() }
        return String(view)
    }
}
