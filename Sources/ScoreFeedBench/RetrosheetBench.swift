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
        let summary = try await Replayer(ingestor: Ingestor(connection: connection)).replay(games: games) { _, _ in }
        let seconds = (ContinuousClock.now - began) / .seconds(1)
        let again = ContinuousClock.now
        let second = try await Replayer(ingestor: Ingestor(connection: connection)).replay(games: games) { _, _ in }
        let againSeconds = (ContinuousClock.now - again) / .seconds(1)
        await connection.close()
        return [
            "endToEndSeconds": rounded(seconds, places: 3), "pushes": summary.pushes,
            "endToEndEventsPerSecond": rounded(Double(summary.accepted) / seconds, places: 0),
            "replayAgainSeconds": rounded(againSeconds, places: 3), "replayAgainDuplicates": second.duplicates,
        ]
    }
}
