import CLibPQ
import Dispatch
import Foundation

/// One libpq connection, driven from its own serial dispatch queue.
///
/// libpq calls block, so none of them runs on Swift's cooperative thread pool: every call hops to
/// the connection's queue and the awaiting task is resumed when it is done. Work that needs several
/// statements (a transaction) runs as one closure on that queue through ``withSession(_:)``, so two
/// tasks sharing a connection can never interleave inside a transaction.
public final class PostgresConnection: @unchecked Sendable {
    // `handle` is only read or written on `queue` (or in `deinit`, when nobody else holds `self`).
    private var handle: OpaquePointer?
    private let queue: DispatchQueue
    /// The results of this connection that are still alive (each is cleared exactly once).
    public let results: ResultCounter
    private let prepared = PreparedStatements()
    /// Stops the running statement from another thread (``withCancellableSession(_:)``).
    let canceller: StatementCanceller

    private init(handle: OpaquePointer, queue: DispatchQueue, results: ResultCounter) {
        self.handle = handle
        self.queue = queue
        self.results = results
        self.canceller = StatementCanceller(handle: handle)
    }

    deinit {
        canceller.close()
        if let handle { PQfinish(handle) }
    }

    /// Opens a connection.
    ///
    /// - Parameter target: a `postgresql://` URL or a `key=value` conninfo string.
    /// - Throws: ``PostgresError`` of kind `.connection` with libpq's reason (refused, bad password, …).
    public static func connect(_ target: String) async throws -> PostgresConnection {
        let queue = DispatchQueue(label: "scorefeed.postgres.connection")
        queue.setSpecific(key: queueKey, value: ())
        return try await perform(on: queue) { () throws(PostgresError) in
            let results = ResultCounter()
            let handle = try openHandle(target, results: results)
            return PostgresConnection(handle: handle, queue: queue, results: results)
        }
    }

    private static let queueKey = DispatchSpecificKey<Void>()

    /// `true` when the caller runs on a connection's own queue (where every libpq call is made).
    public static var isOnConnectionQueue: Bool { DispatchQueue.getSpecific(key: queueKey) != nil }

    /// Runs `body` on the connection's own thread with a session for synchronous statements.
    ///
    /// - Throws: whatever `body` throws; ``PostgresError`` of kind `.closed` after ``close()``.
    public func withSession<T: Sendable>(
        _ body: @escaping @Sendable (PostgresSession) throws -> T
    ) async throws -> T {
        try await Self.perform(on: queue) {
            guard let handle = self.handle else {
                throw PostgresError(kind: .closed, message: "the connection is closed")
            }
            return try body(PostgresSession(handle: handle, results: self.results, prepared: self.prepared))
        }
    }

    /// Runs one statement with `$n` parameters.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresResult {
        try await withSession { try $0.query(sql, parameters) }
    }

    /// Runs a script of one or more statements without parameters (migrations, DDL).
    public func execute(script: String) async throws {
        try await withSession { try $0.execute(script: script) }
    }

    /// Runs `body` inside `BEGIN` … `COMMIT`, rolling back when it throws.
    public func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresSession) throws -> T
    ) async throws -> T {
        try await withSession { try $0.transaction(body) }
    }

    /// Runs `body` inside `BEGIN` … `COMMIT`, with `script` (no parameters) sent together with `BEGIN`
    /// in one round trip, rolling back when anything throws.
    public func transaction<T: Sendable>(
        beginning script: String, _ body: @escaping @Sendable (PostgresSession) throws -> T
    ) async throws -> T {
        try await withSession { try $0.transaction(beginning: script, body) }
    }

    /// Closes the connection. Later calls throw `.closed`. Safe to call more than once.
    public func close() async {
        _ = try? await Self.perform(on: queue) { () throws(PostgresError) in
            if let handle = self.handle {
                self.canceller.close()
                PQfinish(handle)
                self.handle = nil
            }
        }
    }

    /// `true` while libpq reports the connection as usable.
    public var isOpen: Bool {
        get async {
            (try? await Self.perform(on: queue) { () throws(PostgresError) in
                self.handle.map { PQstatus($0) == CONNECTION_OK } ?? false
            }) ?? false
        }
    }

    private static func openHandle(_ target: String, results: ResultCounter) throws(PostgresError) -> OpaquePointer {
        // Later keywords override earlier ones; `dbname` is expanded from the URL or conninfo.
        let keywords = ["connect_timeout", "application_name", "dbname", "client_encoding"]
        let values = ["10", "scorefeed", target, "UTF8"]
        let handle = withCStringArray(keywords) { k in
            withCStringArray(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let handle else {
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingWhitespace()
            PQfinish(handle)
            throw PostgresError(kind: .connection, message: "could not connect: \(message)")
        }
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        do {
            try PostgresSession(handle: handle, results: results, prepared: PreparedStatements()).execute(
                script: "SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO'; SET client_min_messages TO warning")
        } catch {
            PQfinish(handle)
            throw error
        }
        return handle
    }

    private static func perform<T>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}

/// Calls `body` with a NULL-terminated C array of the strings, valid only during the call.
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { copies.forEach { free($0) } }
    return copies.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { body($0) }
    }
}
