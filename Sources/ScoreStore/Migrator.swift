import Foundation
import Logging
import PostgresClient
import ScoreDomain

/// Applies the `schema/NNNN_name.sql` migrations (built into the binary) in order, each once,
/// recorded in `schema_migrations`.
public struct Migrator: Sendable {
    /// One migration file.
    public struct Migration: Sendable, Equatable {
        public var version: Int
        public var name: String
        public var sql: String
        var checksum: String { ScoreStore.checksum(sql) }
    }

    public let migrations: [Migration]

    /// The migrations built into the binary (``embedded``, generated from `schema/` by
    /// `scripts/embed-schema`), or, when `SCOREFEED_SCHEMA_DIR` is set, those of that folder.
    ///
    /// - Throws: ``StoreError`` when the folder is missing or a file name is not `NNNN_name.sql`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let dir = environment["SCOREFEED_SCHEMA_DIR"], !dir.isEmpty {
            try self.init(directory: URL(fileURLWithPath: dir))
        } else {
            self.init(migrations: try Self.parse(Self.embedded))
        }
    }

    /// Reads the migrations in `directory`.
    ///
    /// - Throws: ``StoreError`` when the folder is missing or a file name is not `NNNN_name.sql`.
    public init(directory: URL) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw StoreError.migrations("no schema folder at \(directory.path) (SCOREFEED_SCHEMA_DIR)")
        }
        var files: [(file: String, sql: String)] = []
        for name in names.sorted() where name.hasSuffix(".sql") {
            files.append((name, try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)))
        }
        guard !files.isEmpty else { throw StoreError.migrations("no NNNN_name.sql files in \(directory.path)") }
        self.init(migrations: try Self.parse(files))
    }

    private init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Migrations from `NNNN_name.sql` files, in version order.
    static func parse(_ files: [(file: String, sql: String)]) throws -> [Migration] {
        var found: [Migration] = []
        for (name, sql) in files.sorted(by: { $0.file < $1.file }) {
            let parts = name.dropLast(4).split(separator: "_", maxSplits: 1)
            guard name.hasSuffix(".sql"), parts.count == 2, parts[0].count == 4, let version = Int(parts[0]),
                !parts[1].isEmpty
            else {
                throw StoreError.migrations("schema file \(name) is not named NNNN_name.sql")
            }
            guard !found.contains(where: { $0.version == version }) else {
                throw StoreError.migrations("two schema files have version \(parts[0])")
            }
            found.append(Migration(version: version, name: String(parts[1]), sql: sql))
        }
        return found
    }

    /// Applies every migration not yet recorded. Returns the ones it applied.
    ///
    /// Concurrent migrators of the same schema wait for each other on an advisory lock (migrators of
    /// other schemas do not: a server starting beside a test suite that migrates hundreds of schemas
    /// is not held up by them); a recorded migration whose file has changed since, or one this build
    /// does not know, is an error. A cancelled task stops it (nothing applied) and closes the connection.
    @discardableResult
    public func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> [Migration] {
        let migrations = self.migrations
        let applied = try await connection.withCancellableSession { session in
            try session.transaction { tx in
                try tx.query("SELECT pg_advisory_xact_lock(\(AdvisoryLock.migrations))")
                try tx.execute(
                    script: """
                        CREATE TABLE IF NOT EXISTS schema_migrations (
                            version    integer     PRIMARY KEY,
                            name       text        NOT NULL,
                            checksum   text        NOT NULL,
                            applied_at timestamptz NOT NULL DEFAULT now()
                        )
                        """)
                let rows = try tx.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version")
                var recorded: [Int: String] = [:]
                for row in rows.rows { recorded[try row.int("version")] = try row.string("checksum") }
                for (version, checksum) in recorded {
                    guard let known = migrations.first(where: { $0.version == version }) else {
                        throw StoreError.migrations(
                            "the database has migration \(version), which this build does not know")
                    }
                    guard known.checksum == checksum else {
                        throw StoreError.migrations(
                            "schema file \(String(format: "%04d", version))_\(known.name).sql changed after it was applied; "
                                + "add a new migration instead")
                    }
                }
                var done: [Migration] = []
                for migration in migrations where recorded[migration.version] == nil {
                    try tx.execute(script: migration.sql)
                    try tx.query(
                        "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                        [migration.version, migration.name, migration.checksum])
                    done.append(migration)
                }
                return done
            }
        }
        for migration in applied {
            logger.info("applied migration", metadata: ["migration": "\(migration.version)_\(migration.name)"])
        }
        return applied
    }
}

/// 64-bit FNV-1a of the UTF-8 bytes, as 16 hex digits: detects edited migration files.
func checksum(_ text: String) -> String {
    let hex = String(fnv1a64(text), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

/// Advisory lock keys used by the store, in one place.
enum AdvisoryLock {
    /// Held while migrating a schema (a key per schema).
    static let migrations = "hashtextextended('scorefeed-migrations.' || current_schema(), 0)"
    /// Held while a registration through an FCM address (an activity, a device, a follow) is checked
    /// and written, until its transaction ends: a key per address, the address as the statement's `$1`.
    static let fcmAddress = "hashtextextended('scorefeed-fcm.' || $1, 0)"
    /// Held by every appending transaction until it commits, so insert order equals commit order
    /// and a reader following `position` never skips an event (see docs/event-log.md).
    static let append: Int64 = 0x5343_4f52_4546_0002
}
