import Foundation
import Logging
import PostgresClient
import ScoreStore
import ServiceLifecycle

/// Follows the projection's changes in the database (LISTEN on ``StateChanges/channel``, with a
/// polling fallback) and publishes them to the ``ChangeHub``. On graceful shutdown it closes the
/// hub first, so the live streams end and the HTTP server can drain.
struct ChangeFeedService: Service {
    let hub: ChangeHub
    let database: Database
    let logger: Logger
    /// Seconds between keep-alive wake-ups of idle streams.
    var keepAlive: Double = 15

    func run() async throws {
        let pool = try await database.ready().pool
        let start = try await pool.withSession { try StateChanges.head(in: $0) }
        await hub.start(head: start)
        let hub = self.hub
        let follower = LogFollower(url: database.url, channel: StateChanges.channel, logger: logger)
        let interval = keepAlive
        do {
            try await untilGracefulShutdown {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // Each game's latest state, so a new event is folded onto it, not its whole stream.
                        let cache = CacheBox()
                        try await follower.run { connection in
                            let after = await hub.head
                            let changes = try await connection.withSession { session in
                                try cache.withLock {
                                    try StateChanges.after(after, cache: &$0, in: session)
                                }
                            }
                            await hub.publish(changes)
                            // A short page is everything projected when it was read: later changes come
                            // with their own notification, so no read just to find nothing (every node
                            // follows every change; this read is each node's cost on the primary).
                            return changes.count == StateChanges.pageSize
                        }
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: .seconds(interval))
                            await hub.wake(.idle)
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            await hub.close()
            throw error
        }
        await hub.close()
    }
}

/// The change feed's cache of each game's latest state (used by one follower at a time).
private final class CacheBox: @unchecked Sendable {
    private let lock = NSLock()
    private var cache = StateChanges.Cache()

    func withLock<T>(_ body: (inout StateChanges.Cache) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&cache)
    }
}
