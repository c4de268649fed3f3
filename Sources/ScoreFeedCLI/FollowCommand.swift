import ArgumentParser
import AsyncHTTPClient
import Foundation
import LiveActivity
import LiveFollow
import Logging
import MLBFeed
import MLBFollow
import ScoreStore

/// `scorefeed follow PROVIDER …`: follow a live provider feed into the event log.
struct FollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Follow a live score provider into the event log.",
        subcommands: [
            FollowMLBCommand.self, FollowNHLCommand.self, FollowNBACommand.self, FollowSportradarCommand.self,
        ]
    )
}

/// `scorefeed follow mlb GAMEPK`: the MLB Stats API live feed (GUMBO) of one game.
struct FollowMLBCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mlb",
        abstract: "Follow one game of the MLB Stats API live feed until it ends.",
        discussion: """
            Polls GET /api/v1.1/game/GAMEPK/feed/live once, then .../feed/live/diffPatch?startTimecode=T for \
            JSON Patches (refetching the whole document when one does not apply), and turns every newer \
            document into canonical messages (game id mlb-GAMEPK) for the event log; the pushes an \
            activity registered before the game receives are printed as JSON lines, as replay does. Waits metaData.wait seconds \
            between polls unless --interval is given. Failed requests are retried with exponential backoff; \
            documents that cannot be read are logged and skipped. Stops when the game is final, postponed \
            or cancelled, or on SIGINT/SIGTERM. Restarting continues from the log: nothing is sent twice. \
            See docs/mlb-feed.md.
            """
    )

    @Argument(help: "The game's gamePk, e.g. 746001.")
    var gamePk: Int

    @Option(help: "The provider's base URL.")
    var baseURL = "https://statsapi.mlb.com"

    @Option(help: "Seconds between polls (default: the feed's metaData.wait).")
    var interval: Double?

    @Option(help: "Seconds one request may take.")
    var timeout: Double = 15

    @Option(help: "Give up after this many failed requests in a row (default: never).")
    var maxFailures: Int?

    @Option(help: "Write the pushes to this file instead of stdout.")
    var out: String?

    func validate() throws {
        guard gamePk > 0 else { throw ValidationError("GAMEPK must be a positive integer") }
        try FollowRun.validate(baseURL: baseURL, interval: interval, timeout: timeout, maxFailures: maxFailures)
    }

    func run() async throws {
        let sink = try CommandSink(path: out)
        let connection = try await Runtime.openDatabase()
        let store = GameStore(
            replayer: Replayer(
                ingestor: Ingestor(connection: connection), projector: Projector(clock: .wall({ Date() })))
        )
        let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        var logger = Runtime.logger
        logger[metadataKey: "game.id"] = "\(MLBSnapshot.gameId(gamePk))"
        let follower = MLBFollower(
            configuration: .init(
                gamePk: gamePk, interval: interval.map { .milliseconds(Int64(($0 * 1000).rounded())) },
                maximumFailures: maxFailures),
            client: MLBFeedClient(
                baseURL: baseURL, httpClient: httpClient, requestTimeout: .milliseconds(Int64(timeout * 1000))),
            logger: logger)
        let result: Result<(view: MLBGameView, summary: MLBFollowSummary)?, any Error>
        do {
            let start = try await store.view(gamePk: gamePk)
            let gamePk = self.gamePk
            result = .success(
                try await withThrowingTaskGroup(of: (view: MLBGameView, summary: MLBFollowSummary)?.self) { group in
                    group.addTask {
                        try await follower.run(from: start) { diff in
                            _ = try await store.store(
                                diff.messages, source: "mlb:\(gamePk)@\(diff.view.timecode?.text ?? "")"
                            ) {
                                try sink.write($1.jsonLine(gameId: $0) + "\n")
                            }
                        }
                    }
                    group.addTask {
                        await SignalWait.interruptOrTerminate()
                        return nil
                    }
                    let first = try await group.next()!
                    group.cancelAll()
                    return first
                })
        } catch {
            result = .failure(error)
        }
        try? await httpClient.shutdown()
        try sink.close()
        await connection.close()
        switch result {
        case .failure(let error):
            throw CLIError("follow mlb \(gamePk): \(error)")
        case .success(nil):
            Output.error("stopped following mlb-\(gamePk) (signal)")
        case .success(let done?):
            let s = done.summary
            Output.error(
                "followed mlb-\(gamePk) until \(done.view.state?.status.rawValue ?? "unknown"): \(s.applied) document(s) "
                    + "applied, \(s.patches) patch(es), \(s.refetches) refetch(es), \(s.stale) older ignored, "
                    + "\(s.malformed) unreadable, \(s.retries) retried request(s), \(s.messages) message(s)")
        }
    }
}

// The follower calls its store closure from one task at a time.
extension CommandSink: @unchecked Sendable {}
