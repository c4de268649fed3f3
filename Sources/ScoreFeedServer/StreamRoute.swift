import HTTPTypes
import Hummingbird
import Logging
import PostgresClient
import ScoreDomain
import ScoreStore

/// `GET /v1/stream` and `GET /v1/games/{id}/stream`: Server-Sent Events of the projection's
/// changes as they commit, `event: state`, `id:` the global position of the event that made the
/// change, `data:` the game's state as `scorefeed game --json` prints it.
///
/// Without `Last-Event-ID` a client first gets the current state of every game (of the one game)
/// and then every change after; with it, every change after that position. A client that
/// reconnects with the last id it saw therefore misses nothing (it may see a state twice).
struct StreamRoute {
    let database: Database
    let hub: ChangeHub

    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    func all(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try await stream(request, context: context, gameId: nil)
    }

    func game(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try await stream(request, context: context, gameId: context.parameters.require("id"))
    }

    private func stream(_ request: Request, context: BasicRequestContext, gameId: String?) async throws -> Response {
        let resume = try request.headers[Self.lastEventID].map { text in
            guard let position = Int(text.trimmingCharacters(in: .whitespaces)), position >= 0 else {
                throw APIError.badRequest("Last-Event-ID must be a position (a non-negative integer)")
            }
            return position
        }
        let ready = try await database.ready()
        let (pool, reads) = (ready.pool, ready.reads)
        if let gameId {
            try await reads.withSession { try ReadRoutes.requireGame(gameId, in: $0) }
        }
        guard await !hub.isClosed else { throw Self.shuttingDown }
        let (hub, logger) = (self.hub, context.logger)
        let body = ResponseBody { writer in
            // Subscribed before anything is read, so no change slips between the reads and the waits;
            // unsubscribed whatever happens, however the response ends.
            guard let subscription = await hub.subscribe() else { return try await writer.finish(nil) }
            do {
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                var cursor: Int
                if let resume {
                    cursor = resume
                } else {
                    // The newest position first, then the states: a change in between is sent twice, never lost.
                    // (From the replica, if any: its head and states are one consistent moment of the log.)
                    let (head, snapshot) = try await reads.withSession { session in
                        (
                            try StateChanges.head(in: session),
                            try ScoreProjection.positioned(gameId: gameId, in: session).sorted {
                                $0.position < $1.position
                            }
                        )
                    }
                    cursor = head
                    try await writer.write(
                        snapshot.map { Self.event(position: $0.position, data: $0.state.canonicalJSON()) })
                }
                _ = try await Self.send(
                    after: &cursor, gameId: gameId, hub: hub, pools: (pool, reads), to: &writer)
                for await reason in subscription.wakeups {
                    let wrote = try await Self.send(
                        after: &cursor, gameId: gameId, hub: hub, pools: (pool, reads), to: &writer)
                    if !wrote && reason == .idle {
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                }
                await hub.unsubscribe(subscription.id)
                try await writer.finish(nil)
            } catch {
                await hub.unsubscribe(subscription.id)
                logger.debug("live stream ended", metadata: ["error": "\(error)"])
                throw error
            }
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ],
            body: body)
    }

    private static let shuttingDown = APIError(
        .serviceUnavailable, "shutting-down", "the server is shutting down; reconnect in a moment")

    /// Writes every change after `cursor` (from memory when the hub still has it, else from the
    /// table) and moves the cursor on, past other games' changes too. Returns whether it wrote.
    ///
    /// The table is read on the replica when it has caught up with the hub's head, else on the primary:
    /// a lagging replica never makes the stream skip (positions are the log's, so it never goes back).
    private static func send(
        after cursor: inout Int, gameId: String?, hub: ChangeHub,
        pools: (primary: ConnectionPool, reads: ConnectionPool),
        to writer: inout any ResponseBodyWriter
    ) async throws -> Bool {
        var wrote = false
        while true {
            let after = cursor
            let changes: [StateChange]
            let reached: Int
            var complete = true
            if let recent = await hub.changes(after: after, gameId: gameId) {
                (changes, reached) = (recent.changes, recent.head)
            } else {
                let head = await hub.head
                var pool = pools.primary
                if pools.reads !== pools.primary,
                    try await pools.reads.withSession({ try StateChanges.head(in: $0) }) >= head
                {
                    pool = pools.reads
                }
                changes = try await pool.withSession { try StateChanges.after(after, gameId: gameId, in: $0) }
                complete = changes.count < StateChanges.pageSize
                // A short page holds everything up to the hub's head as read before it.
                reached = complete ? head : changes.last?.position ?? after
            }
            if !changes.isEmpty {
                try await writer.write(changes.map { event(position: $0.position, data: $0.state) })
                wrote = true
            }
            cursor = max(cursor, changes.last?.position ?? cursor, reached)
            if complete { return wrote }
        }
    }

    private static func event(position: Int, data: String) -> ByteBuffer {
        ByteBuffer(string: "id: \(position)\nevent: state\ndata: \(data)\n\n")
    }
}

extension ResponseBodyWriter {
    mutating func write(_ buffers: [ByteBuffer]) async throws {
        guard !buffers.isEmpty else { return }
        var joined = ByteBuffer()
        for var buffer in buffers { joined.writeBuffer(&buffer) }
        try await write(joined)
    }
}
