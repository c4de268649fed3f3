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
        let gamePk = configuration.gamePk
        var view = start
        var summary = MLBFollowSummary()
        var document: (json: JSONValue, timecode: MLBTimecode)?
        var failures = 0
        var fetchedOnce = false
        var afterGameOver = 0
        if view.state?.status.isEnded == true {
            logger.info("game already ended in the log; nothing to follow", metadata: metadata(view, nil))
            return (view, summary)
        }
        while true {
            try Task.checkCancellation()
            // 1. Fetch: the patches since the document we hold, or the whole document.
            let candidate: JSONValue
            do {
                if let held = document {
                    let data = try await client.diffPatch(gamePk: gamePk, since: held.timecode, logger: logger)
                    failures = 0
                    switch decode(data, view, held.timecode) {
                    case .none:
                        summary.malformed += 1
                        try await pause(nil)
                        continue
                    case .some(let json):
                        switch Result(catching: { () throws(JSONPatchError) in try MLBPatchResponse(json: json) }) {
                        case .success(.document(let whole)):
                            candidate = whole
                        case .success(.patches(let patches)):
                            var patched = held.json
                            do throws(JSONPatchError) {
                                for patch in patches { try patch.apply(to: &patched) }
                            } catch {
                                logger.warning(
                                    "patch does not apply; fetching the whole document",
                                    metadata: metadata(view, held.timecode, ["error": "\(error)"]))
                                document = nil
                                summary.refetches += 1
                                continue
                            }
                            if patches.isEmpty {
                                try await pause(held.json)
                                continue
                            }
                            summary.patches += 1
                            candidate = patched
                        case .failure(let error):
                            logger.error(
                                "unexpected diffPatch answer; fetching the whole document",
                                metadata: metadata(view, held.timecode, ["error": "\(error)"]))
                            document = nil
                            summary.malformed += 1
                            summary.refetches += 1
                            continue
                        }
                    }
                } else {
                    let data = try await client.live(gamePk: gamePk, logger: logger)
                    failures = 0
                    fetchedOnce = true
                    guard let json = decode(data, view, nil) else {
                        summary.malformed += 1
                        try await pause(nil)
                        continue
                    }
                    candidate = json
                }
            } catch let error as MLBFetchError {
                if !fetchedOnce, error.kind == .status, error.status == 404 {
                    throw MLBFollowError("game \(gamePk) not found at \(client.liveURL(gamePk: gamePk)) (HTTP 404)")
                }
                failures += 1
                summary.retries += 1
                if document != nil, error.abandonsPatches || failures >= 3 {
                    // The provider will not (or cannot) patch from this timecode: start again from a whole document.
                    document = nil
                    summary.refetches += 1
                }
                if let limit = configuration.maximumFailures, failures >= limit {
                    throw MLBFollowError("giving up on game \(gamePk) after \(failures) failed requests: \(error)")
                }
                let delay = configuration.backoff.delay(attempt: failures, unitRandom: random())
                logger.warning(
                    "feed request failed; retrying",
                    metadata: metadata(
                        view, document?.timecode,
                        ["error": "\(error)", "retry.attempt": "\(failures)", "retry.delay": "\(delay)"]))
                try await sleep(delay)
                continue
            }

            // 2. Read it.
            let snapshot: MLBSnapshot
            do {
                snapshot = try MLBSnapshot(json: candidate)
            } catch {
                // A document that cannot be read is dropped; the next poll fetches a whole one.
                logger.error(
                    "malformed feed document; keeping the last good state",
                    metadata: metadata(view, timecode(of: candidate), ["error": "\(error)"]))
                summary.malformed += 1
                document = nil
                try await pause(nil)
                continue
            }

            // 3. Compare with what was sent.
            let diff = MLBDiffer.diff(view, snapshot)
            switch diff.outcome {
            case .otherGame(let other):
                logger.error(
                    "the feed answered with another game; ignored",
                    metadata: metadata(view, snapshot.timecode, ["mlb.otherGamePk": "\(other)"]))
                summary.malformed += 1
                document = nil
                try await pause(nil)
                continue
            case .stale(let last):
                logger.notice(
                    "older document than the last applied; ignored",
                    metadata: metadata(view, snapshot.timecode, ["mlb.lastTimecode": "\(last)"]))
                summary.stale += 1
                // Keep patching from the newer document held, if any.
                try await pause(document?.json)
                continue
            case .applied:
                break
            }
            for note in diff.notes {
                logger.notice(
                    "feed change without a canonical message",
                    metadata: metadata(view, snapshot.timecode, ["note": "\(note)"]))
            }
            if !diff.messages.isEmpty {
                try await store(diff)
                summary.messages += diff.messages.count
                logger.info(
                    "feed document applied",
                    metadata: metadata(diff.view, snapshot.timecode, ["messages": "\(diff.messages.count)"]))
            }
            summary.applied += 1
            view = diff.view
            document = (candidate, snapshot.timecode)
            if let state = view.state, state.status.isEnded {
                afterGameOver += 1
                if MLBPhase.isOfficialEnd(snapshot.status) || afterGameOver > configuration.documentsAfterGameOver {
                    logger.info(
                        "game ended; stopping",
                        metadata: metadata(view, snapshot.timecode, ["status": "\(state.status.rawValue)"]))
                    return (view, summary)
                }
                if afterGameOver == 1 {
                    logger.info(
                        "game over; following until the feed says Final (scorers may still correct plays)",
                        metadata: metadata(view, snapshot.timecode))
                }
            }
            try await pause(candidate)
        }
    }

    /// Waits the configured interval, or the document's `metaData.wait`, or 10 s.
    private func pause(_ document: JSONValue?) async throws {
        if let interval = configuration.interval {
            try await sleep(interval)
            return
        }
        var wait = 10
        if case .object(let root)? = document, case .object(let meta)? = root["metaData"],
            case .int(let seconds)? = meta["wait"]
        {
            wait = min(max(seconds, 1), 3600)
        }
        try await sleep(.seconds(wait))
    }

    private func decode(_ data: Data, _ view: MLBGameView, _ timecode: MLBTimecode?) -> JSONValue? {
        do {
            return try JSONValue.parse(data)
        } catch {
            logger.error(
                "feed answer is not JSON; keeping the last good state",
                metadata: metadata(view, timecode, ["error": "\(error)"]))
            return nil
        }
    }

    private func timecode(of document: JSONValue) -> MLBTimecode? {
        guard case .object(let root) = document, case .object(let meta)? = root["metaData"],
            case .string(let text)? = meta["timeStamp"]
        else { return nil }
        return MLBTimecode(text)
    }

    private func metadata(_ view: MLBGameView, _ timecode: MLBTimecode?, _ extra: Logger.Metadata = [:])
        -> Logger.Metadata
    {
        var metadata: Logger.Metadata = ["game.id": "\(view.gameId)", "mlb.gamePk": "\(view.gamePk)"]
        if let timecode = timecode ?? view.timecode { metadata["mlb.timecode"] = "\(timecode)" }
        return metadata.merging(extra) { _, new in new }
    }
}
