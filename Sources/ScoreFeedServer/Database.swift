import Logging
import PostgresClient
import ScoreStore
import ServiceLifecycle
import Synchronization

/// The server's database: opened and migrated by ``DatabaseService`` when the service group
/// starts, closed when it ends. Everything else asks for it and waits until it is ready.
public actor Database {
    struct Ready: Sendable {
        /// The primary: every write, and reads that must see the newest commit.
        let pool: ConnectionPool
        /// The read API's, the page's and the stream's catch-up: a streaming replica when
        /// `SCOREFEED_READ_DATABASE_URL` is set, else the primary's pool.
        let reads: ConnectionPool
        /// Whether ``reads`` is a replica.
        var hasReplica: Bool { reads !== pool }
    }

    /// Whether the database is open (or why it cannot be), and who waits for it to be.
    private struct Gate {
        var outcome: Result<Ready, any Error>?
        var waiters: [UInt64: CheckedContinuation<Ready, any Error>] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// The write path, on a connection of its own (appends are serialised by the log anyway).
    private var currentIngestor: Ingestor?

    public let url: String
    /// A streaming replica for reads (`nil`: the primary serves them).
    public let readURL: String?
    let connections: Int
    private let gate = Mutex(Gate())

    public init(url: String, readURL: String? = nil, connections: Int) {
        self.url = url
        self.readURL = readURL
        self.connections = connections
    }

    /// Waits until the database is open and migrated; a cancelled caller stops waiting (CancellationError),
    /// so a service group can always shut down, even while the database is still being opened.
    nonisolated func ready() async throws -> Ready {
        if let outcome = gate.withLock({ $0.outcome }) { return try outcome.get() }
        let id = gate.withLock { gate in
            gate.nextWaiter += 1
            return gate.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now: Result<Ready, any Error>? = gate.withLock { gate in
                    if let outcome = gate.outcome { return outcome }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    gate.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            gate.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    nonisolated var isReady: Bool {
        gate.withLock { gate in
            if case .success = gate.outcome { true } else { false }
        }
    }

    /// Opens the pools and migrates. A cancelled task (a group shutting down while the database is
    /// still being opened, or a migration waiting on another node's) stops it at once.
    func open(logger: Logger) async throws {
        var opened: [ConnectionPool] = []
        do {
            let pool = try await ConnectionPool.open(url, count: connections + 1)
            opened.append(pool)
            try await Migrator().migrate(pool.next, logger: logger)
            try Task.checkCancellation()
            currentIngestor = Ingestor(connection: try await PostgresConnection.connect(url))
            var reads = pool
            if let readURL {
                reads = try await ConnectionPool.open(readURL, count: connections)
                opened.append(reads)
            }
            resolve(.success(Ready(pool: pool, reads: reads)))
        } catch {
            for pool in opened { await pool.close() }
            await currentIngestor?.connection.close()
            currentIngestor = nil
            resolve(.failure(error))
            throw error
        }
    }

    /// Settles the outcome (once) and hands it to every waiter.
    private func resolve(_ result: Result<Ready, any Error>) {
        let waiting = gate.withLock { gate -> [CheckedContinuation<Ready, any Error>] in
            guard gate.outcome == nil else { return [] }
            gate.outcome = result
            defer { gate.waiters = [:] }
            return Array(gate.waiters.values)
        }
        for continuation in waiting { continuation.resume(with: result) }
    }

    /// The ingestor, once the database is ready.
    func ingestor() async throws -> Ingestor {
        _ = try await ready()
        if let currentIngestor { return currentIngestor }
        let fresh = Ingestor(connection: try await PostgresConnection.connect(url))
        currentIngestor = fresh
        return fresh
    }

    /// Drops an ingestor whose connection was lost: the next request gets a new one.
    func ingestorLost(_ lost: Ingestor) async {
        guard currentIngestor === lost else { return }
        currentIngestor = nil
        await lost.connection.close()
    }

    func close() async {
        let closing = PostgresError(kind: .connection, message: "the server is shutting down")
        let opened = gate.withLock { try? $0.outcome?.get() }
        resolve(.failure(closing))  // anyone still waiting for the open gets the error
        gate.withLock { $0.outcome = .failure(closing) }
        guard let ready = opened else { return }
        await ready.pool.close()
        if ready.hasReplica { await ready.reads.close() }
        await currentIngestor?.connection.close()
        currentIngestor = nil
    }
}

/// Opens and migrates the database first, closes it last (it is the first service of the group,
/// so it is shut down after all the others).
struct DatabaseService: Service {
    let database: Database
    let logger: Logger

    func run() async throws {
        try await database.open(logger: logger)
        logger.info("database ready")
        try? await gracefulShutdown()
        await database.close()
    }
}
