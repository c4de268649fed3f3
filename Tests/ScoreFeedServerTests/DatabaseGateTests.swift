import Logging
import Testing

@testable import ScoreFeedServer

@Suite("waiting for the server's database")
struct DatabaseGateTests {
    @Test("a caller waiting for the database stops waiting when cancelled, so shutdown never hangs on it")
    func cancelledWaiter() async throws {
        let database = Database(url: "postgresql://postgres@127.0.0.1:1/never", connections: 1)
        let waiter = Task { try await database.ready() }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await database.ready()
        }
        await #expect(throws: CancellationError.self) { _ = try await late.value }
        #expect(!database.isReady)
    }

    @Test("waiters get the open's failure, and later callers at once; close ends it for good")
    func failedOpen() async throws {
        let database = Database(url: "postgresql://postgres@127.0.0.1:1/never", connections: 1)
        let waiter = Task { try await database.ready() }
        await #expect(throws: (any Error).self) { try await database.open(logger: Logger(label: "test")) }
        await #expect(throws: (any Error).self) { _ = try await waiter.value }
        await #expect(throws: (any Error).self) { _ = try await database.ready() }
        await database.close()
        #expect(!database.isReady)
    }
}
