import Foundation
import Logging
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore

/// A migrated schema of its own and a connection to it, for one test.
func withStore<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
    try await TestDatabase.withSchema { url in
        let connection = try await PostgresConnection.connect(url)
        do {
            try await Migrator().migrate(connection, logger: quietLogger)
            let value = try await body(connection)
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }
}

/// The checkout's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func fixture(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("fixtures").appendingPathComponent(name).path
}

/// Parses one canonical message written as a JSON literal in a test.
func message(_ json: String) throws -> FeedMessage {
    try FeedParser.parse(json)
}

let scheduledJSON = """
    {"id":"m1","gameId":"g1","at":"2026-04-01T17:00:00Z","type":"game.scheduled",\
    "home":{"code":"BOS","name":"Boston Red Sox","logo":""},"away":{"code":"NYY","name":"New York Yankees","logo":""},\
    "startsAt":"2026-04-01T17:10:00Z"}
    """

func count(_ table: String, _ connection: PostgresConnection) async throws -> Int {
    try await connection.query("SELECT count(*) AS n FROM \(table)")[0].int("n")
}

/// A logger that keeps test output to warnings and worse.
let quietLogger: Logger = {
    var logger = Logger(label: "test")
    logger.logLevel = .warning
    return logger
}()
