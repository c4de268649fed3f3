import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("statements prepared once per connection")
struct PreparedStatementTests {
    @Test("the first run prepares, later runs reuse it with their own parameters; other connections prepare their own")
    func reused() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let sql = "SELECT cardinality($1::text[]) AS c, $2::bigint AS b"
            for n in 1...3 {
                let row = try await connection.withSession {
                    try $0.queryPrepared(sql, [PostgresBinaryArray.text(Array(repeating: "x", count: n)), n * 10])[0]
                }
                #expect(try row.int("c") == n)
                #expect(try row.int("b") == n * 10)
            }
            let statements = try await connection.query(
                "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1", [sql])
            #expect(try statements[0].int("n") == 1)
            let other = try await PostgresConnection.connect(url)
            let row = try await other.withSession {
                try $0.queryPrepared(sql, [PostgresBinaryArray.text(["y"]), 7])[0]
            }
            #expect(try row.int("b") == 7)
            await other.close()
            await connection.close()
        }
    }

    @Test("a statement the server refuses is not kept: it fails again with the server's error, then works once fixed")
    func refused() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            for _ in 1...2 {
                let error = await #expect(throws: PostgresError.self) {
                    try await connection.withSession { try $0.queryPrepared("SELECT * FROM missing_table") }
                }
                #expect(error?.sqlState == "42P01")
            }
            try await connection.execute(
                script: "CREATE TABLE missing_table (v int); INSERT INTO missing_table VALUES (5)")
            let row = try await connection.withSession { try $0.queryPrepared("SELECT * FROM missing_table")[0] }
            #expect(try row.int("v") == 5)
            await connection.close()
        }
    }
}
