import CLibPQ
import Glibc

/// Wakes a connection's thread that waits for a chained transaction's answer
/// (``PostgresSession/readChained(_:or:)``): a pipe it polls beside the connection's socket.
public final class ChainWakeup: Sendable {
    private let reading: Int32
    private let writing: Int32

    public init() throws(PostgresError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw PostgresError(kind: .connection, message: "could not create a wakeup pipe (errno \(errno))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (reading, writing) = (ends[0], ends[1])
    }

    deinit {
        Glibc.close(reading)
        Glibc.close(writing)
    }

    /// Wakes the waiting thread (or the next wait, when none waits now). Safe from any thread.
    public func signal() {
        var byte: UInt8 = 1
        _ = Glibc.write(writing, &byte, 1)
    }

    var descriptor: Int32 { reading }

    func drain() {
        var bytes = (UInt64(0), UInt64(0))
        while Glibc.read(reading, &bytes, MemoryLayout.size(ofValue: bytes)) > 0 {}
    }
}

/// What has arrived so far of one chained transaction's answer (``PostgresSession/readChained(_:or:)``).
public struct ChainedAnswer: Sendable {
    /// Statements answered so far, of `BEGIN`, the transaction's own and `COMMIT`.
    var answered = 0
    /// The closing transaction's sync point has been read.
    var synced = false
    var results: [PostgresResult] = []
    var failure: PostgresError?
    /// Between a statement's result and the end of its results (libpq's `NULL`).
    var inStatement = false
    let statements: [String]
    /// The transaction was sent with the sync point that ends the chain.
    let closing: Bool

    /// - Parameter closing: as the transaction was sent (``PostgresSession/sendChained(_:closing:)``).
    public init(_ statements: [PipelinedStatement], closing: Bool = false) {
        self.statements = statements.map(\.sql)
        self.closing = closing
    }
}

/// Transactions chained on one connection: each is sent (`BEGIN`, its statements, `COMMIT`) as soon
/// as it is built, without waiting for the answers of those before it, and without a sync point
/// between them. So the server starts transaction *k + 1* the moment *k* commits, and when *k*
/// fails, the server skips everything sent after it, up to the sync point that ends the chain: a
/// transaction runs only when every one before it committed (PostgreSQL's pipeline mode with
/// several explicit transactions). The transactions are sent and their answers read in separate
/// calls, so a caller can build the next one while the server runs the last; all on the
/// connection's own queue, and no other statement runs on the connection between
/// ``openChain(preparing:)`` and ``closeChain()``.
extension PostgresSession {
    static let chainBegin = PipelinedStatement("BEGIN", prepared: true)
    static let chainCommit = PipelinedStatement("COMMIT", prepared: true)

    /// Starts a chain. The statements given (and `BEGIN`, `COMMIT`) are prepared first, the first
    /// time each is seen on the connection (a round trip each); a statement not prepared when it is
    /// sent in the chain is sent unnamed.
    public func openChain(preparing statements: [PipelinedStatement]) throws(PostgresError) {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        for statement in [Self.chainBegin, Self.chainCommit] + statements where statement.prepared {
            _ = try preparedName(statement.sql, statement.parameters)
        }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError.from(result: nil, connection: handle, statement: "BEGIN")
        }
    }

    /// Sends one transaction of the chain, and asks the server to send its answers without waiting
    /// for a sync point; or, `closing`, with the sync point that ends the chain (no transaction is
    /// sent behind it, and reading its answer leaves the chain: one round trip for a lone transaction).
    /// - Throws: when the connection fails; the chain must then be closed.
    public func sendChained(_ statements: [PipelinedStatement], closing: Bool = false) throws(PostgresError) {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        for statement in [Self.chainBegin] + statements + [Self.chainCommit] {
            let name = statement.prepared ? prepared.name(of: statement.sql) : nil
            let sent = Self.withParameters(statement.parameters) { count, types, values, lengths, formats in
                if let name {
                    PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0)
                } else {
                    PQsendQueryParams(handle, statement.sql, count, types, values, lengths, formats, 0)
                }
            }
            guard sent == 1 else { throw PostgresError.from(result: nil, connection: handle, statement: statement.sql) }
        }
        guard closing ? PQpipelineSync(handle) == 1 : PQsendFlushRequest(handle) == 1 && PQflush(handle) == 0 else {
            throw PostgresError.from(result: nil, connection: handle, statement: "COMMIT")
        }
    }

    /// Reads the oldest unanswered transaction of the chain, as far as its answer has arrived,
    /// without blocking: it waits for the server, or returns `nil` as soon as `wakeup` (if any) is
    /// signalled (what arrived is kept in `answer`; call again to go on). A transaction sent
    /// `closing` is read up to its sync point, and the connection leaves the chain
    /// (``closeChain()``).
    /// - Returns: the transaction's results (its own statements'), or the error of its first failing
    ///   statement; a transaction skipped because one before it failed reads as that failure's
    ///   ``PostgresError`` with SQLSTATE ``chainSkipped``.
    /// - Throws: when the connection fails; the chain must then be closed.
    public func readChained(_ answer: inout ChainedAnswer, or wakeup: ChainWakeup?) throws(PostgresError)
        -> Result<[PostgresResult], PostgresError>?
    {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        while answer.answered < answer.statements.count + 2 || (answer.closing && !answer.synced) {
            guard PQisBusy(handle) == 0 else {
                var fds = [
                    pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wakeup?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
                ]
                guard poll(&fds, 2, -1) >= 0 || errno == EINTR else {
                    throw PostgresError(kind: .connection, message: "poll failed (errno \(errno))")
                }
                if fds[0].revents != 0, PQconsumeInput(handle) == 0 {
                    throw PostgresError.from(result: nil, connection: handle, statement: "COMMIT")
                }
                if fds[1].revents != 0 {
                    wakeup?.drain()
                    if PQisBusy(handle) != 0 { return nil }
                }
                continue
            }
            let index = answer.answered
            let statement =
                index == 0 ? "BEGIN" : index <= answer.statements.count ? answer.statements[index - 1] : "COMMIT"
            guard let raw = PQgetResult(handle) else {
                guard answer.inStatement else {
                    throw PostgresError.from(result: nil, connection: handle, statement: statement)
                }
                answer.inStatement = false
                answer.answered += 1
                continue
            }
            if PQresultStatus(raw) == PGRES_PIPELINE_SYNC {
                // A closing transaction's sync point: the chain's end.
                PQclear(raw)
                answer.synced = true
                continue
            }
            answer.inStatement = true
            switch PQresultStatus(raw) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                if index >= 1 && index <= answer.statements.count {
                    answer.results.append(PostgresResult(raw, counter: results))
                } else {
                    PQclear(raw)
                }
            case PGRES_PIPELINE_ABORTED:
                PQclear(raw)
                if answer.failure == nil {
                    answer.failure = PostgresError(
                        kind: .query, sqlState: Self.chainSkipped,
                        message: "skipped: a transaction before it in the chain failed", statement: statement)
                }
            default:
                if answer.failure == nil {
                    answer.failure = PostgresError.from(result: raw, connection: handle, statement: statement)
                }
                PQclear(raw)
            }
        }
        if answer.closing { leaveChain() }
        return answer.failure.map { .failure($0) } ?? .success(answer.results)
    }

    /// The SQLSTATE given to a chained transaction the server skipped because one before it failed
    /// (not one of PostgreSQL's).
    public static let chainSkipped = "SF000"

    /// Ends the chain: a sync point, whatever is left unread of it dropped (call it once every
    /// transaction sent was read, or after a failure), the failed transaction (if any) rolled back,
    /// and the connection out of pipeline mode.
    public func closeChain() {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        guard PQpipelineStatus(handle) != PQ_PIPELINE_OFF else { return }
        if PQpipelineSync(handle) == 1 {
            drainPipeline()
        }
        leaveChain()
    }

    /// Leaves pipeline mode after the chain's sync point, rolling back the failed transaction, if any.
    private func leaveChain() {
        PQexitPipelineMode(handle)
        if PQtransactionStatus(handle) == PQTRANS_INERROR {
            try? execute(script: "ROLLBACK")
        }
    }
}
