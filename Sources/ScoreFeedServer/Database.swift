import Logging
import PostgresClient
import ScoreStore
import ServiceLifecycle
import Synchronization

/// The server's database: opened and migrated by ``DatabaseService`` when the service group
/// starts, closed when it ends. Everything else asks for it and waits until it is ready.
public actor Database {
    private enum State {
        case starting([CheckedContinuation<Ready, any Error>])
        case ready(Ready)
        case failed(any Error)
    }

    struct Ready: Sendable {
        /// The primary: every write, and reads that must see the newest commit.
        let pool: ConnectionPool
        /// The read API's, the page's and the stream's catch-up: a streaming replica when
        /// `SCOREFEED_READ_DATABASE_URL` is set, else the primary's pool.
        let reads: ConnectionPool
        /// Whether ``reads`` is a replica.
        var hasReplica: Bool { reads !== pool }
    }

    /// The write path, on a connection of its own (appends are serialised by the log anyway).
    private var currentIngestor: Ingestor?

    public let url: String
    /// A streaming replica for reads (`nil`: the primary serves them).
    public let readURL: String?
    let connections: Int
    private var state = State.starting([])

    public init(url: String, readURL: String? = nil, connections: Int) {
        self.url = url
        self.readURL = readURL
        self.connections = connections
    }

    /// Waits until the database is open and migrated.
    func ready() async throws -> Ready {
        switch state {
        case .ready(let ready): return ready
        case .failed(let error): throw error
        case .starting(let waiting):
            return try await withCheckedThrowingContinuation { continuation in
                state = .starting(waiting + [continuation])
            }
        }
    }

    var isReady: Bool {
        if case .ready = state { return true }
        return false
    }

    func open(logger: Logger) async throws {
        do {
            let pool = try await ConnectionPool.open(url, count: connections + 1)
            try await Migrator().migrate(pool.next, logger: logger)
            currentIngestor = Ingestor(connection: try await PostgresConnection.connect(url))
            var reads = pool
            if let readURL { reads = try await ConnectionPool.open(readURL, count: connections) }
            resolve(.success(Ready(pool: pool, reads: reads)))
        } catch {
            resolve(.failure(error))
            throw error
        }
    }

    private func resolve(_ result: Result<Ready, any Error>) {
        guard case .starting(let waiting) = state else { return }
        switch result {
        case .success(let ready): state = .ready(ready)
        case .failure(let error): state = .failed(error)
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
        guard case .ready(let ready) = state else { return }
        await ready.pool.close()
        if ready.hasReplica { await ready.reads.close() }
        await currentIngestor?.connection.close()
        currentIngestor = nil
        state = .failed(PostgresError(kind: .connection, message: "the server is shutting down"))
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
