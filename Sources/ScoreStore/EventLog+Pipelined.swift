import PostgresClient

extension EventLog {
    /// Appends batches back to back on one connection, each its own transaction as
    /// ``append(_:atKnown:traceParents:in:)`` makes it (the append lock, the check, the insert), at the
    /// versions the batches before it leave. Two are on their way at a time
    /// (``PostgresSession/pipelineTransactions(depth:next:answer:)``): the server commits one while
    /// the next is taken from `batches`, built and sent. Must be called outside a transaction.
    ///
    /// A batch's check also names the games of the batch before it, at their versions after it. So a
    /// batch refused fails the one sent behind it, and that one the next: the log never holds a batch
    /// without every batch before it, and positions follow the batches' order.
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
        var previous: [String: Int] = [:]
        var inFlight: [(entries: [Entry], rows: [(Entry, Int)])] = []
        var refused: [[Entry]] = []
        var heldBack: [Entry]?
        var failure: (any Error)?
        try session.pipelineTransactions { _ in
            guard refused.isEmpty, heldBack == nil, failure == nil else { return nil }
            var batch: [Entry] = []
            while batch.isEmpty {
                guard let following = batches.next() else { return nil }
                batch = following
            }
            // An id twice would fail the insert after taking positions: kept back, for the heads' path.
            guard Set(batch.lazy.map(\.message.id)).count == batch.count else {
                heldBack = batch
                return nil
            }
            var check = previous
            var after: [String: Int] = [:]
            let rows = batch.map { entry in
                let game = entry.message.gameId
                let version = assumed[game, default: 0] + 1
                if after[game] == nil { check[game] = version - 1 }
                assumed[game] = version
                after[game] = version
                return (entry, version)
            }
            previous = after
            inFlight.append((batch, rows))
            return knownStatements(rows, checking: check, traceParents: [])
        } answer: { _, result in
            let (entries, rows) = inFlight.removeFirst()
            switch result {
            case .success(let results):
                // (Never after a refusal: the check of a batch behind a refused one names its games.)
                do {
                    let positions = try Dictionary(uniqueKeysWithValues: positions(results[2]))
                    for (entry, version) in rows { versions[entry.message.gameId] = version }
                    appended(entries, rows.map { .appended(position: positions[$0.0.message.id] ?? 0, version: $0.1) })
                } catch {
                    failure = failure ?? error
                }
            case .failure(let error):
                if error.sqlState != headsMoved && !error.isUniqueViolation { failure = failure ?? error }
                refused.append(entries)
            }
        }
        if let failure { throw failure }
        return refused + (heldBack.map { [$0] } ?? [])
    }
}
