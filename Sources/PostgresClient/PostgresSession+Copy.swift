import CLibPQ

extension PostgresSession {
    /// Runs `COPY … FROM STDIN` and streams `data` (in the format the statement names) to the server.
    ///
    /// - Returns: the number of rows copied.
    /// - Throws: ``PostgresError`` when the statement or the data is refused; nothing is copied then.
    @discardableResult
    public func copyIn(_ sql: String, data: String) throws(PostgresError) -> Int {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        guard let start = PQexec(handle, sql) else {
            throw PostgresError.from(result: nil, connection: handle, statement: sql)
        }
        // Owns the COPY-start result: cleared once, when this function returns.
        let owner = PostgresResult(start, counter: results)
        defer { withExtendedLifetime(owner) {} }
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            throw PostgresError.from(result: start, connection: handle, statement: sql)
        }
        var failure: PostgresError?
        var bytes = Array(data.utf8)
        if !bytes.isEmpty {
            let sent = bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            if sent != 1 { failure = connectionError(sql) }
        }
        if PQputCopyEnd(handle, nil) != 1, failure == nil { failure = connectionError(sql) }
        // Drain every result: the COPY's own, and NULL at the end.
        var rows = 0
        while let raw = PQgetResult(handle) {
            let result = PostgresResult(raw, counter: results)
            if PQresultStatus(raw) == PGRES_COMMAND_OK {
                rows = result.affectedRows
            } else if failure == nil {
                failure = PostgresError.from(result: raw, connection: handle, statement: sql)
            }
        }
        if let failure { throw failure }
        return rows
    }

    private func connectionError(_ sql: String) -> PostgresError {
        PostgresError.from(result: nil, connection: handle, statement: sql)
    }
}

/// Escapes a value for PostgreSQL's COPY text format (tab-separated, `\N` for NULL).
public func copyTextField(_ value: String?) -> String {
    guard let value else { return "\\N" }
    var out = ""
    out.reserveCapacity(value.utf8.count)
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\t": out += "\\t"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
