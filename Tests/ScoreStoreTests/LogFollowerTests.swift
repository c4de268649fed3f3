import Foundation
import Logging
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

/// A reader of the whole log with its checkpoint in memory: what it saw, in order.
actor Collector {
    private(set) var checkpoint = 0
    private(set) var seen: [RecordedEvent] = []
    private(set) var connections: [Int] = []

    func add(_ events: [RecordedEvent]) {
        seen += events
        if let last = events.last { checkpoint = last.position }
    }

    func connected(_ pid: Int) { connections.append(pid) }

    /// The follower step: read a page after the checkpoint and keep it.
    nonisolated func step(_ connection: PostgresConnection) async throws -> Bool {
        let after = await checkpoint
        let events = try await connection.withSession { try EventLog.readAll(afterPosition: after, limit: 50, in: $0) }
        await add(events)
        return !events.isEmpty
    }

    func waitUntil(count: Int, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while seen.count < count {
            guard ContinuousClock.now < deadline else { return }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}

func runMessage(_ id: String, game: String) throws -> FeedMessage {
    try message(#"{"id":"\#(id)","gameId":"\#(game)","at":"2026-04-01T17:30:00Z","type":"run.scored","team":"home"}"#)
}

@Suite("following the log")
struct LogFollowerTests {
    @Test(
        "8 concurrent writers, random batches, some rolled back: the follower sees every committed event once, in order"
    )
    func noSkippedEvents() async throws {
        struct Rollback: Error {}
        try await withStore { connection in
            let url = try await TestURL.current(connection)
            let collector = Collector()
            let follower = LogFollower(url: url, pollInterval: 0.2, logger: quietLogger)
            let following = Task {
                try await follower.run(connected: { await collector.connected($0) }, step: collector.step)
            }

            let committed = try await withThrowingTaskGroup(of: [String].self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        var generator = SystemRandomNumberGenerator()
                        let own = try await PostgresConnection.connect(url)
                        var mine: [String] = []
                        for batch in 0..<25 {
                            let size = Int.random(in: 1...12, using: &generator)
                            let messages = try (0..<size).map { n in
                                try runMessage("w\(writer)-b\(batch)-\(n)", game: "game-\(Int.random(in: 0..<20))")
                            }
                            let rollBack = Int.random(in: 0..<4, using: &generator) == 0
                            let pause = Double.random(in: 0...0.004, using: &generator)
                            do {
                                _ = try await own.transaction { tx in
                                    try EventLog.lockForAppend(tx)
                                    _ = try EventLog.append(messages, in: tx)
                                    // Hold the transaction open a moment: a window for a reader to skip.
                                    try tx.query("SELECT pg_sleep($1)", [pause])
                                    if rollBack { throw Rollback() }
                                }
                                mine += messages.map(\.id)
                            } catch is Rollback {}
                        }
                        await own.close()
                        return mine
                    }
                }
                var all: [String] = []
                for try await ids in group { all += ids }
                return all
            }
            try await collector.waitUntil(count: committed.count)
            following.cancel()
            try await following.value

            let seen = await collector.seen
            #expect(seen.count == committed.count)
            #expect(Set(seen.map(\.message.id)) == Set(committed))
            #expect(Set(seen.map(\.message.id)).count == seen.count, "an event was seen twice")
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.position < $1.position }, "out of global order")
            let stored = try await count("events", connection)
            #expect(stored == committed.count, "rolled-back events must not be stored")
        }
    }

    @Test("a terminated backend is reconnected and the follower resumes from its checkpoint, nothing lost or repeated")
    func reconnects() async throws {
        try await withStore { connection in
            let url = try await TestURL.current(connection)
            let collector = Collector()
            let follower = LogFollower(url: url, pollInterval: 0.2, logger: quietLogger)
            let following = Task {
                try await follower.run(connected: { await collector.connected($0) }, step: collector.step)
            }
            func append(_ range: Range<Int>) async throws {
                let messages = try range.map { try runMessage("m\($0)", game: "g\($0 % 3)") }
                _ = try await connection.transaction { tx in
                    try EventLog.lockForAppend(tx)
                    return try EventLog.append(messages, in: tx)
                }
            }
            try await append(0..<120)
            try await collector.waitUntil(count: 120)
            let first = await collector.connections
            #expect(first.count == 1)
            // Kill the follower's server process while it waits, then keep appending.
            _ = try await connection.query("SELECT pg_terminate_backend($1)", [first[0]])
            try await append(120..<200)
            try await collector.waitUntil(count: 200)
            // And once more in the middle of a stream of appends.
            let second = await collector.connections
            try await append(200..<230)
            _ = try await connection.query("SELECT pg_terminate_backend($1)", [second.last ?? 0])
            try await append(230..<300)
            try await collector.waitUntil(count: 300)
            following.cancel()
            try await following.value

            let seen = await collector.seen
            #expect(seen.map(\.message.id) == (0..<300).map { "m\($0)" })
            #expect(await collector.connections.count >= 3)
        }
    }
}
