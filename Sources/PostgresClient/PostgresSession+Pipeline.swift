import CLibPQ

/// One statement of a ``PostgresSession/pipeline(_:)``.
public struct PipelinedStatement {
    public var sql: String
    public var parameters: [any PostgresEncodable]
    /// Run through a statement prepared on the connection (as ``PostgresSession/queryPrepared(_:_:)``).
    public var prepared: Bool

    public init(_ sql: String, _ parameters: [any PostgresEncodable] = [], prepared: Bool = false) {
        self.sql = sql
        self.parameters = parameters
        self.prepared = prepared
    }
}

extension PostgresSession {
    /// Sends the statements in one round trip (libpq's pipeline mode) and runs them as one implicit
    /// transaction: all of them commit together when the last one succeeds, or none does. Must be
    /// called outside a transaction.
    ///
    /// Safe in blocking mode as long as only the last statement returns many rows: the server's
    /// answers to the earlier ones are small, so it never waits on us while we still send.
    /// - Returns: one result per statement, in order.
    /// - Throws: the first failing statement's ``PostgresError`` (nothing is committed).
    public func pipeline(_ statements: [PipelinedStatement]) throws(PostgresError) -> [PostgresResult] {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        // A statement is prepared before the pipeline the first time (a one-off round trip).
        var names: [String?] = []
        for statement in statements {
            names.append(statement.prepared ? try preparedName(statement.sql, statement.parameters) : nil)
        }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError.from(result: nil, connection: handle, statement: statements.first?.sql ?? "")
        }
        defer { PQexitPipelineMode(handle) }
        for (statement, name) in zip(statements, names) {
            let sent = Self.withParameters(statement.parameters) { count, types, values, lengths, formats in
                if let name {
                    PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0)
                } else {
                    PQsendQueryParams(handle, statement.sql, count, types, values, lengths, formats, 0)
                }
            }
            guard sent == 1 else {
                let error = PostgresError.from(result: nil, connection: handle, statement: statement.sql)
                _ = PQpipelineSync(handle)
                drainPipeline()
                throw error
            }
        }
        guard PQpipelineSync(handle) == 1 else {
            let error = PostgresError.from(result: nil, connection: handle, statement: statements.last?.sql ?? "")
            drainPipeline()
            throw error
        }
        // Every statement's result is read, then the sync's, even after an error: the pipeline is
        // left empty for the next caller.
        var results: [PostgresResult] = []
        var failure: PostgresError?
        for statement in statements {
            guard let raw = PQgetResult(handle) else {
                let error = PostgresError.from(result: nil, connection: handle, statement: statement.sql)
                drainPipeline()
                throw error
            }
            while let extra = PQgetResult(handle) { PQclear(extra) }
            switch PQresultStatus(raw) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                results.append(PostgresResult(raw, counter: self.results))
            case PGRES_PIPELINE_ABORTED:
                PQclear(raw)
            default:
                if failure == nil {
                    failure = PostgresError.from(result: raw, connection: handle, statement: statement.sql)
                }
                PQclear(raw)
            }
        }
        drainPipeline()
        if let failure { throw failure }
        return results
    }

    /// Reads and drops what is left of a pipeline up to its sync point (or until nothing more comes,
    /// when the connection is lost), so the connection can leave pipeline mode.
    private func drainPipeline() {
        var empty = 0
        while empty < 2 {
            guard let raw = PQgetResult(handle) else {
                // One NULL ends a statement's results; two in a row: nothing more is on its way.
                empty += PQstatus(handle) == CONNECTION_BAD ? 2 : 1
                continue
            }
            empty = 0
            let status = PQresultStatus(raw)
            PQclear(raw)
            if status == PGRES_PIPELINE_SYNC { return }
        }
    }
}
