import CLibPQ
import Foundation

/// Synchronous access to a connection, valid only inside ``PostgresConnection/withSession(_:)``.
///
/// Every call blocks the connection's own thread, never the cooperative pool.
public struct PostgresSession {
    let handle: OpaquePointer
    let results: ResultCounter

    /// Runs one statement with `$n` parameters sent separately from the SQL text.
    ///
    /// - Throws: ``PostgresError`` with the SQLSTATE, message and statement.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws(PostgresError)
        -> PostgresResult
    {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        let texts = parameters.map { $0.postgresText }
        let copies: [UnsafeMutablePointer<CChar>?] = texts.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let raw = copies.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                    PQexecParams(handle, sql, Int32(buffer.count), nil, $0, nil, nil, 0)
                }
            } ?? PQexecParams(handle, sql, 0, nil, nil, nil, nil, 0)
        }
        return try check(raw, statement: sql)
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

    private func check(_ raw: OpaquePointer?, statement: String) throws(PostgresError) -> PostgresResult {
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
