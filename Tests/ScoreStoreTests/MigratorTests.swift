import Foundation
import Logging
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("migrations")
struct MigratorTests {
    let logger = quietLogger

    private func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, sql) in files {
            try sql.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test("the migrations built into the binary are schema/*.sql byte for byte (else run scripts/embed-schema)")
    func embeddedEqualsSchemaFolder() throws {
        let fromFolder = try Migrator(directory: repositoryRoot.appendingPathComponent("schema")).migrations
        let embedded = try Migrator(environment: [:]).migrations
        #expect(embedded.map(\.name) == fromFolder.map(\.name))
        #expect(embedded.map(\.version) == fromFolder.map(\.version))
        for (built, file) in zip(embedded, fromFolder) {
            #expect(built.sql == file.sql, "\(file.name) differs from the binary's copy: run scripts/embed-schema")
        }
        // SCOREFEED_SCHEMA_DIR still overrides the built-in migrations.
        let dir = try folder(["0001_only.sql": "SELECT 1;"])
        #expect(try Migrator(environment: ["SCOREFEED_SCHEMA_DIR": dir.path]).migrations.map(\.name) == ["only"])
        #expect(throws: StoreError.self) { try Migrator(environment: ["SCOREFEED_SCHEMA_DIR": "/no/such/folder"]) }
    }

    @Test("migration 0011 turns the score_states rows of earlier builds into the stored JSON, field for field")
    func scoreStatesAsJSON() async throws {
        try await withStore(migrated: false) { connection in
            let schema = repositoryRoot.appendingPathComponent("schema")
            let before = try FileManager.default.contentsOfDirectory(atPath: schema.path).filter { $0 < "0011" }
            let dir = try folder(
                Dictionary(
                    uniqueKeysWithValues: try before.map {
                        ($0, try String(contentsOf: schema.appendingPathComponent($0), encoding: .utf8))
                    }))
            try await Migrator(directory: dir).migrate(connection, logger: logger)
            let messages = try FeedFile.read(fixture("plain-nine.jsonl")).map(\.message)
            let expected = try messages.reduce(nil as ScoreState?) { try ScoreFold.apply($1, to: $0) }!
            _ = try await connection.transaction { try EventLog.append(messages, in: $0) }
            _ = try await connection.query(
                """
                INSERT INTO score_states (game_id, home, away, starts_at, home_score, away_score, inning, half, outs,
                    status, version, updated_at, position, on_first, on_second, on_third)
                VALUES ($1, $2::jsonb, $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11, $12, 76, true, false, true)
                """,
                [
                    expected.gameId,
                    #"{"code":"BOS","name":"Boston Red Sox","logo":"https://example.com/logos/bos.png"}"#,
                    #"{"code":"NYY","name":"New York Yankees","logo":"https://example.com/logos/nyy.png"}"#,
                    expected.startsAt, expected.homeScore, expected.awayScore, expected.inningNumber,
                    expected.half.rawValue, expected.outs, expected.status.rawValue, expected.version,
                    expected.updatedAt,
                ])
            try await Migrator(environment: [:]).migrate(connection, logger: logger)
            var loaded = try #require(
                try await connection.withSession { try ScoreProjection.load(expected.gameId, in: $0) })
            #expect(loaded.bases == Bases(first: true, third: true))
            loaded.bases = expected.bases
            // Rows of earlier builds had no scoring list: `scorefeed rebuild` refolds it from the log.
            #expect(loaded.scoring.isEmpty)
            loaded.scoring = expected.scoring
            #expect(loaded == expected)
        }
    }

    @Test("the project's schema applies in order, each file once, recorded in schema_migrations")
    func projectSchema() async throws {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let migrator = try Migrator(environment: [:])
            let files = try FileManager.default.contentsOfDirectory(
                atPath: repositoryRoot.appendingPathComponent("schema").path
            )
            .filter { $0.hasSuffix(".sql") }.sorted()
            #expect(migrator.migrations.map(\.version) == Array(1...files.count))
            #expect(migrator.migrations.map { String(format: "%04d_", $0.version) + $0.name + ".sql" } == files)
            let first = try await migrator.migrate(connection, logger: logger)
            #expect(first.map(\.version) == Array(1...files.count))
            let second = try await migrator.migrate(connection, logger: logger)
            #expect(second.isEmpty)
            let recorded = try await connection.query("SELECT version FROM schema_migrations ORDER BY version")
            #expect(try recorded.rows.map { try $0.int("version") } == Array(1...files.count))
            await connection.close()
        }
    }

    @Test("files apply in numeric order and later files see earlier ones")
    func order() async throws {
        let dir = try folder([
            "0002_add.sql": "INSERT INTO steps VALUES (2);",
            "0001_create.sql": "CREATE TABLE steps (n integer); INSERT INTO steps VALUES (1);",
            "README.txt": "ignored",
        ])
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            try await Migrator(directory: dir).migrate(connection, logger: logger)
            let rows = try await connection.query("SELECT n FROM steps ORDER BY n")
            #expect(try rows.rows.map { try $0.int("n") } == [1, 2])
            await connection.close()
        }
    }

    @Test("a failing migration leaves nothing behind and is not recorded")
    func failing() async throws {
        let dir = try folder(["0001_ok.sql": "CREATE TABLE a (n integer);", "0002_bad.sql": "CREATE TABLE b (n nope);"])
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let error = await #expect(throws: PostgresError.self) {
                try await Migrator(directory: dir).migrate(connection, logger: logger)
            }
            #expect(error?.sqlState == "42704")
            let tables = try await connection.query(
                "SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename IN ('a', 'b')")
            #expect(try tables[0].int("n") == 0)
            await connection.close()
        }
    }

    @Test("an applied file that changed, or a version this build does not know, is refused")
    func drift() async throws {
        let original = try folder([
            "0001_a.sql": "CREATE TABLE a (n integer);", "0002_b.sql": "CREATE TABLE b (n integer);",
        ])
        let edited = try folder([
            "0001_a.sql": "CREATE TABLE a (n bigint);", "0002_b.sql": "CREATE TABLE b (n integer);",
        ])
        let older = try folder(["0001_a.sql": "CREATE TABLE a (n integer);"])
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            try await Migrator(directory: original).migrate(connection, logger: logger)
            let changed = await #expect(throws: StoreError.self) {
                try await Migrator(directory: edited).migrate(connection, logger: logger)
            }
            #expect(changed?.description.contains("0001_a.sql changed") == true)
            let unknown = await #expect(throws: StoreError.self) {
                try await Migrator(directory: older).migrate(connection, logger: logger)
            }
            #expect(unknown?.description.contains("migration 2") == true)
            await connection.close()
        }
    }

    @Test(
        "badly named files and empty folders are clear errors",
        arguments: [
            ["1_short.sql": "SELECT 1;"], ["0001-dash.sql": "SELECT 1;"], ["0001_.sql": "SELECT 1;"], [:],
        ])
    func badNames(_ files: [String: String]) throws {
        let dir = try folder(files)
        #expect(throws: StoreError.self) { try Migrator(directory: dir) }
    }
}
