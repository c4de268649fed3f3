import CLibPQ

/// One statement of a ``PostgresSession/pipeline(_:)``.
public struct PipelinedStatement: Sendable {
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
    /// Safe in blocking mode: while libpq waits to send, it reads what the server answers meanwhile.
    /// - Returns: one result per statement, in order.
    /// - Throws: the first failing statement's ``PostgresError`` (nothing is committed).
    public func pipeline(_ statements: [PipelinedStatement]) throws(PostgresError) -> [PostgresResult] {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        // Statements to prepare are prepared before the pipeline, the first time (a one-off round trip).
        var names: [String?] = []
        for statement in statements {
            names.append(statement.prepared ? try preparedName(statement.sql, statement.parameters) : nil)
        }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError.from(result: nil, connection: handle, statement: statements.first?.sql ?? "")
        }
        defer { PQexitPipelineMode(handle) }
        try send(statements, names: names)
        return try readAnswers(statements).get()
    }

    /// Sends one transaction's statements and its sync point.
    private func send(_ statements: [PipelinedStatement], names: [String?]) throws(PostgresError) {
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
    }

    /// Reads one transaction's answers up to its sync point, even after an error, so what follows in
    /// the pipeline starts clean.
    /// - Throws: only when the connection gives no answer (it is lost).
    private func readAnswers(_ statements: [PipelinedStatement]) throws(PostgresError)
        -> Result<[PostgresResult], PostgresError>
    {
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
        return failure.map { .failure($0) } ?? .success(results)
    }

    /// Reads and drops what is left of a pipeline up to its next sync point (or until nothing more
    /// comes, when the connection is lost), so the connection can leave pipeline mode.
    func drainPipeline() {
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
