import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("libpq wrapper against a real server")
struct PostgresConnectionTests {
    @Test(
        "NULL, unicode and 1 MB text round-trip through $n binds",
        arguments: [
            nil,
            "",
            "plain ascii",
            "Zürich ⚾️ 東京 🇯🇵 — \"quotes\" and 'apostrophes' and \\backslashes\\",
            String(repeating: "0123456789abcdef", count: 65_536),  // exactly 1 MiB
            String(repeating: "é⚾", count: 200_000),
        ] as [String?])
    func roundTrip(_ value: String?) async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let result = try await connection.query("SELECT $1::text AS v, $1::text IS NULL AS is_null", [value])
            #expect(result.count == 1)
            #expect(try result[0].text("v") == value)
            #expect(try result[0].bool("is_null") == (value == nil))
            await connection.close()
        }
    }

    @Test("a unique violation is SQLSTATE 23505 with the constraint and the statement")
    func uniqueViolation() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            try await connection.execute(script: "CREATE TABLE t (id integer CONSTRAINT t_id_key UNIQUE)")
            _ = try await connection.query("INSERT INTO t (id) VALUES ($1)", [1])
            let error = await #expect(throws: PostgresError.self) {
                try await connection.query("INSERT INTO t (id) VALUES ($1)", [1])
            }
            #expect(error?.sqlState == "23505")
            #expect(error?.isUniqueViolation == true)
            #expect(error?.constraint == "t_id_key")
            #expect(error?.kind == .query)
            #expect(error?.statement == "INSERT INTO t (id) VALUES ($1)")
            #expect(error?.description.contains("[23505]") == true)
            // The connection stays usable after a failed statement.
            #expect(try await connection.query("SELECT count(*) AS n FROM t")[0].int("n") == 1)
            await connection.close()
        }
    }

    @Test("a syntax error carries SQLSTATE 42601 and the statement")
    func syntaxError() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let error = await #expect(throws: PostgresError.self) { try await connection.query("SELEC 1") }
            #expect(error?.sqlState == "42601")
            #expect(error?.statement == "SELEC 1")
            await connection.close()
        }
    }

    @Test("a refused connection is a clear connection error, not a crash")
    func refusedConnection() async throws {
        let error = await #expect(throws: PostgresError.self) {
            try await PostgresConnection.connect("postgresql://scorefeed:secret@127.0.0.1:1/nowhere")
        }
        #expect(error?.kind == .connection)
        #expect(error?.description.contains("refused") == true)
        #expect(error?.description.contains("secret") == false)
    }

    @Test("a key=value conninfo string connects too")
    func conninfo() async throws {
        let url = try TestDatabase.url()
        let connection = try await PostgresConnection.connect(url)
        let info = try await connection.query(
            "SELECT current_database() AS db, current_setting('port') AS port, current_user AS usr")
        let db = try info[0].string("db")
        await connection.close()
        // Rebuild the same target as conninfo (socket or TCP, whichever the URL used).
        var parts = ["dbname=\(db)", "port=\(try info[0].string("port"))", "user=\(try info[0].string("usr"))"]
        if let host = URLComponents(string: url)?.queryItems?.first(where: { $0.name == "host" })?.value {
            parts.append("host=\(host)")
        } else if let host = URLComponents(string: url)?.host, !host.isEmpty {
            parts.append("host=\(host)")
        }
        let again = try await PostgresConnection.connect(parts.joined(separator: " "))
        #expect(try await again.query("SELECT 1 AS one")[0].int("one") == 1)
        await again.close()
    }

    @Test("a transaction commits, and rolls back when its body throws")
    func transactions() async throws {
        struct Abort: Error {}
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            try await connection.execute(script: "CREATE TABLE t (id integer)")
            _ = try await connection.transaction { try $0.query("INSERT INTO t VALUES ($1)", [1]) }
            await #expect(throws: Abort.self) {
                try await connection.transaction { tx in
                    try tx.query("INSERT INTO t VALUES ($1)", [2])
                    throw Abort()
                }
            }
            let rows = try await connection.query("SELECT id FROM t ORDER BY id")
            #expect(try rows.rows.map { try $0.int("id") } == [1])
            await connection.close()
        }
    }

    @Test("every result is cleared exactly once, and a closed connection refuses work")
    func handles() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            do {
                let kept = try await connection.query("SELECT generate_series(1, 3) AS n")
                _ = try await connection.query("SELECT 1")
                _ = try? await connection.query("SELECT broken syntax")
                #expect(connection.results.live == 1)
                #expect(kept.count == 3)
            }
            #expect(connection.results.live == 0)
            await connection.close()
            await connection.close()  // twice is harmless
            #expect(await connection.isOpen == false)
            let error = await #expect(throws: PostgresError.self) { try await connection.query("SELECT 1") }
            #expect(error?.kind == .closed)
        }
    }

    @Test(
        "dates round-trip through timestamptz with microseconds",
        arguments: [
            0.0, 1_554_145_500.0, 1_554_145_500.123456, -86_400.5, 4_102_444_800.000001,
        ])
    func dates(_ seconds: Double) async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let date = Date(timeIntervalSince1970: seconds)
            let back = try await connection.query("SELECT $1::timestamptz AS t", [date])[0].date("t")
            #expect(abs(back.timeIntervalSince1970 - seconds) < 0.000_001)
            await connection.close()
        }
    }

    @Test(
        "dates before year 1 and after 9999 are sent as PostgreSQL reads them: no trap, no wrong year",
        arguments: [
            -62_167_219_201, -62_167_219_200, -62_198_755_200, -62_135_596_801, 253_402_300_799, 253_402_300_800,
        ])
    func farDates(_ seconds: Int) async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let back = try await connection.query(
                "SELECT extract(epoch FROM $1::timestamptz)::bigint AS e", [date])[0].int("e")
            #expect(back == seconds)
            await connection.close()
        }
    }

    @Test("libpq calls run on the connection's own dispatch queue, not on the cooperative pool")
    func offThePool() async throws {
        let connection = try await PostgresConnection.connect(try TestDatabase.url())
        #expect(!PostgresConnection.isOnConnectionQueue)
        let inside = try await connection.withSession { _ in PostgresConnection.isOnConnectionQueue }
        #expect(inside)
        await connection.close()
    }
}

@Suite("connection targets as they may be shown")
struct ConnectionTargetTests {
    @Test(
        "the password of a URL or conninfo is replaced, the rest kept",
        arguments: [
            ("postgresql://u:s3cret@db.example/scorefeed", "postgresql://u:***@db.example/scorefeed"),
            ("postgres://u:p%40ss@h:5432/db?sslmode=require", "postgres://u:***@h:5432/db?sslmode=require"),
            ("postgresql://u@h/db?password=s3cret&sslmode=require", "postgresql://u@h/db?password=***&sslmode=require"),
            ("postgresql://postgres@/scorefeed?host=/tmp/x", "postgresql://postgres@/scorefeed?host=/tmp/x"),
            ("host=h dbname=db password=s3cret user=u", "host=h dbname=db password=*** user=u"),
            ("host=h password = 'a b\\' c' user=u", "host=h password = *** user=u"),
            ("host=h passwordless=1", "host=h passwordless=1"),
            ("host=h sslpassword=k3y sslkey=/k password=p", "host=h sslpassword=*** sslkey=/k password=***"),
            ("postgresql://u@h/db?sslpassword=k3y", "postgresql://u@h/db?sslpassword=***"),
            (
                "postgresql://u:pw@h1:5432,h2:5433/db?target_session_attrs=read-write",
                "postgresql://u:***@h1:5432,h2:5433/db?target_session_attrs=read-write"
            ),
        ])
    func redacted(target: String, shown: String) {
        #expect(ConnectionTarget.redacted(target) == shown)
    }
}
