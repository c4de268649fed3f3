import CLibPQ
import Foundation

/// Synchronous access to a connection, valid only inside ``PostgresConnection/withSession(_:)``.
///
/// Every call blocks the connection's own thread, never the cooperative pool.
public struct PostgresSession {
    let handle: OpaquePointer
    let results: ResultCounter
    let prepared: PreparedStatements

    /// Runs one statement with `$n` parameters sent separately from the SQL text, each in its own
    /// format (``PostgresParameter``).
    ///
    /// - Throws: ``PostgresError`` with the SQLSTATE, message and statement.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws(PostgresError)
        -> PostgresResult
    {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        let raw = Self.withParameters(parameters) { count, types, values, lengths, formats in
            PQexecParams(handle, sql, count, types, values, lengths, formats, 0)
        }
        return try check(raw, statement: sql)
    }

    /// ``query(_:_:)`` through a statement prepared on this connection the first time it runs here:
    /// later runs skip the server's parsing and planning. For statements a connection runs again and
    /// again (the log's append). The parameters' formats and binary types must be the same each time.
    ///
    /// - Throws: ``PostgresError`` with the SQLSTATE, message and statement (a statement the server
    ///   refuses to prepare is not kept).
    @discardableResult
    public func queryPrepared(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws(PostgresError)
        -> PostgresResult
    {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        let name = try preparedName(sql, parameters)
        let raw = Self.withParameters(parameters) { count, _, values, lengths, formats in
            PQexecPrepared(handle, name, count, values, lengths, formats, 0)
        }
        return try check(raw, statement: sql)
    }

    /// The name of `sql` prepared on this connection, preparing it the first time (a round trip).
    func preparedName(_ sql: String, _ parameters: [any PostgresEncodable]) throws(PostgresError) -> String {
        if let known = prepared.name(of: sql) { return known }
        let name = prepared.nextName
        let raw = Self.withParameters(parameters) { count, types, _, _, _ in
            PQprepare(handle, name, sql, count, types)
        }
        _ = try check(raw, statement: sql)
        prepared.add(sql, as: name)
        return name
    }

    /// Calls `body` with libpq's parameter arrays (count, type OIDs, values, lengths, formats), valid
    /// during the call. Types, lengths and formats only matter for binary parameters (text: 0, ignored, 0).
    static func withParameters<R>(
        _ parameters: [any PostgresEncodable],
        _ body: (
            Int32, UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?
        ) -> R
    ) -> R {
        var copies: [UnsafeMutablePointer<CChar>?] = []
        copies.reserveCapacity(parameters.count)
        defer { copies.forEach { free($0) } }
        var types = [UInt32](repeating: 0, count: parameters.count)
        var lengths = [Int32](repeating: 0, count: parameters.count)
        var formats = [Int32](repeating: 0, count: parameters.count)
        for (index, parameter) in parameters.enumerated() {
            switch parameter.postgresParameter {
            case .null:
                copies.append(nil)
            case .text(let text):
                copies.append(strdup(text))
            case .binary(let oid, let bytes):
                let copy = malloc(max(bytes.count, 1))!
                bytes.withUnsafeBytes { raw in _ = raw.baseAddress.map { memcpy(copy, $0, raw.count) } }
                copies.append(copy.assumingMemoryBound(to: CChar.self))
                (types[index], lengths[index], formats[index]) = (oid, Int32(bytes.count), 1)
            }
        }
        guard !parameters.isEmpty else { return body(0, nil, nil, nil, nil) }
        return copies.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                body(Int32(buffer.count), types, $0, lengths, formats)
            }
        }
    }

    /// Runs a script of one or more statements through the simple query protocol.
    public func execute(script: String) throws(PostgresError) {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        _ = try check(PQexec(handle, script), statement: script)
    }

    /// Runs `body` inside `BEGIN` … `COMMIT`; any error rolls the transaction back and is rethrown.
    public func transaction<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        try transaction(beginning: nil, body)
    }

    /// Runs `body` inside `BEGIN` … `COMMIT`; `script` (SQL without parameters) runs in the same
    /// round trip as `BEGIN`, e.g. taking a lock. Rolls back when anything throws.
    public func transaction<T>(beginning script: String?, _ body: (PostgresSession) throws -> T) throws -> T {
        do {
            try execute(script: script.map { "BEGIN; " + $0 } ?? "BEGIN")
        } catch {
            try? execute(script: "ROLLBACK")
            throw error
        }
        let value: T
        do {
            value = try body(self)
        } catch {
            try? execute(script: "ROLLBACK")
            throw error
        }
        try execute(script: "COMMIT")
        return value
    }

    func check(_ raw: OpaquePointer?, statement: String) throws(PostgresError) -> PostgresResult {
        guard let raw else {
            // libpq returns NULL only when out of memory or the connection is gone.
            throw PostgresError.from(result: nil, connection: handle, statement: statement)
        }
        let result = PostgresResult(raw, counter: results)
        switch PQresultStatus(raw) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return result
        default:
            throw PostgresError.from(result: raw, connection: handle, statement: statement)
        }
    }
}
