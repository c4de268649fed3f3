import Foundation
import LiveFollow
import Logging
import MLBFeed
import ScoreDomain

/// Every decision of the MLB follower, as a pure state machine (the model: postgres-nio's
/// connection state machines): each input — the follow starts, a fetch answered or failed, a
/// store finished, a wait ended — returns the next ``Action`` with the log lines that explain it.
/// The driver (``MLBFollower/run(from:store:)``) only performs actions: no clock, no randomness
/// (the jitter comes in with ``failed(_:unitRandom:)``), no I/O here.
public struct FollowerStateMachine: Sendable {
    /// What the driver does next.
    public enum Action: Sendable, Equatable {
        /// Fetch the whole document; answer with ``received(_:)`` or ``failed(_:unitRandom:)``.
        case fetchDocument
        /// Fetch the patches since this timecode; answer the same way.
        case fetchPatches(since: MLBTimecode)
        /// Hand the diff's messages to the store; answer with ``stored()``.
        case store(MLBDiff)
        /// Wait; answer with ``woke()``.
        case sleep(Duration)
        /// The game has ended: return the view and the summary.
        case finish
        /// Give up with this reason.
        case fail(String)
    }

    /// A log line decided with an action, about the document of `timecode` (or the view's).
    public struct Note: Sendable, Equatable {
        public var level: Logger.Level
        public var message: String
        public var timecode: MLBTimecode?
        public var details: [String: String]
    }

    /// One decision: what to log, then what to do.
    public struct Step: Sendable, Equatable {
        public var notes: [Note]
        public var action: Action
    }

    /// The document patches apply to.
    private struct Held: Sendable {
        var json: JSONValue
        var timecode: MLBTimecode
    }

    /// A diff handed to the store, waiting for ``stored()``.
    private struct Storing: Sendable {
        var diff: MLBDiff
        var document: JSONValue
        var snapshot: MLBSnapshot
    }

    public let configuration: MLBFollower.Configuration
    /// Where the whole document is fetched (named when the game is unknown).
    public let liveURL: String
    /// The log's view of the game: what has been stored.
    public private(set) var view: MLBGameView
    public private(set) var summary = MLBFollowSummary()
    private var held: Held?
    private var storing: Storing?
    private var failures = 0
    private var fetchedOnce = false
    private var afterGameOver = 0

    public init(configuration: MLBFollower.Configuration, view: MLBGameView, liveURL: String) {
        self.configuration = configuration
        self.view = view
        self.liveURL = liveURL
    }

    /// The follow starts.
    public mutating func start() -> Step {
        guard view.state?.status.isEnded != true else {
            return Step(notes: [note(.info, "game already ended in the log; nothing to follow")], action: .finish)
        }
        return Step(notes: [], action: nextFetch)
    }

    /// The fetch asked for answered `data`.
    public mutating func received(_ data: Data) -> Step {
        failures = 0
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            summary.malformed += 1
            let problem = note(
                .error, "feed answer is not JSON; keeping the last good state", held?.timecode, ["error": "\(error)"])
            return pause(notes: [problem], on: nil)
        }
        guard let held else {
            fetchedOnce = true
            return consider(json)
        }
        switch Result(catching: { () throws(JSONPatchError) in try MLBPatchResponse(json: json) }) {
        case .success(.document(let whole)):
            return consider(whole)
        case .success(.patches(let patches)):
            if patches.isEmpty { return pause(notes: [], on: held.json) }
            var patched = held.json
            do throws(JSONPatchError) {
                for patch in patches { try patch.apply(to: &patched) }
            } catch {
                self.held = nil
                summary.refetches += 1
                let warning = note(
                    .warning, "patch does not apply; fetching the whole document", held.timecode, ["error": "\(error)"])
                return Step(notes: [warning], action: .fetchDocument)
            }
            summary.patches += 1
            return consider(patched)
        case .failure(let error):
            self.held = nil
            summary.malformed += 1
            summary.refetches += 1
            let problem = note(
                .error, "unexpected diffPatch answer; fetching the whole document", held.timecode,
                ["error": "\(error)"])
            return Step(notes: [problem], action: .fetchDocument)
        }
    }

    /// The fetch asked for failed; `unitRandom` (in `0...1`) draws the retry's jitter.
    public mutating func failed(_ error: FetchError, unitRandom: Double) -> Step {
        if !fetchedOnce, error.kind == .status, error.status == 404 {
            return Step(
                notes: [],
                action: .fail("game \(configuration.gamePk) not found at \(liveURL) (HTTP 404)"))
        }
        failures += 1
        summary.retries += 1
        if held != nil, error.abandonsPatches || failures >= 3 {
            // The provider will not (or cannot) patch from this timecode: start again from a whole document.
            held = nil
            summary.refetches += 1
        }
        if let limit = configuration.maximumFailures, failures >= limit {
            return Step(
                notes: [],
                action: .fail("giving up on game \(configuration.gamePk) after \(failures) failed requests: \(error)"))
        }
        let delay = configuration.backoff.delay(attempt: failures, unitRandom: unitRandom)
        let warning = note(
            .warning, "feed request failed; retrying", held?.timecode,
            ["error": "\(error)", "retry.attempt": "\(failures)", "retry.delay": "\(delay)"])
        return Step(notes: [warning], action: .sleep(delay))
    }

    /// The store took the diff's messages: the view moves on.
    public mutating func stored() -> Step {
        guard let storing else { return Step(notes: [], action: nextFetch) }
        self.storing = nil
        summary.messages += storing.diff.messages.count
        let applied = Note(
            level: .info, message: "feed document applied", timecode: storing.snapshot.timecode,
            details: ["messages": "\(storing.diff.messages.count)"])
        return moveOn(storing, notes: [applied])
    }

    /// A wait ended.
    public mutating func woke() -> Step { Step(notes: [], action: nextFetch) }

    // MARK: - Rules

    private var nextFetch: Action { held.map { .fetchPatches(since: $0.timecode) } ?? .fetchDocument }

    /// A document, whole or patched: read it, compare it with the view, store what is new.
    private mutating func consider(_ document: JSONValue) -> Step {
        let snapshot: MLBSnapshot
        do {
            snapshot = try MLBSnapshot(json: document)
        } catch {
            // A document that cannot be read is dropped; the next poll fetches a whole one.
            summary.malformed += 1
            held = nil
            let problem = note(
                .error, "malformed feed document; keeping the last good state", Self.timecode(of: document),
                ["error": "\(error)"])
            return pause(notes: [problem], on: nil)
        }
        let diff = MLBDiffer.diff(view, snapshot)
        switch diff.outcome {
        case .otherGame(let other):
            summary.malformed += 1
            held = nil
            let problem = note(
                .error, "the feed answered with another game; ignored", snapshot.timecode,
                ["mlb.otherGamePk": "\(other)"])
            return pause(notes: [problem], on: nil)
        case .stale(let last):
            summary.stale += 1
            // Keep patching from the newer document held, if any.
            let stale = note(
                .notice, "older document than the last applied; ignored", snapshot.timecode,
                ["mlb.lastTimecode": "\(last)"])
            return pause(notes: [stale], on: held?.json)
        case .applied:
            let notes = diff.notes.map {
                note(.notice, "feed change without a canonical message", snapshot.timecode, ["note": "\($0)"])
            }
            let next = Storing(diff: diff, document: document, snapshot: snapshot)
            guard diff.messages.isEmpty else {
                storing = next
                return Step(notes: notes, action: .store(diff))
            }
            return moveOn(next, notes: notes)
        }
    }

    /// The document is applied: hold it for the next patches, and stop once the game has ended.
    private mutating func moveOn(_ applied: Storing, notes: [Note]) -> Step {
        summary.applied += 1
        view = applied.diff.view
        held = Held(json: applied.document, timecode: applied.snapshot.timecode)
        var notes = notes
        if let state = view.state, state.status.isEnded {
            afterGameOver += 1
            if MLBPhase.isOfficialEnd(applied.snapshot.status) || afterGameOver > configuration.documentsAfterGameOver {
                notes.append(
                    note(.info, "game ended; stopping", applied.snapshot.timecode, ["status": state.status.rawValue]))
                return Step(notes: notes, action: .finish)
            }
            if afterGameOver == 1 {
                notes.append(
                    note(
                        .info, "game over; following until the feed says Final (scorers may still correct plays)",
                        applied.snapshot.timecode))
            }
        }
        return pause(notes: notes, on: applied.document)
    }

    /// Waits the configured interval, or the document's `metaData.wait` (1 s to an hour), or 10 s.
    private func pause(notes: [Note], on document: JSONValue?) -> Step {
        if let interval = configuration.interval { return Step(notes: notes, action: .sleep(interval)) }
        var wait = 10
        if case .object(let root)? = document, case .object(let meta)? = root["metaData"],
            case .int(let seconds)? = meta["wait"]
        {
            wait = min(max(seconds, 1), 3600)
        }
        return Step(notes: notes, action: .sleep(.seconds(wait)))
    }

    private func note(
        _ level: Logger.Level, _ message: String, _ timecode: MLBTimecode? = nil, _ details: [String: String] = [:]
    ) -> Note {
        Note(level: level, message: message, timecode: timecode, details: details)
    }

    private static func timecode(of document: JSONValue) -> MLBTimecode? {
        guard case .object(let root) = document, case .object(let meta)? = root["metaData"],
            case .string(let text)? = meta["timeStamp"]
        else { return nil }
        return MLBTimecode(text)
    }
}
