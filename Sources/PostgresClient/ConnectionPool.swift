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

    /// Opens `count` connections to `url` (a cancelled task stops opening them).
    public static func open(_ url: String, count: Int) async throws -> ConnectionPool {
        var connections: [PostgresConnection] = []
        do {
            for _ in 0..<max(1, count) {
                try Task.checkCancellation()
                connections.append(try await PostgresConnection.connect(url))
            }
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
    public var next: PostgresConnection { pick().1 }

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
    public func backendPIDs() async throws -> [Int] {
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

/// Runs work in a transaction: a single connection or a pool (code that serves both takes this).
public protocol PostgresTransactor: Sendable {
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T
}

extension ConnectionPool: PostgresTransactor {}
extension PostgresConnection: PostgresTransactor {}
