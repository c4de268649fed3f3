import Foundation
import Logging
import MLBFeed
import Retry
import ScoreDomain

/// The follower gave up.
public struct MLBFollowError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Counts of one follow run.
public struct MLBFollowSummary: Sendable, Equatable {
    /// Documents compared with the view (full or patched).
    public var applied = 0
    /// Documents ignored because they were older than the newest applied one.
    public var stale = 0
    /// Documents that could not be read (bad JSON, bad fields, another game).
    public var malformed = 0
    /// Patch answers applied.
    public var patches = 0
    /// Whole documents fetched after a patch did not apply.
    public var refetches = 0
    /// Requests that failed and were retried.
    public var retries = 0
    /// Messages handed to the store.
    public var messages = 0

    public init() {}
}

/// Follows one game's GUMBO live feed until it ends: polls the whole document once, then the
/// patches since its timecode (refetching the whole document when a patch does not apply), turns
/// every newer document into canonical messages with ``MLBDiffer`` and hands them to `store`.
///
/// Failed requests (5xx, 429, timeouts, connection errors) are retried with exponential backoff and
/// full jitter; a document that cannot be read is logged (game and timecode) and skipped, keeping
/// the last good state. Time and randomness are injected, so tests do not wait.
public struct MLBFollower: Sendable {
    /// How to follow.
    public struct Configuration: Sendable {
        /// The game.
        public var gamePk: Int
        /// The time between polls; `nil`: the document's `metaData.wait` (10 s when absent).
        public var interval: Duration?
        /// Waits between retries of failed requests.
        public var backoff: Backoff
        /// Give up after this many failed requests in a row; `nil`: never.
        public var maximumFailures: Int?
        /// After `Game Over`, how many more documents to wait for the official `Final` (scorers may
        /// still correct plays in between) before stopping anyway.
        public var documentsAfterGameOver: Int

        public init(
            gamePk: Int, interval: Duration? = nil, backoff: Backoff = .feed, maximumFailures: Int? = nil,
            documentsAfterGameOver: Int = 360
        ) {
            self.gamePk = gamePk
            self.interval = interval
            self.backoff = backoff
            self.maximumFailures = maximumFailures
            self.documentsAfterGameOver = documentsAfterGameOver
        }
    }

    public let configuration: Configuration
    public let client: MLBFeedClient
    public let logger: Logger
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double

    /// Creates a follower.
    /// - Parameters:
    ///   - sleep: waits (default `Task.sleep`); throwing stops the follower (cancellation).
    ///   - random: a number in `0...1` for the jitter (default: the system generator).
    public init(
        configuration: Configuration, client: MLBFeedClient, logger: Logger,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.configuration = configuration
        self.client = client
        self.logger = logger
        self.sleep = sleep
        self.random = random
    }

    /// Follows the game from `view` (the log's view of it) until it has ended.
    /// - Parameter store: receives each document's messages (non-empty) with the diff; the view only
    ///   moves on once it returns, so a store that throws loses nothing (the follower stops).
    /// - Returns: the last view and the counts.
    /// - Throws: ``MLBFollowError`` (unknown game, too many failures), what `store` throws,
    ///   `CancellationError`.
    public func run(
        from start: MLBGameView, store: @Sendable (MLBDiff) async throws -> Void
    ) async throws -> (view: MLBGameView, summary: MLBFollowSummary) {
        // Every decision is the state machine's; this loop performs its actions.
        let gamePk = configuration.gamePk
        var machine = FollowerStateMachine(
            configuration: configuration, view: start, liveURL: client.liveURL(gamePk: gamePk))
        var step = machine.start()
        while true {
            for note in step.notes {
                logger.log(
                    level: note.level, "\(note.message)",
                    metadata: metadata(machine.view, note.timecode, note.details.mapValues { "\($0)" }))
            }
            switch step.action {
            case .fetchDocument:
                do {
                    step = machine.received(try await client.live(gamePk: gamePk, logger: logger))
                } catch {
                    step = machine.failed(error, unitRandom: random())
                }
            case .fetchPatches(let since):
                do {
                    step = machine.received(try await client.diffPatch(gamePk: gamePk, since: since, logger: logger))
                } catch {
                    step = machine.failed(error, unitRandom: random())
                }
            case .store(let diff):
                try await store(diff)
                step = machine.stored()
            case .sleep(let duration):
                try await sleep(duration)
                step = machine.woke()
            case .finish:
                return (machine.view, machine.summary)
            case .fail(let reason):
                throw MLBFollowError(reason)
            }
            try Task.checkCancellation()
        }
    }

    private func metadata(_ view: MLBGameView, _ timecode: MLBTimecode?, _ extra: Logger.Metadata = [:])
        -> Logger.Metadata
    {
        var metadata: Logger.Metadata = ["game.id": "\(view.gameId)", "mlb.gamePk": "\(view.gamePk)"]
        if let timecode = timecode ?? view.timecode { metadata["mlb.timecode"] = "\(timecode)" }
        return metadata.merging(extra) { _, new in new }
    }
}
