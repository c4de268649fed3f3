import ArgumentParser
import Foundation
import PostgresClient
import Retrosheet
import ScoreDomain
import ScoreFeedCLI
import ScoreStore

/// `scorefeed bench retrosheet --json`: a season of real games, in memory and end to end.
struct RetrosheetBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retrosheet",
        abstract: "Parse and fold a season of Retrosheet games in memory, then replay them end to end.",
        discussion: """
            In memory: read the event files, parse, convert to canonical messages and fold them all. \
            End to end: the same games through ingest, event log, projection and pushes (an activity registered before each game) into a \
            throw-away schema of the configured database (dropped afterwards).
            """
    )

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Folder of Retrosheet event files.")
    var data = "fixtures/retrosheet/2019"

    @Flag(help: "Only the in-memory part.")
    var memoryOnly = false

    @Flag(help: "Register one activity per game (15 minutes before its first pitch), so the outbox holds its pushes.")
    var activities = false

    func run() async throws {
        let files = try FeedSources.expand([data], accept: FeedSources.isEventFile)
        // In memory: bytes are read inside the timed part, as a replay would.
        let began = ContinuousClock.now
        let games = try FeedSources.retrosheetGames(files)
        var events = 0
        var finals = 0
        for case .success(let messages) in games {
            var state: ScoreState?
            for sourced in messages { state = try ScoreFold.apply(sourced.message, to: state) }
            events += messages.count
            finals += state?.status == .closed ? 1 : 0
        }
        let memorySeconds = (ContinuousClock.now - began) / .seconds(1)
        var result: [String: Any] = [
            "benchmark": "retrosheet", "games": games.count, "closedGames": finals, "events": events,
            "inMemorySeconds": rounded(memorySeconds, places: 3),
        ]
        if !memoryOnly {
            let gameMessages = games.compactMap { try? $0.get() }
            result.merge(try await endToEnd(gameMessages)) { _, new in new }
        }
        try printJSON(result)
    }

    private func endToEnd(_ games: [[SourcedMessage]]) async throws -> [String: Any] {
        try await withBenchSchema { try await measure(games, url: $0) }
    }

    private func measure(_ games: [[SourcedMessage]], url: String) async throws -> [String: Any] {
        let connection = try await PostgresConnection.connect(url)
        try await Migrator().migrate(connection, logger: Runtime.logger)
        let began = ContinuousClock.now
        if activities {
            try await connection.transaction { tx in
                for (index, game) in games.enumerated() {
                    guard let first = game.first?.message, case .gameScheduled(_, _, let startsAt, _) = first.event
                    else { continue }
                    _ = try Activities.register(
                        gameId: first.gameId, token: String(format: "%064x", index + 1), environment: .production,
                        bundleId: "com.example.scores", frequentUpdates: false,
                        at: startsAt.addingTimeInterval(-15 * 60), in: tx)
                }
            }
        }
        let summary = try await Replayer(ingestor: Ingestor(connection: connection)).replay(games: games) { _, _ in }
        let seconds = (ContinuousClock.now - began) / .seconds(1)
        // Tables with their indexes and TOAST, in the bench's schema: what the season occupies.
        let sizes = try await connection.query(
            """
            SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY bytes DESC
            """
        ).rows.map { (try $0.string("name"), try $0.int("bytes")) }
        let megabytes = { (bytes: Int) in rounded(Double(bytes) / 1_048_576, places: 1) }
        let outbox = try await connection.query("SELECT count(*) AS n FROM outbox")[0].int("n")
        let again = ContinuousClock.now
        let second = try await Replayer(ingestor: Ingestor(connection: connection)).replay(games: games) { _, _ in }
        let againSeconds = (ContinuousClock.now - again) / .seconds(1)
        await connection.close()
        return [
            "endToEndSeconds": rounded(seconds, places: 3), "pushes": summary.pushes, "activities": activities,
            "outboxPushes": outbox,
            "endToEndEventsPerSecond": rounded(Double(summary.accepted) / seconds, places: 0),
            "replayAgainSeconds": rounded(againSeconds, places: 3), "replayAgainDuplicates": second.duplicates,
            "databaseMB": megabytes(sizes.reduce(0) { $0 + $1.1 }),
            "largestTablesMB": Dictionary(uniqueKeysWithValues: sizes.prefix(4).map { ($0.0, megabytes($0.1)) }),
        ]
    }
}
