import Logging
import PostgresClient
import ScoreDomain

/// The write path: messages → fold check against each game's committed state → event log.
///
/// The fold runs BEFORE the append, so the log only holds events the fold accepts. Every decision is
/// taken inside the appending transaction, under the append lock, against the stream as committed:
/// the transaction reads each game's stream version (with the ids already stored, in one statement)
/// and uses a cached fold only when it is at exactly that version; otherwise it folds the stream
/// again. The cache is a hint that saves reading streams, never a source of truth; it only ever
/// moves a game on to a newer state. Projections are built from the log afterwards by the
/// ``Projector``.
///
/// **Group commit.** Calls that arrive while a transaction is under way wait, and a later
/// transaction takes them together: one lock, one append statement and one commit (one flush) for
/// the group. Each call is still judged on its own, in arrival order, against what the calls before
/// it in the group left: it gets its own outcomes, or its own ``IngestRejection``, and a refused call
/// never takes its neighbours down.
///
/// **Chained.** When every game of a group has a known fold (cached, or left by a group on its
/// way), the group is judged against it and sent as a transaction that appends at those versions
/// (``EventLog/KnownAppend``: the append lock, the log's check of the versions, the insert), chained
/// behind the groups on their way (``PostgresSession/sendChained(_:closing:)``): the server commits
/// one while the next is judged and sent, and runs a group only when every group before it
/// committed. Two groups are on their way at most; the calls waiting follow once they are half the
/// calls in play, so callers that call again when answered settle into two groups taking turns. A
/// group the log refuses (another writer moved a stream, an id already stored), and the groups the
/// server skipped behind it, are judged again on the path that reads the heads, in order.
public actor Ingestor {
    /// The ingest's own connection. Other statements may run on it only while no ingest is under
    /// way: groups on their way keep it in pipeline mode.
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
    private var nextCall = 0
    private var committing = false
    /// Transactions committed (or tried) so far: fewer than the calls when they were grouped.
    public private(set) var transactions = 0

    /// Groups on their way to the server at a time, chained (``PostgresSession/sendChained(_:)``).
    static let depth = 2
    /// Wakes a read of the chain when a call arrives that could be sent meanwhile (`nil`: no pipe
    /// could be made, and a read waits for its answer).
    private let wakeup = try? ChainWakeup()
    /// A read of the chain is waiting and may be woken by a new call.
    private var listening = false
    /// The calls of the groups on their way.
    private var sentCalls = 0

    /// Whether the calls waiting are sent behind the groups on their way now, rather than after the
    /// oldest is answered: once they are half the calls in play (waiting or on their way). So
    /// callers that wait for their answer before calling again settle into two groups of about the
    /// same size: one on the server while the other is answered and calls again.
    private var sendsNow: Bool { queue.count >= max(1, (sentCalls + queue.count) / 2) }

    /// How many of the calls waiting the next group takes: at most half the calls in play, rounded up.
    private var groupSize: Int { min(queue.count, (sentCalls + queue.count + 1) / 2) }
    /// The connection is in a chain (pipeline mode).
    private var chained = false

    /// One group sent in the chain, not answered yet.
    private struct Flight {
        var calls: [Call]
        var verdicts: [GroupJudgement.Verdict]
        var append: EventLog.KnownAppend
        /// Each game of the group, in the state the group leaves it.
        var states: [String: ScoreState?]
        /// Sent with the sync point that ends the chain: nothing is chained behind it.
        var closing = false
        var answer: ChainedAnswer
    }

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
        return try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            queue.append(Call(id: id, entries: entries, partial: partial, traceParent: traceParent))
            if committing {
                // Groups are under way: a later one takes this call with the others waiting.
                if listening, sendsNow {
                    listening = false
                    wakeup?.signal()
                }
            } else {
                // A task of its own commits, so no caller waits for others' calls after its own is answered.
                committing = true
                Task { await self.commitAll() }
            }
        }
    }

    /// Commits until no call is left.
    private func commitAll() async {
        repeat {
            // Callers resumed together (answered by the same group) call again behind the first of
            // them: they join its group, rather than it going alone and the others after it.
            await Task.yield()
            await drain()
        } while !queue.isEmpty
        committing = false
    }

    /// Commits groups until no call is left: each group of the calls waiting, chained behind the
    /// groups on their way when every game of it has a known fold (the server commits one while the
    /// next is judged and sent), else through ``commit(_:)`` once the chain is answered.
    private func drain() async {
        var flights: [Flight] = []
        while true {
            if !queue.isEmpty, flights.count < Self.depth, flights.last?.closing != true, flights.isEmpty || sendsNow {
                let size = groupSize
                if var flight = ahead(Array(queue[..<size]), after: flights) {
                    queue.removeFirst(size)
                    // Alone: sent with the chain's end, so its answer is one round trip.
                    flight.closing = flights.isEmpty && queue.isEmpty
                    flights = await send(flight, behind: flights)
                    continue
                }
                if flights.isEmpty {
                    await closeChain()
                    let group = queue
                    queue = []
                    deliver(await commit(group))
                    continue
                }
            }
            guard let oldest = flights.first else { break }
            flights = await read(oldest, then: flights.dropFirst())
            sentCalls = flights.reduce(0) { $0 + $1.calls.count }
        }
        await closeChain()
    }

    /// Sends a group in the chain, behind the groups on their way; the groups on their way after it
    /// (none when the connection failed: every call sent is then answered with the error, as what
    /// reached the server is unknown).
    private func send(_ flight: Flight, behind flights: [Flight]) async -> [Flight] {
        transactions += 1
        let (opening, statements, closing) = (!chained, flight.append.statements, flight.closing)
        var flight = flight
        flight.answer = ChainedAnswer(statements, closing: closing)
        chained = true
        do {
            try await connection.withSession { session in
                if opening { try session.openChain(preparing: statements) }
                try session.sendChained(statements, closing: closing)
            }
            sentCalls += flight.calls.count
            return flights + [flight]
        } catch {
            for flight in flights + [flight] { deliver(flight.calls.map { ($0.id, .failure(error)) }) }
            sentCalls = 0
            await closeChain()
            return []
        }
    }

    /// Reads the oldest group's answer (or returns early when a call arrives meanwhile that can be
    /// sent) and answers its calls; the groups still on their way, in order.
    private func read(_ oldest: Flight, then rest: ArraySlice<Flight>) async -> [Flight] {
        var oldest = oldest
        let (answer, last, wakeup) = (oldest.answer, rest.isEmpty, wakeup)
        listening = rest.count + 1 < Self.depth && !oldest.closing
        let read: (ChainedAnswer, Result<[PostgresResult], PostgresError>?)
        do {
            read = try await connection.withSession { session in
                var answer = answer
                let result = try session.readChained(&answer, or: wakeup)
                // The last one answered: the connection leaves the chain before its callers go on
                // (a closing one has left it already).
                if result != nil, last { session.closeChain() }
                return (answer, result)
            }
        } catch {
            listening = false
            for flight in [oldest] + rest { deliver(flight.calls.map { ($0.id, .failure(error)) }) }
            await closeChain()
            return []
        }
        listening = false
        oldest.answer = read.0
        guard let result = read.1 else { return [oldest] + rest }
        if last { chained = false }
        switch result {
        case .success(let results):
            do {
                let outcomes = try oldest.append.outcomes(results)
                keep(oldest.states)
                deliver(zip(oldest.calls, Self.split(outcomes, oldest.verdicts)).map { ($0.id, $1) })
            } catch {
                deliver(oldest.calls.map { ($0.id, .failure(error)) })
            }
            return Array(rest)
        case .failure(let error):
            // The server skipped every group sent after it: those (and this one, when the log
            // refused it) are judged again against the log as committed, in order, in one transaction.
            await closeChain()
            for game in oldest.states.keys { states.removeValue(forKey: game) }
            if EventLog.KnownAppend.refuses(error) || error.sqlState == PostgresSession.chainSkipped {
                deliver(await commit(([oldest] + rest).flatMap(\.calls)))
            } else {
                deliver(oldest.calls.map { ($0.id, .failure(error)) })
                if !rest.isEmpty { deliver(await commit(rest.flatMap(\.calls))) }
            }
            return []
        }
    }

    /// The group judged against each game's state after the groups on their way (the last flight
    /// that has the game, else the cache), ready to chain: `nil` when a game has no known state, a
    /// call is refused or an id is twice in the group (the group then takes ``commit(_:)``).
    private func ahead(_ calls: [Call], after flights: [Flight]) -> Flight? {
        var known: [String: ScoreState?] = [:]
        for call in calls {
            for entry in call.entries where known[entry.message.gameId] == nil {
                let game = entry.message.gameId
                if let flight = flights.last(where: { $0.states[game] != nil }) {
                    known[game] = flight.states[game]!
                } else if let state = states[game] {
                    known[game] = state
                } else {
                    return nil
                }
            }
        }
        var judged = GroupJudgement(states: known, stored: [:])
        let verdicts = calls.map { judged.judge($0.entries.map(\.message), partial: $0.partial) }
        guard verdicts.allSatisfy({ $0.rejection == nil }) else { return nil }
        let (accepted, traceParents) = Self.accepted(calls, verdicts)
        guard !accepted.isEmpty,
            let append = EventLog.KnownAppend(
                accepted, atKnown: known.mapValues { $0?.version ?? 0 }, traceParents: traceParents)
        else { return nil }
        return Flight(
            calls: calls, verdicts: verdicts, append: append, states: judged.states,
            answer: ChainedAnswer(append.statements))
    }

    /// Leaves the chain, if the connection is in one (a sync point; what is unread is dropped).
    private func closeChain() async {
        guard chained else { return }
        chained = false
        _ = try? await connection.withSession { $0.closeChain() }
    }

    /// Answers calls.
    private func deliver(_ results: [(Int, Result<[AppendOutcome], any Error>)]) {
        for (call, result) in results { waiting.removeValue(forKey: call)?.resume(with: result) }
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
