import ArgumentParser
import Foundation
import LocalPostgres
import Logging
import PostgresClient
import ScoreDomain
import ScoreStore

/// What every command shares: the environment, the logger, and how to reach the database.
package enum Runtime {
    package static var environment: [String: String] { ProcessInfo.processInfo.environment }

    package static let logger = Logger(label: "scorefeed")

    /// The time of an `--at` option (now when it is not given).
    /// - Throws: `ValidationError` when it is not RFC 3339, or outside ``InputRules/instants``.
    static func time(at text: String?) throws -> Date {
        guard let text else { return Date() }
        guard let date = InputRules.timestamp(text) else {
            throw ValidationError(
                "--at must be an RFC 3339 timestamp such as 2026-05-12T23:55:00Z, \(InputRules.dateRule), "
                    + "not \"\(text)\"")
        }
        return date
    }

    /// The database URL: `SCOREFEED_DATABASE_URL` when set, else the embedded cluster, started on demand.
    package static func databaseURL() async throws -> String {
        if let url = environment["SCOREFEED_DATABASE_URL"], !url.isEmpty { return url }
        let cluster = LocalCluster.fromEnvironment()
        if try await cluster.start(logger: logger) {
            logger.info("embedded PostgreSQL started", metadata: ["db.home": "\(cluster.home.path)"])
        }
        return cluster.url()
    }

    /// Connects to the database and applies pending migrations.
    package static func openDatabase() async throws -> PostgresConnection {
        let connection = try await PostgresConnection.connect(try await databaseURL())
        try await Migrator().migrate(connection, logger: logger)
        return connection
    }
}

/// Writes text to standard output without buffering surprises. A reader that went away (`… | head`)
/// ends the command quietly, as with any Unix tool, instead of a crash.
package enum Output {
    package static func write(_ text: String) { write(text, to: .standardOutput) }

    package static func line(_ text: String) { write(text + "\n") }

    package static func error(_ text: String) { write(text + "\n", to: .standardError) }

    private static func write(_ text: String, to handle: FileHandle) {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            exit(0)
        }
    }
}
