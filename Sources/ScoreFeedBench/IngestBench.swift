import ArgumentParser
import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedCLI
import ScoreStore

/// `scorefeed-bench ingest --json`: concurrent single-message appends through the `Ingestor` (group
/// commit) against raw single-row INSERTs, one per transaction, from as many connections.
struct IngestBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Concurrent single-message ingest (group commit) against raw one-row INSERT transactions.",
        discussion: """
            Runs in a throw-away schema of the configured database (dropped afterwards). WRITERS tasks each \
            ingest MESSAGES run.scored messages one call at a time through one Ingestor (the webhook's \
            path: fold check, append lock, group commit); the reference is WRITERS connections each \
            inserting as many rows, one INSERT per transaction, into a table with the event log's \
            columns and indexes. Also one writer alone, for its latency. Measure against a server with \
            fsync on (the embedded cluster is): a commit's flush is what group commit shares.
            """
    )

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Concurrent writers.")
    var writers = 8

    @Option(help: "Messages per writer.")
    var messages = 500

    func validate() throws {
        guard (1...64).contains(writers) else { throw ValidationError("--writers must be from 1 to 64") }
        guard (1...100_000).contains(messages) else { throw ValidationError("--messages must be from 1 to 100000") }
    }

    func run() async throws {
        let (writers, count) = (self.writers, messages)
        let result = try await withBenchSchema { url -> [String: Any] in
            let connection = try await PostgresConnection.connect(url)
            try await Migrator().migrate(connection, logger: Runtime.logger)
            try await connection.execute(
                script: "CREATE TABLE insert_reference (LIKE events INCLUDING ALL)")
            let ingestor = Ingestor(connection: connection)
            let concurrent = try await Self.ingest(ingestor, writers: writers, messages: count, tag: "w")
            let alone = try await Self.ingest(ingestor, writers: 1, messages: count, tag: "a")
            let reference = try await Self.inserts(url: url, writers: writers, rows: count)
            await connection.close()
            let rate = Double(writers * count) / concurrent.wall
            return [
                "benchmark": "ingest", "writers": writers, "messagesPerWriter": count,
                "eventsPerSecond": rounded(rate, places: 0),
                "p50Ms": rounded(concurrent.timings.percentileMs(50), places: 3),
                "p99Ms": rounded(concurrent.timings.percentileMs(99), places: 3),
                "transactions": concurrent.transactions,
                "referenceEventsPerSecond": rounded(reference, places: 0),
                "ratio": rounded(rate / reference, places: 3),
                "oneWriterP50Ms": rounded(alone.timings.percentileMs(50), places: 3),
                "oneWriterP99Ms": rounded(alone.timings.percentileMs(99), places: 3),
            ]
        }
        try printJSON(result)
    }

    /// `writers` tasks, each on games of its own, `messages` single-message calls each.
    private static func ingest(_ ingestor: Ingestor, writers: Int, messages: Int, tag: String) async throws
        -> (wall: Double, timings: Timings, transactions: Int)
    {
        let at = Date(timeIntervalSince1970: 1_775_000_000)
        let teams = (home: Team(code: "HOM", name: "Home", logo: ""), away: Team(code: "AWY", name: "Away", logo: ""))
        for writer in 0..<writers {
            let game = "\(tag)\(writer)"
            _ = try await ingestor.ingest([
                FeedMessage(
                    id: "\(game)-s", gameId: game, at: at,
                    event: .gameScheduled(home: teams.home, away: teams.away, startsAt: at)),
                FeedMessage(id: "\(game)-g", gameId: game, at: at, event: .gameStarted),
            ])
        }
        let before = await ingestor.transactions
        let began = ContinuousClock.now
        let timings = try await withThrowingTaskGroup(of: Timings.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var timings = Timings()
                    for n in 0..<messages {
                        let message = FeedMessage(
                            id: "\(tag)\(writer)-\(n)", gameId: "\(tag)\(writer)", at: at.addingTimeInterval(Double(n)),
                            event: .runScored(team: n % 2 == 0 ? .home : .away, runs: 1))
                        let start = ContinuousClock.now
                        _ = try await ingestor.ingest(message)
                        timings.record(ContinuousClock.now - start)
                    }
                    return timings
                }
            }
            var all = Timings()
            for try await part in group { all.merge(part) }
            return all
        }
        let wall = (ContinuousClock.now - began) / .seconds(1)
        return (wall, timings, await ingestor.transactions - before)
    }

    /// Rows per second of `writers` connections each inserting `rows` rows, one INSERT per transaction.
    private static func inserts(url: String, writers: Int, rows: Int) async throws -> Double {
        let began = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let connection = try await PostgresConnection.connect(url)
                    for n in 0..<rows {
                        _ = try await connection.transaction { tx in
                            try tx.query(
                                """
                                INSERT INTO insert_reference (stream_id, stream_version, message_id, type, data, occurred_at)
                                VALUES ($1, $2, $3, 'run.scored', '{"team":"home"}'::jsonb, now())
                                """, ["r\(writer)", n + 1, "r\(writer)-\(n)"])
                        }
                    }
                    await connection.close()
                }
            }
            try await group.waitForAll()
        }
        return Double(writers * rows) / ((ContinuousClock.now - began) / .seconds(1))
    }
}
