import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Retry
import ScoreDomain
import Synchronization

/// Follows games through a Sportradar push feed: a long-lived chunked HTTP stream of JSON lines
/// (``PushLine``). A payload says *that* a game changed; what changed is read from the game's REST
/// play-by-play (``LiveSource``), conditionally, converted and diffed against the log as the polled
/// followers do (``PollStateMachine``, ``PollDiff``): the REST document is the game's whole truth
/// (Sportradar: "Push does not provide a stateful session … use the RESTful feed to catch up"), so
/// nothing is stored twice, a payload lost in a gap is not a play lost, and a deleted or edited play
/// is retracted. Payloads that come while a game is being read are coalesced into one more read.
///
/// The stream is reconnected with backoff when it ends, fails or stalls (no line, not even a
/// heartbeat, within the client's read timeout); after every connection every game seen so far is
/// read again (the catch-up after a gap). The API key goes in the `x-api-key` header and is never
/// logged.
public struct PushFollower: Sendable {
    /// How to follow.
    public struct Configuration: Sendable {
        /// The push feed's subscribe URL.
        public var streamURL: String
        /// The game's REST source (its play-by-play) for a game id of the feed.
        public var source: @Sendable (String) -> LiveSource
        /// Only this game (and stop at its end); `nil`: every game of the feed, until stopped.
        public var game: String?
        /// Sent as `x-api-key` on the stream and the REST requests.
        public var apiKey: String?
        /// Waits between reconnections and between retries of failed REST requests.
        public var backoff: Backoff
        /// Give up after this many failed connections or requests in a row; `nil`: never.
        public var maximumFailures: Int?

        public init(
            streamURL: String, source: @escaping @Sendable (String) -> LiveSource, game: String? = nil,
            apiKey: String? = nil, backoff: Backoff = .feed, maximumFailures: Int? = nil
        ) {
            self.streamURL = streamURL
            self.source = source
            self.game = game
            self.apiKey = apiKey
            self.backoff = backoff
            self.maximumFailures = maximumFailures
        }
    }

    /// Counts of one push follow.
    public struct Summary: Sendable, Equatable {
        public var connections = 0
        public var heartbeats = 0
        public var payloads = 0
        public var unreadable = 0
        /// REST reads of a game (each after payloads or a connection).
        public var reads = 0
        /// What the reads appended, as the polled followers count it.
        public var documents = PollSummary()
        /// Games whose end the log holds.
        public var ended: [String] = []
    }

    /// The follower gave up.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public let configuration: Configuration
    /// The stream's client: its read timeout is the stall limit (3 heartbeats is a good one).
    public let streamClient: HTTPClient
    /// The REST documents' client.
    public let client: DocumentClient
    public let logger: Logger
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double

    public init(
        configuration: Configuration, streamClient: HTTPClient, client: DocumentClient, logger: Logger,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.configuration = configuration
        self.streamClient = streamClient
        self.client = client
        self.logger = logger
        self.sleep = sleep
        self.random = random
    }

    /// What the stream asks the reader to read, shared by the two tasks.
    private final class Work: Sendable {
        struct Pending {
            var games: [String] = []
            var catchUp = false
        }
        let pending = Mutex(Pending())
        let summary = Mutex(Summary())
        let wake: AsyncStream<Void>.Continuation
        let signals: AsyncStream<Void>

        init() {
            (signals, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        }

        func ask(game: String?, catchUp: Bool) {
            pending.withLock {
                if let game, !$0.games.contains(game) { $0.games.append(game) }
                if catchUp { $0.catchUp = true }
            }
            wake.yield()
        }
    }

    /// Follows until the followed game has ended (with ``Configuration/game``), a task is cancelled,
    /// or too many failures in a row.
    /// - Parameters:
    ///   - load: a game's stream in the log, in order.
    ///   - store: appends messages; a read moves on only once it returns.
    public func run(
        load: @escaping @Sendable (String) async throws -> [FeedMessage],
        store: @escaping @Sendable ([FeedMessage]) async throws -> Void
    ) async throws -> Summary {
        let work = Work()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await listen(work) }
            group.addTask { try await read(work, load: load, store: store) }
            try await group.next()
            group.cancelAll()
        }
        return work.summary.withLock { $0 }
    }

    // MARK: - The stream

    private func listen(_ work: Work) async throws {
        var failures = 0
        while true {
            try Task.checkCancellation()
            do {
                try await connect(work) { failures = 0 }
                logger.warning("push stream ended by the server; reconnecting", metadata: metadata())
            } catch let failure as Failure {
                throw failure
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                logger.warning("push stream failed; reconnecting", metadata: metadata(["error": "\(error)"]))
            }
            failures += 1
            if let limit = configuration.maximumFailures, failures >= limit {
                throw Failure(description: "giving up on the push stream after \(failures) failed connections")
            }
            try await sleep(configuration.backoff.delay(attempt: failures, unitRandom: random()))
        }
    }

    private func connect(_ work: Work, alive: () -> Void) async throws {
        var request = HTTPClientRequest(url: configuration.streamURL)
        request.headers.add(name: "accept", value: "application/json")
        request.headers.add(name: "user-agent", value: "ScoreFeed")
        if let key = configuration.apiKey { request.headers.add(name: "x-api-key", value: key) }
        let response = try await streamClient.execute(request, deadline: .distantFuture, logger: logger)
        switch response.status.code {
        case 200: break
        case 401, 403, 404:
            throw Failure(
                description: "the push feed \(Self.redacted(configuration.streamURL)) answered HTTP "
                    + "\(response.status.code) (a wrong URL or API key)")
        default:
            throw FetchError(.status, status: Int(response.status.code), "push stream refused")
        }
        work.summary.withLock { $0.connections += 1 }
        logger.info("push stream connected", metadata: metadata())
        // A gap may have passed: read every game again (and the followed one at once).
        work.ask(game: configuration.game, catchUp: true)
        var splitter = LineSplitter()
        for try await chunk in response.body {
            for line in try splitter.lines(chunk.readableBytesView) {
                guard let parsed = PushLine.parse(line) else { continue }
                alive()
                switch parsed {
                case .heartbeat: work.summary.withLock { $0.heartbeats += 1 }
                case .payload(let game, _):
                    guard configuration.game == nil || configuration.game == game else { continue }
                    work.summary.withLock { $0.payloads += 1 }
                    work.ask(game: game, catchUp: false)
                case .other: continue
                case .unreadable:
                    work.summary.withLock { $0.unreadable += 1 }
                    logger.warning("push line is not JSON; ignored", metadata: metadata())
                }
            }
        }
    }

    // MARK: - The games' REST documents

    private func read(
        _ work: Work, load: @Sendable (String) async throws -> [FeedMessage],
        store: @Sendable ([FeedMessage]) async throws -> Void
    ) async throws {
        var machines: [String: PollStateMachine] = [:]
        var seen: [String] = []
        var ended = Set<String>()
        for await _ in work.signals {
            let asked = work.pending.withLock { pending in
                defer { pending = .init() }
                return pending
            }
            var games = asked.games
            if asked.catchUp { games = seen + games.filter { !seen.contains($0) } }
            for game in games where !ended.contains(game) {
                if !seen.contains(game) { seen.append(game) }
                var machine =
                    machines[game]
                    ?? PollStateMachine(
                        source: configuration.source(game),
                        configuration: .init(
                            interval: .zero, backoff: configuration.backoff,
                            maximumFailures: configuration.maximumFailures))
                let outcome = try await readOnce(&machine, load: load, store: store)
                machines[game] = machine
                work.summary.withLock {
                    $0.reads += 1
                    $0.documents = Self.total(machines.values.map(\.summary))
                    if outcome == .ended { $0.ended.append(game) }
                }
                if outcome == .ended {
                    ended.insert(game)
                    if game == configuration.game { return }
                }
            }
        }
    }

    private enum ReadOutcome { case done, ended }

    /// One read of a game: fetch its document, append what is new; retries a failed request.
    private func readOnce(
        _ machine: inout PollStateMachine, load: @Sendable (String) async throws -> [FeedMessage],
        store: @Sendable ([FeedMessage]) async throws -> Void
    ) async throws -> ReadOutcome {
        var step = machine.isPaused ? machine.woke() : machine.start()
        let game = machine.source.game
        while true {
            for note in step.notes {
                logger.log(
                    level: note.level, "\(note.message)",
                    metadata: metadata(note.details.merging(["provider.game": game]) { $1 }))
            }
            switch step.action {
            case .fetch(let url, let validators):
                let headers = configuration.apiKey.map { [("x-api-key", $0)] } ?? []
                do {
                    step = machine.fetched(
                        try await client.get(url, validators: validators, headers: headers, logger: logger))
                } catch {
                    step = machine.failed(error, unitRandom: random())
                }
            case .load(let gameId):
                step = machine.loaded(try await load(gameId))
            case .store(let messages):
                try await store(messages)
                step = machine.stored()
            case .sleep(let duration):
                if machine.isPaused { return .done }
                try await sleep(duration)
                step = machine.woke()
            case .finish:
                return .ended
            case .fail(let reason):
                if game == configuration.game { throw Failure(description: reason) }
                logger.error("game left", metadata: metadata(["provider.game": "\(game)", "error": "\(reason)"]))
                return .ended
            }
            try Task.checkCancellation()
        }
    }

    private static func total(_ summaries: [PollSummary]) -> PollSummary {
        summaries.reduce(into: PollSummary()) { total, one in
            total.documents += one.documents
            total.unchanged += one.unchanged
            total.malformed += one.malformed
            total.retries += one.retries
            total.messages += one.messages
            total.retractions += one.retractions
        }
    }

    private func metadata(_ extra: [String: String] = [:]) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["push.url": "\(Self.redacted(configuration.streamURL))"]
        for (key, value) in extra { metadata[key] = "\(value)" }
        return metadata
    }

    /// The URL with the value of any `api_key` query parameter hidden.
    public static func redacted(_ url: String) -> String {
        guard let query = url.firstIndex(of: "?") else { return url }
        let parameters = url[url.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
            .map { parameter -> String in
                parameter.lowercased().hasPrefix("api_key=") ? "api_key=[redacted]" : String(parameter)
            }
        return url[...query] + parameters.joined(separator: "&")
    }
}
