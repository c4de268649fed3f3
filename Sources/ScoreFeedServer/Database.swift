import Logging
import PostgresClient
import ScoreStore
import ServiceLifecycle
import Synchronization

/// A fixed set of connections shared by the HTTP handlers. Each connection runs its work in order
/// on its own queue (off the cooperative pool), so handing them out in turn is safe; a
/// transaction holds its connection until it ends. A connection that is lost (the database
/// restarted, a network cut) is replaced: the request that met the loss fails (503), the next
/// ones get a new connection.
public final class ConnectionPool: Sendable {
    private let url: String
    private let slots: Mutex<[PostgresConnection]>
    private let turn = Atomic<Int>(0)

    private init(url: String, connections: [PostgresConnection]) {
        self.url = url
        self.slots = Mutex(connections)
    }

    /// Opens `count` connections to `url`.
    public static func open(_ url: String, count: Int) async throws -> ConnectionPool {
        var connections: [PostgresConnection] = []
        do {
            for _ in 0..<max(1, count) { connections.append(try await PostgresConnection.connect(url)) }
        } catch {
            for connection in connections { await connection.close() }
            throw error
        }
        return ConnectionPool(url: url, connections: connections)
    }

    /// The next connection in turn, and its slot.
    private func pick() -> (Int, PostgresConnection) {
        slots.withLock { slots in
            let index = (turn.wrappingAdd(1, ordering: .relaxed).newValue & Int.max) % slots.count
            return (index, slots[index])
        }
    }

    /// The next connection in turn (for work that must see one connection, such as migrations).
    var next: PostgresConnection { pick().1 }

    /// Runs `body` with a session on the next connection.
    public func withSession<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        let (index, connection) = pick()
        do {
            return try await connection.withSession(body)
        } catch let error as PostgresError where error.kind == .connection {
            await replace(index, connection)
            throw error
        }
    }

    /// Runs `body` in a transaction on the next connection.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        try await withSession { try $0.transaction(body) }
    }

    /// Puts a new connection in the slot of a lost one (when the database answers again).
    private func replace(_ index: Int, _ lost: PostgresConnection) async {
        guard let fresh = try? await PostgresConnection.connect(url) else { return }
        let replaced = slots.withLock { slots in
            guard slots[index] === lost else { return false }
            slots[index] = fresh
            return true
        }
        await (replaced ? lost : fresh).close()
    }

    /// The backend process ids of the connections (for tests that cut them).
    func backendPIDs() async throws -> [Int] {
        var pids: [Int] = []
        for connection in slots.withLock({ $0 }) {
            pids.append(try await connection.withSession { $0.backendPID })
        }
        return pids
    }

    public func close() async {
        for connection in slots.withLock({ $0 }) { await connection.close() }
    }
}

/// The server's database: opened and migrated by ``DatabaseService`` when the service group
/// starts, closed when it ends. Everything else asks for it and waits until it is ready.
public actor Database {
    private enum State {
        case starting([CheckedContinuation<Ready, any Error>])
        case ready(Ready)
        case failed(any Error)
    }

    struct Ready: Sendable {
        let pool: ConnectionPool
    }

    /// The write path, on a connection of its own (appends are serialised by the log anyway).
    private var currentIngestor: Ingestor?

    public let url: String
    let connections: Int
    private var state = State.starting([])

    public init(url: String, connections: Int) {
        self.url = url
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
            resolve(.success(Ready(pool: pool)))
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
