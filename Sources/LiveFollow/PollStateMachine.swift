import Foundation
import Logging
import Providers
import Retry
import ScoreDomain

/// Every decision of a follower that polls a provider's whole live document (NHL, NBA), as a pure
/// state machine: each input returns the next ``Action`` with the log lines that explain it; the
/// driver (``PollFollower``) only performs them. No clock, no randomness, no I/O here.
///
/// The cycle: fetch the companion once (if any), then poll the document conditionally (its `ETag`
/// and `Last-Modified`); convert a changed one with the source's format; read the game's stream
/// from the log once; append what ``PollDiff`` finds new; stop once the log holds the game's end.
public struct PollStateMachine: Sendable {
    /// What the driver does next.
    public enum Action: Sendable, Equatable {
        /// GET `url` (conditionally with `validators`); answer ``fetched(_:)`` or ``failed(_:unitRandom:)``.
        case fetch(url: String, validators: Validators?)
        /// Read the game's stream from the log; answer ``loaded(_:)``.
        case load(gameId: String)
        /// Append these messages; answer ``stored()``.
        case store([FeedMessage])
        /// Wait; answer ``woke()``.
        case sleep(Duration)
        /// The game has ended in the log.
        case finish
        /// Give up with this reason.
        case fail(String)
    }

    /// A log line decided with an action.
    public struct Note: Sendable, Equatable {
        public var level: Logger.Level
        public var message: String
        public var details: [String: String]
    }

    /// One decision: what to log, then what to do.
    public struct Step: Sendable, Equatable {
        public var notes: [Note]
        public var action: Action
    }

    private enum Phase: Sendable {
        case companion, document
        case loading([FeedMessage])
        case storing([FeedMessage])
        case waiting
    }

    public let source: LiveSource
    public let configuration: PollFollower.Configuration
    public private(set) var summary = PollSummary()
    /// The game's stream as the log holds it (once read).
    public private(set) var log: [FeedMessage]?
    private var phase: Phase
    private var companion: JSONValue?
    private var validators: Validators?
    private var failures = 0
    private var documentSeen = false

    public init(source: LiveSource, configuration: PollFollower.Configuration) {
        self.source = source
        self.configuration = configuration
        self.phase = source.companionURL == nil ? .document : .companion
    }

    /// Whether the machine waits for its next poll (the last one was taken), not for a retry.
    public var isPaused: Bool {
        if case .waiting = phase { return true }
        return false
    }

    /// The follow starts.
    public mutating func start() -> Step { Step(notes: [], action: fetchAction) }

    /// The fetch asked for answered.
    public mutating func fetched(_ answer: Fetched) -> Step {
        failures = 0
        switch (phase, answer) {
        case (.companion, .document(let data, _)):
            phase = .document
            guard let json = try? JSONValue.parse(data) else {
                let warning = note(.warning, "companion document is not JSON; going on without it")
                return Step(notes: [warning], action: fetchAction)
            }
            companion = json
            return Step(notes: [], action: fetchAction)
        case (_, .notModified):
            summary.unchanged += 1
            return pause([])
        case (_, .document(let data, let answered)):
            return consider(data, answered)
        }
    }

    /// The fetch asked for failed; `unitRandom` (in `0...1`) draws the retry's jitter.
    public mutating func failed(_ error: FetchError, unitRandom: Double) -> Step {
        if case .companion = phase, error.status == 404 {
            phase = .document
            return Step(
                notes: [note(.notice, "no companion document (HTTP 404); going on without it")], action: fetchAction)
        }
        if !documentSeen, case .document = phase, error.status == 404 {
            return Step(notes: [], action: .fail("game \(source.game) not found at \(source.documentURL) (HTTP 404)"))
        }
        failures += 1
        summary.retries += 1
        if let limit = configuration.maximumFailures, failures >= limit {
            return Step(
                notes: [], action: .fail("giving up on game \(source.game) after \(failures) failed requests: \(error)")
            )
        }
        let delay = configuration.backoff.delay(attempt: failures, unitRandom: unitRandom)
        let warning = note(
            .warning, "request failed; retrying",
            ["error": "\(error)", "retry.attempt": "\(failures)", "retry.delay": "\(delay)"])
        return Step(notes: [warning], action: .sleep(delay))
    }

    /// The log's stream of the game, asked for by ``Action/load(gameId:)``.
    public mutating func loaded(_ messages: [FeedMessage]) -> Step {
        guard case .loading(let converted) = phase else { return Step(notes: [], action: fetchAction) }
        log = messages
        if hasEnded {
            return Step(notes: [note(.info, "game already ended in the log; nothing to follow")], action: .finish)
        }
        return decide(converted)
    }

    /// The store took the messages.
    public mutating func stored() -> Step {
        guard case .storing(let messages) = phase else { return Step(notes: [], action: fetchAction) }
        log = (log ?? []) + messages
        summary.messages += messages.count
        return afterward([note(.info, "document applied", ["messages": "\(messages.count)"])])
    }

    /// A wait ended.
    public mutating func woke() -> Step {
        if case .waiting = phase { phase = .document }
        return Step(notes: [], action: fetchAction)
    }

    // MARK: - Rules

    private var fetchAction: Action {
        if case .companion = phase, let url = source.companionURL { return .fetch(url: url, validators: nil) }
        return .fetch(url: source.documentURL, validators: validators)
    }

    private mutating func consider(_ data: Data, _ answered: Validators) -> Step {
        documentSeen = true
        let converted: [FeedMessage]
        do {
            let document = try JSONValue.parse(data)
            converted = try source.format.convert(companion.map { [$0, document] } ?? [document])
        } catch {
            // Asked again in full next time: the same validators would only say "not modified".
            summary.malformed += 1
            validators = nil
            let problem = note(.error, "document cannot be converted; the log stays as it is", ["error": "\(error)"])
            return pause([problem])
        }
        summary.documents += 1
        validators = answered.etag == nil && answered.lastModified == nil ? nil : answered
        guard let gameId = converted.first?.gameId else { return pause([]) }
        guard log != nil else {
            phase = .loading(converted)
            return Step(notes: [], action: .load(gameId: gameId))
        }
        return decide(converted)
    }

    private mutating func decide(_ converted: [FeedMessage]) -> Step {
        let outcome = PollDiff.diff(stored: log ?? [], converted: converted, owner: source.format.name + "-")
        summary.retractions += outcome.retractions
        let notes = outcome.notes.map { note(.warning, "provider change not taken", ["change": $0]) }
        guard outcome.messages.isEmpty else {
            phase = .storing(outcome.messages)
            return Step(notes: notes, action: .store(outcome.messages))
        }
        return afterward(notes)
    }

    private mutating func afterward(_ notes: [Note]) -> Step {
        if hasEnded {
            return Step(notes: notes + [note(.info, "game ended; stopping")], action: .finish)
        }
        return pause(notes)
    }

    private var hasEnded: Bool {
        log?.contains { if case .gameEnded = $0.event { true } else { false } } == true
    }

    private mutating func pause(_ notes: [Note]) -> Step {
        phase = .waiting
        return Step(notes: notes, action: .sleep(configuration.interval))
    }

    private func note(_ level: Logger.Level, _ message: String, _ details: [String: String] = [:]) -> Note {
        Note(level: level, message: message, details: details)
    }
}

/// Counts of one poll follow.
public struct PollSummary: Sendable, Equatable {
    /// Changed documents converted.
    public var documents = 0
    /// Polls answered "not modified" (304).
    public var unchanged = 0
    /// Documents that could not be converted (skipped).
    public var malformed = 0
    /// Requests that failed and were retried.
    public var retries = 0
    /// Messages appended (retractions included).
    public var messages = 0
    /// Plays retracted because the provider edited or removed them.
    public var retractions = 0

    public init() {}
}
