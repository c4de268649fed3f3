import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("a session its task's cancellation stops")
struct CancellableSessionTests {
    @Test("uncancelled, it returns the body's value and the connection goes on")
    func runs() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let value = try await connection.withCancellableSession { try $0.query("SELECT 7 AS n")[0].int("n") }
            #expect(value == 7)
            #expect(try await connection.query("SELECT 1 AS n")[0].int("n") == 1)
            await connection.close()
        }
    }

    @Test(
        "cancelled, the running statement and every later one are cancelled on the server, nothing commits, the connection is closed",
        arguments: [
            // One long wait (a lock another session holds), then many short statements.
            "SELECT pg_advisory_xact_lock(hashtext(current_schema()))",
            "DO $$ BEGIN PERFORM 1; END $$",
        ])
    func cancelled(_ statement: String) async throws {
        try await TestDatabase.withSchema { url in
            let holder = try await PostgresConnection.connect(url)
            try await holder.execute(script: "CREATE TABLE kept (v int)")
            try await holder.execute(script: "BEGIN; SELECT pg_advisory_xact_lock(hashtext(current_schema()))")
            let connection = try await PostgresConnection.connect(url)
            let pid = try await connection.query("SELECT pg_backend_pid() AS pid")[0].int("pid")
            let work = Task {
                try await connection.withCancellableSession { session in
                    try session.transaction { tx in
                        try tx.query("INSERT INTO kept VALUES (1)")
                        // 200 × 50 ms: far longer than the test waits.
                        for _ in 0..<200 {
                            try tx.execute(script: statement)
                            try tx.query("SELECT pg_sleep(0.05)")
                        }
                    }
                }
            }
            // On a loaded machine the session may start late: cancel only once its transaction is open
            // on the server, or this would test the cancelled-before-it-starts case instead.
            try await waitUntilInTransaction(pid, url: url)
            try await Task.sleep(for: .milliseconds(200))
            let cancelled = ContinuousClock.now
            work.cancel()
            let error = await #expect(throws: PostgresError.self) { try await work.value }
            #expect(error?.sqlState == "57014", "\(String(describing: error))")
            #expect(ContinuousClock.now - cancelled < .seconds(5))
            await #expect(throws: PostgresError.self) { try await connection.query("SELECT 1") }
            try await holder.execute(script: "ROLLBACK")
            #expect(try await holder.query("SELECT count(*) AS n FROM kept")[0].int("n") == 0)
            await holder.close()
        }
    }

    /// Watched from a connection of its own: one inside a transaction sees a frozen pg_stat_activity.
    private func waitUntilInTransaction(_ pid: Int, url: String) async throws {
        let watcher = try await PostgresConnection.connect(url)
        var open = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !open && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            open =
                try await watcher.query(
                    "SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1 AND xact_start IS NOT NULL", [pid]
                )[0].int("n") == 1
        }
        await watcher.close()
        #expect(open, "the session's transaction never started")
    }

    @Test("a task cancelled before it starts runs nothing, and the connection goes on")
    func cancelledBefore() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let work = Task {
                while !Task.isCancelled { await Task.yield() }
                return try await connection.withCancellableSession { try $0.query("SELECT 1 AS n")[0].int("n") }
            }
            work.cancel()
            await #expect(throws: CancellationError.self) { try await work.value }
            #expect(try await connection.query("SELECT 1 AS n")[0].int("n") == 1)
            await connection.close()
        }
    }
}

extension CancellableSessionTests {
    @Test("a session queued behind another caller's statement and cancelled there never cancels that statement")
    func queuedBehindAnother() async throws {
        try await TestDatabase.withSchema { url in
            // The other caller's statement waits on a lock this test holds, so it is surely running
            // (and the cancellable session surely queued behind it) when the cancellation comes.
            let holder = try await PostgresConnection.connect(url)
            try await holder.execute(script: "BEGIN; SELECT pg_advisory_xact_lock(hashtext(current_schema()))")
            let connection = try await PostgresConnection.connect(url)
            let other = Task {
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(hashtext(current_schema())), 1 AS n")[0].int("n")
            }
            while try await holder.query(
                "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")[0].int("n") == 0
            {
                try await Task.sleep(for: .milliseconds(10))
            }
            let queued = Task {
                try await connection.withCancellableSession { try $0.query("SELECT 2 AS n")[0].int("n") }
            }
            try await Task.sleep(for: .milliseconds(300))
            queued.cancel()
            try await Task.sleep(for: .milliseconds(300))
            try await holder.execute(script: "ROLLBACK")
            #expect(try await other.value == 1)
            await #expect(throws: CancellationError.self) { try await queued.value }
            #expect(try await connection.query("SELECT 3 AS n")[0].int("n") == 3)
            await connection.close()
            await holder.close()
        }
    }

    @Test("a cancellation that comes after the body returned changes nothing: the value, and the connection goes on")
    func cancelledAfter() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let done = Task {
                try await connection.withCancellableSession { try $0.query("SELECT 4 AS n")[0].int("n") }
            }
            #expect(try await done.value == 4)
            done.cancel()
            #expect(try await connection.query("SELECT 5 AS n")[0].int("n") == 5)
            await connection.close()
        }
    }
}
