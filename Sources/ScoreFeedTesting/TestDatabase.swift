import Foundation
import PostgresClient

/// The real PostgreSQL that tests run against, named by `SCOREFEED_DATABASE_URL`.
///
/// There is no skipping: without the variable, or with a server that does not answer, every
/// database test fails with a message that says how to run them (`scripts/test`).
public enum TestDatabase {
    /// The URL of the test server.
    public static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["SCOREFEED_DATABASE_URL"], !url.isEmpty else {
            throw TestDatabaseError(
                "SCOREFEED_DATABASE_URL is not set: database tests need a real PostgreSQL; run scripts/test")
        }
        return url
    }

    /// Runs `body` with the URL of a new, empty schema that is dropped afterwards.
    ///
    /// Every connection opened with that URL has the schema as its `search_path`, so tests running
    /// in parallel never see each other's tables.
    public static func withSchema<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let base = try url()
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try await PostgresConnection.connect(base)
        try await admin.execute(script: "CREATE SCHEMA \(schema)")
        do {
            let value = try await body(scoped(base, schema: schema))
            try await admin.execute(script: "DROP SCHEMA \(schema) CASCADE")
            await admin.close()
            return value
        } catch {
            try? await admin.execute(script: "DROP SCHEMA \(schema) CASCADE")
            await admin.close()
            throw error
        }
    }

    /// `url` with `search_path` set to `schema` for every connection made with it.
    public static func scoped(_ url: String, schema: String) -> String {
        SearchPath.scoped(url, schema: schema)
    }
}

/// Why the test database is not usable.
public struct TestDatabaseError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
