import Logging
import PostgresClient
import ScoreDomain

/// Why the ingest refused a message.
public enum IngestRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The fold refuses it: the game's rules.
    case fold(FoldError)
    /// Its id already stands for another message.
    case idConflict(IdConflict)

    /// The stable code: the fold's, or `id-conflict`.
    public var code: String {
        switch self {
        case .fold(let error): error.code
        case .idConflict: IdConflict.code
        }
    }

    public var description: String {
        switch self {
        case .fold(let error): error.description
        case .idConflict(let conflict): conflict.description
        }
    }
}

/// A message refused part-way through a batch: the messages before `index` were handled (their
/// outcomes are in `outcomes`), nothing of the refused one or after it was stored. A batch that
/// holds one id twice with different content is refused whole: `outcomes` is empty.
public struct IngestRejection: Error, Sendable, CustomStringConvertible {
    /// Outcomes of the messages before the refused one.
    public var outcomes: [AppendOutcome]
    /// Index of the refused message in the batch.
    public var index: Int
    public var messageId: String
    public var error: IngestRefusal

    public var code: String { error.code }
    public var description: String { "message \"\(messageId)\" rejected: \(error)" }
}

/// The write path: messages → fold check against each game's committed state → event log.
///
/// The fold runs BEFORE the append, so the log only holds events the fold accepts. Every decision is
/// taken inside the appending transaction, under the append lock, against the stream as committed:
/// the transaction reads each game's stream version (with the ids already stored, in one statement)
/// and uses a cached fold only when it is at exactly that version; otherwise it folds the stream
/// again. The cache is a hint that saves reading streams, never a source of truth; it only ever
/// moves a game on to a newer state. When every game of a group has a cached fold, the group is
/// judged against it and appended at its versions in one round trip, with the log checking those
/// versions under the lock (``EventLog/append(_:atKnown:traceParents:in:)``); whatever that cannot
/// settle takes the reading path. Projections are built from the log afterwards by the ``Projector``.
///
/// **Group commit.** Calls that arrive while a transaction is under way wait, and the next
/// transaction takes all of them: one lock, one read of the heads, one append statement and one
/// commit (one flush) for the group. Each call is still judged on its own, in arrival order, against
/// what the calls before it in the group left: it gets its own outcomes, or its own
/// ``IngestRejection``, and a refused call never takes its neighbours down.
public actor Ingestor {
    public let connection: PostgresConnection
    /// The last known fold of each game seen: `nil` means the game has no events yet.
    private var states: [String: ScoreState?] = [:]

    /// One call waiting for the next group.
    private struct Call: Sendable {
        var id: Int
        var entries: [EventLog.Entry]
        var partial: Bool
        var traceParent: String?
    }

    private var queue: [Call] = []
    private var waiting: [Int: CheckedContinuation<[AppendOutcome], any Error>] = [:]
    private var finished: [Int: Result<[AppendOutcome], any Error>] = [:]
    private var nextCall = 0
    private var committing = false
    /// Transactions committed (or tried) so far: fewer than the calls when they were grouped.
    public private(set) var transactions = 0

    public init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Appends a batch (with the calls that arrive meanwhile, in one transaction).
    ///
    /// - Parameters:
    ///   - partial: when the fold refuses a message, store the messages before it and throw
    ///     ``IngestRejection``; when `false`, a refusal stores nothing of the batch.
    ///   - traceParent: the trace context stored with the batch's events (``TraceParent``), if any.
    /// - Returns: one outcome per message (appended or duplicate).
    /// - Throws: ``IngestRejection``, ``StoreError``, ``PostgresError``.
    public nonisolated func ingest(_ messages: [FeedMessage], partial: Bool = true, traceParent: String? = nil)
        async throws -> [AppendOutcome]
    {
        // Encoded in the caller's task, off the actor: it overlaps with the transaction under way.
        try await enqueue(messages.map(EventLog.Entry.init), partial: partial, traceParent: traceParent)
    }

    private func enqueue(_ entries: [EventLog.Entry], partial: Bool, traceParent: String?) async throws
        -> [AppendOutcome]
    {
        let id = nextCall
        nextCall += 1
        queue.append(Call(id: id, entries: entries, partial: partial, traceParent: traceParent))
        guard !committing else {
            // A transaction is under way: the next one takes this call with the others waiting.
            return try await withCheckedThrowingContinuation { continuation in
                if let result = finished.removeValue(forKey: id) {
                    continuation.resume(with: result)
                } else {
                    waiting[id] = continuation
                }
            }
        }
        committing = true
        while !queue.isEmpty {
            let group = queue
            queue = []
            for (call, result) in await commit(group) {
                if call != id, let continuation = waiting.removeValue(forKey: call) {
                    continuation.resume(with: result)
                } else {
                    finished[call] = result
                }
            }
        }
        committing = false
        return try finished.removeValue(forKey: id)!.get()
    }

    /// Ingests one message.
    public nonisolated func ingest(_ message: FeedMessage) async throws -> AppendOutcome {
        try await ingest([message])[0]
    }

    /// One transaction for a group of calls; the result of each.
    private func commit(_ calls: [Call]) async -> [(Int, Result<[AppendOutcome], any Error>)] {
        let messages = calls.flatMap { $0.entries.map(\.message) }
        let games = Set(messages.map(\.gameId))
        let cached = states.filter { games.contains($0.key) }
        transactions += 1
        if cached.count == games.count, let results = await commit(calls, knowing: cached) { return results }
        do {
            let (outcomes, folded) = try await connection.transaction(beginning: EventLog.appendLock) { tx in
                let heads = try EventLog.heads(of: messages, in: tx)
                var states: [String: ScoreState?] = [:]
                for game in games {
                    if let state = cached[game], state?.version ?? 0 == heads.version(of: game) {
                        states[game] = state
                    } else {
                        states[game] = try Self.fold(EventLog.readStream(game, in: tx))
                    }
                }
                var judged = GroupJudgement(states: states, stored: heads.stored)
                let verdicts = calls.map { judged.judge($0.entries.map(\.message), partial: $0.partial) }
                let (accepted, traceParents) = Self.accepted(calls, verdicts)
                let outcomes = try EventLog.append(accepted, at: heads, traceParents: traceParents, in: tx)
                return (Self.split(outcomes, verdicts), judged.states)
            }
            keep(folded)
            return zip(calls, outcomes).map { ($0.id, $1) }
        } catch {
            return calls.map { ($0.id, .failure(error)) }
        }
    }

    /// The one-round-trip commit, when every game of the group has a cached fold: the calls are
    /// judged against the cache and appended at its versions (``EventLog/append(_:atKnown:traceParents:in:)``),
    /// which the log checks under the append lock. `nil`, with nothing stored, when a call is refused,
    /// an id is already stored or the log is not where the cache says: the group then takes the
    /// path that reads the heads, and is judged there against the log as committed.
    private func commit(_ calls: [Call], knowing cached: [String: ScoreState?]) async
        -> [(Int, Result<[AppendOutcome], any Error>)]?
    {
        var judged = GroupJudgement(states: cached, stored: [:])
        let verdicts = calls.map { judged.judge($0.entries.map(\.message), partial: $0.partial) }
        guard verdicts.allSatisfy({ $0.rejection == nil }) else { return nil }
        let (accepted, traceParents) = Self.accepted(calls, verdicts)
        let versions = cached.mapValues { $0?.version ?? 0 }
        do {
            guard
                let outcomes = try await connection.withSession({
                    try EventLog.append(accepted, atKnown: versions, traceParents: traceParents, in: $0)
                })
            else { return nil }
            keep(judged.states)
            return zip(calls, Self.split(outcomes, verdicts)).map { ($0.id, $1) }
        } catch {
            return calls.map { ($0.id, .failure(error)) }
        }
    }

    /// The accepted messages of a group (a prefix of each call's, ``GroupJudgement/Verdict``), with
    /// each one's trace context (none when no call has one).
    private static func accepted(_ calls: [Call], _ verdicts: [GroupJudgement.Verdict])
        -> ([EventLog.Entry], [String?])
    {
        let traceParents =
            calls.allSatisfy { $0.traceParent == nil }
            ? [] : zip(calls, verdicts).flatMap { repeatElement($0.traceParent, count: $1.accepted) }
        return (zip(calls, verdicts).flatMap { $0.entries.prefix($1.accepted) }, traceParents)
    }

    /// Keeps the folds a commit left, moving each game only forward.
    private func keep(_ folded: [String: ScoreState?]) {
        for (game, state) in folded where state?.version ?? 0 >= states[game]??.version ?? 0 {
            states[game] = state
        }
    }

    /// Each call's outcomes from the group's, or its rejection.
    private static func split(_ outcomes: [AppendOutcome], _ verdicts: [GroupJudgement.Verdict])
        -> [Result<[AppendOutcome], any Error>]
    {
        var start = 0
        return verdicts.map { verdict in
            let mine = Array(outcomes[start..<(start + verdict.accepted)])
            start += verdict.accepted
            guard var rejection = verdict.rejection else { return .success(mine) }
            rejection.outcomes = mine
            return .failure(rejection)
        }
    }

    private static func fold(_ events: [RecordedEvent]) throws -> ScoreState? {
        var state: ScoreState?
        for event in events {
            do {
                state = try ScoreFold.apply(event.message, to: state)
            } catch {
                throw StoreError.corruptEvent(position: event.position, reason: "the fold refuses it: \(error)")
            }
        }
        return state
    }
}

/// The fold's verdict on the calls of one group, in order, each against what the calls before it
/// left: pure.
struct GroupJudgement {
    /// What one call keeps: how many of its messages (a prefix) are appended, and its refusal.
    struct Verdict {
        var accepted: Int
        var rejection: IngestRejection?
    }

    /// Each game's state after the calls judged so far.
    private(set) var states: [String: ScoreState?]
    /// Messages stored before the group, by id.
    let stored: [String: EventLog.StoredMessage]
    /// The messages accepted so far in the group, by id.
    private var seen: [String: FeedMessage] = [:]

    init(states: [String: ScoreState?], stored: [String: EventLog.StoredMessage]) {
        self.states = states
        self.stored = stored
    }

    /// Judges one call's messages: duplicates (an id already stored or accepted, with the same
    /// content) are never folded; an id reused with other content is refused like a message the
    /// fold refuses. A refusal keeps the messages before it (`partial`) or none of the call; a call
    /// that holds one id twice with different content is refused whole.
    mutating func judge(_ messages: [FeedMessage], partial: Bool) -> Verdict {
        if let (index, _, conflict) = IdConflict.first(in: messages) {
            let refusal = IngestRefusal.idConflict(conflict)
            return Verdict(
                accepted: 0,
                rejection: IngestRejection(outcomes: [], index: index, messageId: conflict.messageId, error: refusal))
        }
        // Applied in place, and undone for a refusal that keeps nothing: a copy of the group's
        // dictionaries per call cost time in the square of the group's calls.
        var before: [String: ScoreState??] = [:]
        var added: [String] = []
        var kept = 0
        var rejection: IngestRejection?
        scan: for (index, message) in messages.enumerated() {
            let earlier =
                stored[message.id].map { ($0.message, Optional($0.position)) } ?? seen[message.id].map { ($0, nil) }
            if let (earlier, position) = earlier {
                if let conflict = IdConflict.between(message, earlier, position: position) {
                    rejection = IngestRejection(
                        outcomes: [], index: index, messageId: message.id, error: .idConflict(conflict))
                    break scan
                }
                kept += 1
                continue
            }
            switch Result(catching: { () throws(FoldError) in
                try ScoreFold.apply(message, to: states[message.gameId] ?? nil)
            }) {
            case .success(let next):
                if before.index(forKey: message.gameId) == nil {
                    before.updateValue(states[message.gameId], forKey: message.gameId)
                }
                states[message.gameId] = next
                seen[message.id] = message
                added.append(message.id)
                kept += 1
            case .failure(let error):
                rejection = IngestRejection(outcomes: [], index: index, messageId: message.id, error: .fold(error))
                break scan
            }
        }
        if rejection != nil, !partial {
            for (game, state) in before {
                if let state { states[game] = state } else { states.removeValue(forKey: game) }
            }
            for id in added { seen.removeValue(forKey: id) }
            return Verdict(accepted: 0, rejection: rejection)
        }
        return Verdict(accepted: kept, rejection: rejection)
    }
}
