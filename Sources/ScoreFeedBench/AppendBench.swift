import ArgumentParser
import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedCLI
import ScoreStore

/// `scorefeed bench append --json`: appends at batch sizes 1, 100 and 1000 against a raw COPY.
struct AppendBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Append synthetic events at batch sizes 1, 100, 1000; compare with COPY into the log's shape.",
        discussion: """
            Runs in a throw-away schema of the configured database (dropped afterwards). Per batch size \
            it reports events/s (wall time, from encoding the first batch to the last commit; each batch's \
            entries are encoded while the one before is on the wire), p50/p99 of one append call (one \
            transaction), the rate of a raw COPY of \
            the same rows, one COPY and one commit per batch, into a table with exactly the event log's \
            columns, constraints and indexes on the same server (best of three), and their ratio. \
            Each batch is appended at the versions the writer knows, in one round trip \
            (`EventLog.append(_:atKnown:)`); `--read-heads` takes the path that reads the heads first \
            instead (four round trips), to compare the two in one run.
            """
    )

    @Flag(help: "Print JSON (the only format; kept for symmetry with the other benchmarks).")
    var json = false

    @Option(help: "Events appended per batch size, as size:count pairs.")
    var plan = "1:2000,100:20000,1000:50000"

    @Option(help: "Number of games the synthetic events are spread over.")
    var games = 100

    @Flag(help: "Append through the path that reads the heads first (BEGIN with the lock, heads, insert, COMMIT).")
    var readHeads = false

    func run() async throws {
        let sizes = try parsePlan()
        let results = try await withBenchSchema { url in
            var results: [[String: Any]] = []
            let connection = try await PostgresConnection.connect(url)
            try await Migrator().migrate(connection, logger: Runtime.logger)
            try await connection.execute(
                script: """
                    CREATE TABLE copy_reference (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY
                                                 INCLUDING CONSTRAINTS INCLUDING INDEXES)
                    """)
            for (batch, events) in sizes {
                results.append(try await measure(batch: batch, events: events, connection))
            }
            await connection.close()
            return results
        }
        try printJSON(results)
    }

    private func measure(batch: Int, events: Int, _ connection: PostgresConnection) async throws -> [String: Any] {
        let start = Date(timeIntervalSince1970: 1_775_000_000)
        let messages = (0..<events).map { n in
            FeedMessage(
                id: "bench-\(batch)-\(n)", gameId: "bench-\(batch)-g\(n % games)",
                at: start.addingTimeInterval(Double(n)), event: .runScored(team: n % 2 == 0 ? .home : .away, runs: 1))
        }
        let chunks = stride(from: 0, to: messages.count, by: batch).map {
            Array(messages[$0..<min($0 + batch, messages.count)])
        }
        var versions: [String: Int] = [:]
        var timings = Timings()
        let began = ContinuousClock.now
        var entries = chunks[0].map(EventLog.Entry.init)
        for index in chunks.indices {
            let chunk = entries
            let expected = Dictionary(
                chunk.map { ($0.message.gameId, versions[$0.message.gameId] ?? 0) }, uniquingKeysWith: { a, _ in a })
            // The next batch is encoded while this one is on the wire (as the Ingestor's callers encode theirs).
            async let following = index + 1 < chunks.count ? chunks[index + 1].map(EventLog.Entry.init) : []
            let start = ContinuousClock.now
            // One round trip at the versions known; the heads' path only if the log moved under us.
            let outcomes = try await connection.withSession { [readHeads] session in
                try (readHeads ? nil : EventLog.append(chunk, atKnown: expected, in: session))
                    ?? session.transaction(beginning: EventLog.appendLock) { tx in
                        try EventLog.append(chunk, expectedVersions: expected, in: tx)
                    }
            }
            timings.record(ContinuousClock.now - start)
            for (entry, outcome) in zip(chunk, outcomes) {
                if case .appended(_, let version) = outcome { versions[entry.message.gameId] = version }
            }
            entries = await following
        }
        let wall = (ContinuousClock.now - began) / .seconds(1)
        let pipelined = try await pipelinedRate(chunks, connection)
        let reference = try await copyRate(messages, batch: batch, connection)
        let rate = Double(events) / wall
        return [
            "batch": batch, "events": events, "path": readHeads ? "read heads" : "known versions",
            "eventsPerSecond": rounded(rate, places: 0),
            "p50Ms": rounded(timings.percentileMs(50), places: 3),
            "p99Ms": rounded(timings.percentileMs(99), places: 3),
            "referenceEventsPerSecond": rounded(reference, places: 0), "ratio": rounded(rate / reference, places: 3),
            "pipelinedEventsPerSecond": rounded(pipelined.rate, places: 0),
            "pipelinedP50Ms": rounded(pipelined.timings.percentileMs(50), places: 3),
            "pipelinedP99Ms": rounded(pipelined.timings.percentileMs(99), places: 3),
            "pipelinedRatio": rounded(pipelined.rate / reference, places: 3),
        ]
    }

    /// The same events again (other ids, other games), batch after batch on one connection with two
    /// on the wire (`EventLog.append(pipelining:atKnown:)`); each batch's entries are encoded when the
    /// pipeline has room for it. Timings: from a batch's encoding to its answer.
    private func pipelinedRate(_ chunks: [[FeedMessage]], _ connection: PostgresConnection) async throws
        -> (rate: Double, timings: Timings)
    {
        let chunks = chunks.map { chunk in
            chunk.map { message in
                var message = message
                message.id = "piped-" + message.id
                message.gameId = "piped-" + message.gameId
                return message
            }
        }
        let began = ContinuousClock.now
        let timings = try await connection.withSession { session in
            var timings = Timings()
            var taken: [ContinuousClock.Instant] = []
            var batches = chunks.lazy.map { chunk in
                taken.append(ContinuousClock.now)
                return chunk.map(EventLog.Entry.init)
            }.makeIterator()
            var versions: [String: Int] = [:]
            var answered = 0
            let refused = try EventLog.append(pipelining: &batches, atKnown: &versions, in: session) { _, _ in
                timings.record(ContinuousClock.now - taken[answered])
                answered += 1
            }
            guard refused.isEmpty, answered == chunks.count else {
                throw ValidationError("the pipelined appends refused \(refused.count) batches")
            }
            return timings
        }
        let wall = (ContinuousClock.now - began) / .seconds(1)
        return (Double(chunks.joined().count) / wall, timings)
    }

    /// Rows per second of `COPY … FROM STDIN` of the same rows, one COPY and one commit per batch, into
    /// a table shaped like the event log (its constraints and indexes), best of three.
    private func copyRate(_ messages: [FeedMessage], batch: Int, _ connection: PostgresConnection) async throws
        -> Double
    {
        var versions: [String: Int] = [:]
        var chunks: [String] = []
        for chunkStart in stride(from: 0, to: messages.count, by: batch) {
            var text = ""
            for message in messages[chunkStart..<min(chunkStart + batch, messages.count)] {
                let version = versions[message.gameId, default: 0] + 1
                versions[message.gameId] = version
                let fields = [
                    message.gameId, String(version), message.id, message.event.type, message.canonicalJSON(),
                    PostgresTimestamp.format(message.at),
                ]
                text += fields.map { copyTextField($0) }.joined(separator: "\t") + "\n"
            }
            chunks.append(text)
        }
        var best = Double.infinity
        for _ in 0..<3 {
            let began = ContinuousClock.now
            for data in chunks {
                _ = try await connection.transaction { tx in
                    try tx.copyIn(
                        "COPY copy_reference (stream_id, stream_version, message_id, type, data, occurred_at) FROM STDIN",
                        data: data)
                }
            }
            best = min(best, (ContinuousClock.now - began) / .seconds(1))
            try await connection.execute(script: "TRUNCATE copy_reference")
        }
        return Double(messages.count) / best
    }

    private func parsePlan() throws -> [(Int, Int)] {
        try plan.split(separator: ",").map { pair in
            let parts = pair.split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] >= parts[0] else {
                throw ValidationError("--plan wants size:count pairs such as 1:2000,100:20000")
            }
            return (parts[0], parts[1])
        }
    }
}
