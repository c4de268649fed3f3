import Foundation
import Logging
import Retry
import ScoreDomain

/// Follows one game of a provider's polled live document (``LiveSource``) until the log holds its
/// end: performs the actions of ``PollStateMachine``. Failed requests (5xx, 429, timeouts, dropped
/// connections) are retried with exponential backoff and full jitter; a document that cannot be
/// converted is logged and skipped. Time and randomness are injected, so tests do not wait.
public struct PollFollower: Sendable {
    /// How to follow.
    public struct Configuration: Sendable {
        /// The time between polls.
        public var interval: Duration
        /// Waits between retries of failed requests.
        public var backoff: Backoff
        /// Give up after this many failed requests in a row; `nil`: never.
        public var maximumFailures: Int?

        public init(interval: Duration = .seconds(10), backoff: Backoff = .feed, maximumFailures: Int? = nil) {
            self.interval = interval
            self.backoff = backoff
            self.maximumFailures = maximumFailures
        }
    }

    /// The follower gave up.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public let source: LiveSource
    public let configuration: Configuration
    public let client: DocumentClient
    public let logger: Logger
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double

    /// Creates a follower.
    /// - Parameters:
    ///   - sleep: waits (default `Task.sleep`); throwing stops the follower (cancellation).
    ///   - random: a number in `0...1` for the jitter (default: the system generator).
    public init(
        source: LiveSource, configuration: Configuration, client: DocumentClient, logger: Logger,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.source = source
        self.configuration = configuration
        self.client = client
        self.logger = logger
        self.sleep = sleep
        self.random = random
    }

    /// Follows the game until the log holds its end.
    /// - Parameters:
    ///   - load: the game's stream in the log, in order.
    ///   - store: appends messages; the follower moves on only once it returns.
    /// - Returns: the counts.
    /// - Throws: ``Failure`` (unknown game, too many failures), what `load` or `store` throws,
    ///   `CancellationError`.
    public func run(
        load: @Sendable (String) async throws -> [FeedMessage], store: @Sendable ([FeedMessage]) async throws -> Void
    ) async throws -> PollSummary {
        var machine = PollStateMachine(source: source, configuration: configuration)
        var step = machine.start()
        while true {
            for note in step.notes {
                var metadata: Logger.Metadata = [
                    "provider.format": "\(source.format.name)", "provider.game": "\(source.game)",
                ]
                for (key, value) in note.details { metadata[key] = "\(value)" }
                logger.log(level: note.level, "\(note.message)", metadata: metadata)
            }
            switch step.action {
            case .fetch(let url, let validators):
                do {
                    step = machine.fetched(try await client.get(url, validators: validators, logger: logger))
                } catch {
                    step = machine.failed(error, unitRandom: random())
                }
            case .load(let gameId):
                step = machine.loaded(try await load(gameId))
            case .store(let messages):
                try await store(messages)
                step = machine.stored()
            case .sleep(let duration):
                try await sleep(duration)
                step = machine.woke()
            case .finish:
                return machine.summary
            case .fail(let reason):
                throw Failure(description: reason)
            }
            try Task.checkCancellation()
        }
    }
}
