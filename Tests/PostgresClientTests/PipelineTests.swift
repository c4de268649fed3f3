import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("statements sent in one pipeline")
struct PipelineTests {
    @Test("the statements run in order as one transaction and give one result each, prepared or not")
    func commits() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            try await connection.execute(script: "CREATE TABLE piped (v bigint PRIMARY KEY)")
            for round in 0..<2 {
                let results = try await connection.withSession {
                    try $0.pipeline([
                        PipelinedStatement("INSERT INTO piped VALUES ($1)", [round * 10 + 1]),
                        PipelinedStatement(
                            "INSERT INTO piped SELECT unnest($1::bigint[]) RETURNING v",
                            [PostgresBinaryArray.bigint([round * 10 + 2, round * 10 + 3])], prepared: true),
                        PipelinedStatement("SELECT count(*) AS n FROM piped"),
                    ])
                }
                #expect(results.count == 3)
                #expect(try results[1].rows.map { try $0.int("v") } == [round * 10 + 2, round * 10 + 3])
                #expect(try results[2][0].int("n") == 3 * (round + 1))
            }
            await connection.close()
        }
    }

    @Test("a failing statement keeps nothing of the pipeline, throws the server's error, and the connection goes on")
    func allOrNothing() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            try await connection.execute(
                script: "CREATE TABLE piped (v bigint PRIMARY KEY); INSERT INTO piped VALUES (1)")
            let error = await #expect(throws: PostgresError.self) {
                try await connection.withSession {
                    try $0.pipeline([
                        PipelinedStatement("INSERT INTO piped VALUES (2)"),
                        PipelinedStatement("INSERT INTO piped VALUES (1)"),
                        PipelinedStatement("INSERT INTO piped VALUES (3)"),
                    ])
                }
            }
            #expect(error?.isUniqueViolation == true)
            #expect(error?.statement == "INSERT INTO piped VALUES (1)")
            #expect(connection.results.live == 0)
            let rows = try await connection.query("SELECT v FROM piped ORDER BY v")
            #expect(try rows.rows.map { try $0.int("v") } == [1])
            await connection.close()
        }
    }

    @Test(
        "transactions pipelined back to back run in order, each its own: a failing one keeps nothing and the next goes on"
    )
    func transactions() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            try await connection.execute(script: "CREATE TABLE piped (v bigint PRIMARY KEY)")
            for depth in [1, 2, 3] {
                try await connection.execute(script: "TRUNCATE piped")
                // Transaction k inserts 10k + 1 and 10k + 2; transaction 4 inserts 1 again (stored by 0).
                let (answers, taken) = try await connection.withSession { session in
                    var answers: [(Int, [Int]?)] = []
                    var taken: [Int] = []
                    try session.pipelineTransactions(depth: depth) { k in
                        taken.append(k)
                        guard k < 8 else { return nil }
                        let values = k == 4 ? [41, 1] : [k * 10 + 1, k * 10 + 2]
                        return [
                            PipelinedStatement("INSERT INTO piped VALUES ($1)", [values[0]], prepared: true),
                            PipelinedStatement("INSERT INTO piped VALUES ($1) RETURNING v", [values[1]]),
                        ]
                    } answer: { k, result in
                        answers.append((k, try? result.get().last?.rows.map { try $0.int("v") }))
                    }
                    return (answers, taken)
                }
                #expect(taken == Array(0...8), "asked once per transaction, and once more for the end")
                #expect(answers.map(\.0) == Array(0..<8))
                let returned: [[Int]?] = (0..<8).map { k in k == 4 ? nil : [k * 10 + 2] }
                #expect(answers.map(\.1) == returned)
                let rows = try await connection.query("SELECT v FROM piped ORDER BY v")
                var expected: [Int] = []
                for k in 0..<8 where k != 4 { expected += [k * 10 + 1, k * 10 + 2] }
                #expect(try rows.rows.map { try $0.int("v") } == expected)
            }
            // A hop of its own: the last session's closure has let go of its results when it runs.
            try await connection.withSession { _ in }
            #expect(connection.results.live == 0)
            await connection.close()
        }
    }
}
