import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("transactions chained on one connection")
struct ChainTests {
    /// Transaction k inserts its values, sent one after another before any answer is read.
    static func insert(_ values: [Int]) -> [PipelinedStatement] {
        [
            PipelinedStatement("INSERT INTO chained VALUES ($1)", [values[0]], prepared: true),
            PipelinedStatement("INSERT INTO chained VALUES ($1) RETURNING v", [values[1]]),
        ]
    }

    @Test(
        "chained transactions commit in order, each its own; a failing one keeps nothing and every one sent after it is skipped"
    )
    func failureSkipsTheRest() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let wakeup = try ChainWakeup()
            try await connection.execute(script: "CREATE TABLE chained (v bigint PRIMARY KEY)")
            // 0 and 1 commit; 2 inserts 1 again and fails; 3 would succeed, but comes after 2.
            let transactions = [[1, 2], [11, 12], [21, 1], [31, 32]].map(Self.insert)
            let answers: [Result<[Int], PostgresError>] = try await connection.withSession { session in
                try session.openChain(preparing: transactions[0])
                for statements in transactions { try session.sendChained(statements) }
                var answers: [Result<[Int], PostgresError>] = []
                for statements in transactions {
                    var answer = ChainedAnswer(statements)
                    let result = try session.readChained(&answer, or: wakeup)!
                    answers.append(result.map { (try? $0.last?.rows.map { try $0.int("v") }) ?? [] })
                }
                session.closeChain()
                return answers
            }
            // A hop of its own: the session's closure has let go of every result when it runs.
            try await connection.withSession { _ in }
            #expect(connection.results.live == 0)
            #expect(try answers[1].get() == [12])
            #expect(throws: PostgresError.self) { try answers[2].get() }
            if case .failure(let error) = answers[2] { #expect(error.isUniqueViolation) }
            if case .failure(let error) = answers[3] { #expect(error.sqlState == PostgresSession.chainSkipped) }
            #expect((try? answers[3].get()) == nil)
            // Out of the chain and of the failed transaction: the connection goes on.
            let rows = try await connection.query("SELECT v FROM chained ORDER BY v")
            #expect(try rows.rows.map { try $0.int("v") } == [1, 2, 11, 12])
            try await connection.execute(script: "INSERT INTO chained VALUES (41)")
            #expect(try await connection.query("SELECT count(*) AS n FROM chained")[0].int("n") == 5)
            await connection.close()
        }
    }

    @Test("a read waiting for an answer returns early when woken, and goes on where it was")
    func wakeup() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let holder = try await PostgresConnection.connect(url)
            let wakeup = try ChainWakeup()
            // The chained transaction waits for a lock another connection holds: no answer can come
            // before the holder lets go, whatever the load.
            try await holder.execute(script: "BEGIN; SELECT pg_advisory_xact_lock(4242)")
            let waiting = [PipelinedStatement("SELECT pg_advisory_xact_lock(4242), 7 AS v")]
            try await connection.withSession { session in
                try session.openChain(preparing: [])
                try session.sendChained(waiting)
            }
            wakeup.signal()
            let (early, answer) = try await connection.withSession { session in
                var answer = ChainedAnswer(waiting)
                let early = try session.readChained(&answer, or: wakeup)
                return (early.map { _ in "answered" }, answer)
            }
            #expect(early == nil)
            try await holder.execute(script: "COMMIT")
            let value = try await connection.withSession { session in
                var answer = answer
                let result = try session.readChained(&answer, or: wakeup)
                session.closeChain()
                return try result?.get()[0][0].int("v")
            }
            #expect(value == 7)
            #expect(try await connection.query("SELECT 1 AS one")[0].int("one") == 1)
            await holder.close()
            await connection.close()
        }
    }
}
