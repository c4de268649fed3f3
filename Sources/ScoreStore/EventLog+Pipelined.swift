import PostgresClient

extension EventLog {
    /// Appends batches back to back on one connection, each its own transaction as ``KnownAppend``
    /// makes it (the append lock, the check of its games' versions, the insert), at the versions the
    /// batches before it leave. They are chained (``PostgresSession/sendChained(_:closing:)``), two on
    /// their way at a time: the server commits one while the next is taken from `batches`, built and
    /// sent, and runs a batch only when every batch before it committed. So the log never holds a
    /// batch without every batch before it, and positions follow the batches' order. Must be called
    /// outside a transaction.
    /// - Parameters:
    ///   - batches: taken one at a time as there is room (none after a refusal is known). An empty
    ///     batch is skipped.
    ///   - versions: each game's stream version before the first batch (every game of the batches
    ///     that is in the log); on return, after the last batch appended.
    ///   - appended: each appended batch with its outcomes, in order.
    /// - Returns: the batches not appended, in order, from the first refused (a stream not at its
    ///   version, an id already stored or twice in a batch): the caller appends them through the
    ///   path that reads the heads, then goes on with `batches`.
    public static func append<Batches: IteratorProtocol<[Entry]>>(
        pipelining batches: inout Batches, atKnown versions: inout [String: Int], in session: PostgresSession,
        appended: ([Entry], [AppendOutcome]) -> Void
    ) throws -> [[Entry]] {
        var assumed = versions
        var inFlight: [(entries: [Entry], append: KnownAppend, answer: ChainedAnswer)] = []
        var refused: [[Entry]] = []
        var heldBack: [Entry]?
        var failure: (any Error)?
        var chained = false
        defer { if chained { session.closeChain() } }
        while true {
            while inFlight.count < 2, refused.isEmpty, heldBack == nil, let batch = nextBatch(&batches) {
                let games = Set(batch.lazy.map(\.message.gameId))
                // An id twice would fail the insert after taking positions: kept back, for the heads' path.
                guard
                    let append = KnownAppend(
                        batch, atKnown: Dictionary(uniqueKeysWithValues: games.map { ($0, assumed[$0, default: 0]) }),
                        traceParents: [])
                else {
                    heldBack = batch
                    break
                }
                if !chained {
                    try session.openChain(preparing: append.statements)
                    chained = true
                }
                try session.sendChained(append.statements)
                for (entry, version) in append.rows { assumed[entry.message.gameId] = version }
                inFlight.append((batch, append, ChainedAnswer(append.statements)))
            }
            guard !inFlight.isEmpty else { break }
            var (entries, append, answer) = inFlight.removeFirst()
            switch try session.readChained(&answer, or: nil)! {
            case .success(let results):
                // (Only before any refusal: the server skips every batch behind a failed one.)
                do {
                    let outcomes = try append.outcomes(results)
                    for (entry, version) in append.rows { versions[entry.message.gameId] = version }
                    appended(entries, outcomes)
                } catch {
                    failure = failure ?? error
                    refused.append(entries)
                }
            case .failure(let error):
                if !KnownAppend.refuses(error) && error.sqlState != PostgresSession.chainSkipped {
                    failure = failure ?? error
                }
                refused.append(entries)
            }
        }
        if let failure { throw failure }
        return refused + (heldBack.map { [$0] } ?? [])
    }

    /// The next batch that is not empty, if any.
    private static func nextBatch<Batches: IteratorProtocol<[Entry]>>(_ batches: inout Batches) -> [Entry]? {
        while let batch = batches.next() {
            if !batch.isEmpty { return batch }
        }
        return nil
    }
}
