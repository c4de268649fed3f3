import Hummingbird
import Logging
import NIOCore
import PostgresClient
import ScoreStore
import Synchronization

/// One live-stream client: writes the changes after its position, a page at a time, and ends the
/// stream when the client leaves (its side of the connection closes), falls more than the queue
/// behind or leaves a write waiting too long (``StreamLimits``).
///
/// What it holds is one page being written: the changes themselves stay in the hub or the table.
struct StreamClient: Sendable {
    let subscription: Subscription
    let hub: ChangeHub
    let pools: (primary: ConnectionPool, reads: ConnectionPool)
    let gameId: String?
    let limits: StreamLimits
    let metrics: ServerMetrics
    let logger: Logger
    /// The hub's head when the client connected: it is charged only for the changes after it, so a
    /// client catching up on older ones is not ended for how far back it started.
    let joined: Int

    /// The most changes read from memory at once.
    static let memoryBatch = 256
    /// The most changes read from the table at once (each client catching up holds one such batch).
    static let tableBatch = 50

    /// How a stream ends.
    private enum Ending: Sendable {
        /// The hub closed (the server is shutting down).
        case finished
        /// The client closed its side of the connection.
        case left
        /// The client cannot keep up.
        case ended(StreamLimits.Verdict)
    }

    /// Why the connection is closed instead of the response finished.
    enum End: Error {
        case clientLeft
        case notReading
    }

    /// Streams until the hub closes, the client leaves or the limits end the stream.
    ///
    /// - Parameters:
    ///   - resume: the position of `Last-Event-ID`, or `nil` for the current states first.
    ///   - writer: the response body.
    /// - Throws: ``End`` when the connection is to be closed, or the writer's or the database's error.
    func run(resume: Int?, writer: inout any ResponseBodyWriter) async throws {
        let output = StreamOutput(writer, position: resume ?? joined)
        defer { subscription.cancel() }
        let ending = try await withThrowingTaskGroup(of: Ending.self) { group in
            group.addTask {
                try await self.pump(resume: resume, to: output)
                return .finished
            }
            group.addTask { await self.watch(output) }
            group.addTask {
                for await _ in self.subscription.left {}
                return .left
            }
            let first = try await group.next() ?? .finished
            group.cancelAll()
            return first
        }
        switch ending {
        case .finished:
            try await output.finish()
        case .left:
            throw End.clientLeft
        case .ended(let verdict):
            subscription.cancel()
            metrics.streamEnded(reason: verdict.label)
            logger.debug(
                "live stream ended: the client does not keep up",
                metadata: ["stream.reason": "\(verdict.label)", "stream.position": "\(output.progress.position)"])
            // The last line says why, if the client takes it in time; else the connection just closes.
            let comment = ByteBuffer(string: StreamLimits.comment(verdict) ?? "")
            guard try await output.write(comment, within: limits.writeTimeout) else { throw End.notReading }
            try await output.finish()
        }
    }

    /// Checks the client's progress against the limits until they end the stream.
    private func watch(_ output: StreamOutput) async -> Ending {
        while true {
            do { try await Task.sleep(for: limits.checkInterval) } catch { return .finished }
            let progress = output.progress
            let behind = await hub.backlog(after: max(progress.position, joined), gameId: gameId)
            let verdict = limits.verdict(behind: behind, writing: progress.writing)
            if verdict != .keep { return .ended(verdict) }
        }
    }

    /// The states first (without `resume`), then every change as the hub announces it.
    private func pump(resume: Int?, to output: StreamOutput) async throws {
        try await output.write(ByteBuffer(string: "retry: 2000\n\n"))
        var cursor: Int
        if let resume {
            cursor = resume
        } else {
            // The newest position first, then the states: a change in between is sent twice, never lost.
            // (From the replica, if any: its head and states are one consistent moment of the log.)
            let gameId = self.gameId
            let (head, snapshot) = try await pools.reads.withSession { session in
                (
                    try StateChanges.head(in: session),
                    try ScoreProjection.positioned(gameId: gameId, in: session).sorted { $0.position < $1.position }
                )
            }
            cursor = head
            for start in stride(from: 0, to: snapshot.count, by: Self.tableBatch) {
                let states = snapshot[start..<min(start + Self.tableBatch, snapshot.count)]
                try await write(
                    states.map {
                        ($0.position, StreamLimits.event(position: $0.position, data: $0.state.canonicalJSON()))
                    },
                    to: output, advancing: false)
            }
        }
        output.advance(to: cursor)
        _ = try await send(after: &cursor, to: output)
        for await reason in subscription.wakeups {
            let wrote = try await send(after: &cursor, to: output)
            if !wrote && reason == .idle {
                try await output.write(ByteBuffer(string: ": keep-alive\n\n"))
            }
        }
    }

    /// Writes every change after `cursor` (from memory when the hub still has it, else from the
    /// table) a batch at a time, and moves the cursor on, past other games' changes too. Returns
    /// whether it wrote.
    ///
    /// The table is read on the replica when it has caught up with the hub's head, else on the primary:
    /// a lagging replica never makes the stream skip (positions are the log's, so it never goes back).
    private func send(after cursor: inout Int, to output: StreamOutput) async throws -> Bool {
        var wrote = false
        while true {
            let after = cursor
            let events: [(position: Int, event: ByteBuffer)]
            let reached: Int
            let complete: Bool
            if let recent = await hub.changes(after: after, gameId: gameId, limit: Self.memoryBatch) {
                events = recent.changes.map { ($0.position, $0.event) }
                (reached, complete) = (recent.reached, recent.complete)
            } else {
                let head = await hub.head
                var pool = pools.primary
                if pools.reads !== pools.primary,
                    try await pools.reads.withSession({ try StateChanges.head(in: $0) }) >= head
                {
                    pool = pools.reads
                }
                let gameId = self.gameId
                let changes = try await pool.withSession {
                    try StateChanges.after(after, gameId: gameId, limit: Self.tableBatch, in: $0)
                }
                events = changes.map { ($0.position, StreamLimits.event(position: $0.position, data: $0.state)) }
                complete = changes.count < Self.tableBatch
                // A short page holds everything up to the hub's head as read before it.
                reached = complete ? head : changes.last?.position ?? after
            }
            if !events.isEmpty {
                try await write(events, to: output, advancing: true)
                wrote = true
            }
            cursor = max(cursor, events.last?.position ?? cursor, reached)
            output.advance(to: cursor)
            if complete { return wrote }
        }
    }

    /// Writes the events a page at a time; `advancing`: the client's position moves past each page.
    private func write(
        _ events: [(position: Int, event: ByteBuffer)], to output: StreamOutput, advancing: Bool
    ) async throws {
        var index = 0
        while index < events.count {
            let count = limits.pageCount(events[index...].lazy.map(\.event.readableBytes))
            var page = ByteBuffer()
            page.reserveCapacity(events[index..<index + count].reduce(0) { $0 + $1.event.readableBytes })
            for (_, event) in events[index..<index + count] { page.writeImmutableBuffer(event) }
            index += count
            try await output.write(page, through: advancing ? events[index - 1].position : nil)
        }
    }
}

/// The response's writer, used by one task at a time (the stream's pump, then the task ending the
/// stream), and the client's progress: the position up to which everything was handed to its
/// connection, and since when the current write waits for the client to read.
final class StreamOutput: @unchecked Sendable {
    private var writer: any ResponseBodyWriter
    private let state: Mutex<(position: Int, writingSince: ContinuousClock.Instant?)>

    init(_ writer: any ResponseBodyWriter, position: Int) {
        self.writer = writer
        state = Mutex((position, nil))
    }

    /// The position up to which everything was written, and how long the current write has waited.
    var progress: (position: Int, writing: Duration?) {
        let now = ContinuousClock.now
        return state.withLock { ($0.position, $0.writingSince.map { now - $0 }) }
    }

    /// Moves the client's position on (never back).
    func advance(to position: Int) {
        state.withLock { $0.position = max($0.position, position) }
    }

    /// Writes `buffer` (waiting while the connection's buffer is full), then moves the position to `position`.
    func write(_ buffer: ByteBuffer, through position: Int? = nil) async throws {
        try Task.checkCancellation()
        state.withLock { $0.writingSince = .now }
        defer { state.withLock { $0.writingSince = nil } }
        try await writer.write(buffer)
        if let position { advance(to: position) }
    }

    /// Writes `buffer` unless that waits longer than `timeout`; returns whether it was written.
    func write(_ buffer: ByteBuffer, within timeout: Duration) async throws -> Bool {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.write(buffer)
                return true
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
    }

    /// Ends the response.
    func finish() async throws {
        let writer = self.writer
        try await writer.finish(nil)
    }
}
