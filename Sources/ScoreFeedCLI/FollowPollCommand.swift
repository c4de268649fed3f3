import ArgumentParser
import AsyncHTTPClient
import Foundation
import LiveActivity
import LiveFollow
import ScoreStore

/// The options of every follower of a polled live document (`follow nhl`, `follow nba`).
struct PollOptions: ParsableArguments {
    @Option(help: "The provider's base URL (default: the league's public one).")
    var baseURL: String?

    @Option(help: "Seconds between polls.")
    var interval: Double = 10

    @Option(help: "Seconds one request may take.")
    var timeout: Double = 15

    @Option(help: "Give up after this many failed requests in a row (default: never).")
    var maxFailures: Int?

    @Option(help: "Write the pushes to this file instead of stdout.")
    var out: String?

    func validate() throws {
        try FollowRun.validate(baseURL: baseURL, interval: interval, timeout: timeout, maxFailures: maxFailures)
    }

    /// Follows `source` into the log until its end (or a signal), printing the pushes and a summary.
    func follow(_ source: LiveSource) async throws {
        let name = "\(source.format.name) \(source.game)"
        let milliseconds = { (seconds: Double) in Duration.milliseconds(Int64((seconds * 1000).rounded())) }
        let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let follower = PollFollower(
            source: source,
            configuration: .init(interval: milliseconds(interval), maximumFailures: maxFailures),
            client: DocumentClient(httpClient: httpClient, requestTimeout: milliseconds(timeout)),
            logger: Runtime.logger)
        let done: PollSummary?
        do {
            done = try await FollowRun.run(name: name, out: out) { store, emit in
                try await follower.run(load: { try await store.stream($0).map(\.message) }) { messages in
                    _ = try await store.store(messages, source: name, emit: emit)
                }
            }
            try? await httpClient.shutdown()
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        if let s = done {
            Output.error(
                "followed \(name) until its end: \(s.documents) document(s) converted, \(s.unchanged) unchanged, "
                    + "\(s.malformed) unreadable, \(s.retries) retried request(s), \(s.messages) message(s), "
                    + "\(s.retractions) play(s) retracted")
        }
    }
}

/// What every live follower's command shares: the log's game store, the pushes written as JSON lines,
/// a stop on SIGINT/SIGTERM, and the error named after the follow.
enum FollowRun {
    /// The checks of the options every follower shares.
    static func validate(baseURL: String?, interval: Double?, timeout: Double, maxFailures: Int?) throws {
        if let baseURL {
            guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://"), URL(string: baseURL) != nil else {
                throw ValidationError("--base-url must be an http:// or https:// URL")
            }
        }
        if let interval, !(0.001...86_400).contains(interval) {
            throw ValidationError("--interval must be a number of seconds from 0.001 to 86400")
        }
        guard (0.001...3_600).contains(timeout) else {
            throw ValidationError("--timeout must be a number of seconds from 0.001 to 3600")
        }
        if let maxFailures, maxFailures < 1 { throw ValidationError("--max-failures must be at least 1") }
    }

    /// Writes one push of a game.
    typealias Emit = @Sendable (_ gameId: String, _ push: PlannedMessage) throws -> Void

    /// Runs `body` with the store and the pushes' sink until it returns (its result) or a signal (`nil`).
    static func run<Result: Sendable>(
        name: String, out: String?, _ body: @escaping @Sendable (GameStore, @escaping Emit) async throws -> Result
    ) async throws -> Result? {
        let sink = try CommandSink(path: out)
        let connection = try await Runtime.openDatabase()
        let store = GameStore(
            replayer: Replayer(
                ingestor: Ingestor(connection: connection), projector: Projector(clock: .wall({ Date() }))))
        let emit: Emit = { try sink.write($1.jsonLine(gameId: $0) + "\n") }
        let result: Swift.Result<Result?, any Error>
        do {
            result = .success(
                try await withThrowingTaskGroup(of: Result?.self) { group in
                    group.addTask { try await body(store, emit) }
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
        try sink.close()
        await connection.close()
        switch result {
        case .failure(let error):
            throw CLIError("follow \(name): \(error)")
        case .success(nil):
            Output.error("stopped following \(name) (signal)")
            return nil
        case .success(let done?):
            return done
        }
    }
}

/// `scorefeed follow nhl GAME`: the NHL's api-web gamecenter play-by-play of one game.
struct FollowNHLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nhl",
        abstract: "Follow one game of the NHL's live play-by-play until it ends.",
        discussion: """
            Polls GET /v1/gamecenter/GAME/play-by-play (conditional requests: If-None-Match, \
            If-Modified-Since) and converts each changed document as `convert --format nhl-web` does \
            (game id nhl-GAME); only what the log does not hold is appended: a goal the league edited \
            is retracted and stored again, one it removed is retracted. Failed requests are retried \
            with exponential backoff; documents that cannot be converted are logged and skipped. Stops \
            once the log holds the game's end, or on SIGINT/SIGTERM; a restart goes on from the log. \
            See docs/providers.md, "Following live".
            """
    )

    @Argument(help: "The game's id, e.g. 2024020033.")
    var game: Int

    @OptionGroup var options: PollOptions

    func validate() throws {
        guard game > 0 else { throw ValidationError("GAME must be a positive integer") }
    }

    func run() async throws {
        try await options.follow(.nhl(game: game, baseURL: options.baseURL ?? "https://api-web.nhle.com"))
    }
}

/// `scorefeed follow nba GAME`: the NBA's live data play-by-play of one game, with its box score.
struct FollowNBACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nba",
        abstract: "Follow one game of the NBA's live play-by-play until it ends.",
        discussion: """
            Fetches the game's box score once (teams, start time), then polls \
            /static/json/liveData/playbyplay/playbyplay_GAME.json (conditional requests) and converts \
            each changed document as `convert --format nba-live` does (game id nba-GAME); only what the \
            log does not hold is appended: a basket the league edited (a new edit stamp) or removed is \
            retracted. Failed requests are retried with exponential backoff. Stops once the log holds \
            the game's end, or on SIGINT/SIGTERM; a restart goes on from the log. See docs/providers.md, \
            "Following live".
            """
    )

    @Argument(help: "The game's id, ten digits, e.g. 0022000180.")
    var game: String

    @OptionGroup var options: PollOptions

    func validate() throws {
        guard game.count == 10, game.allSatisfy(\.isASCII), game.allSatisfy(\.isNumber) else {
            throw ValidationError("GAME must be the NBA's ten-digit game id, e.g. 0022000180")
        }
    }

    func run() async throws {
        try await options.follow(.nba(game: game, baseURL: options.baseURL ?? "https://cdn.nba.com"))
    }
}
