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
}
