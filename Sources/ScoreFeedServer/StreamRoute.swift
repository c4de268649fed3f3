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
/// reconnects with the last id it saw therefore misses nothing (it may see a state twice), also
/// after the server ended its stream for not keeping up (``StreamLimits``: the last line, a comment,
/// says why). Past ``StreamLimits/maxClients`` streams on this node, a new one is answered 503.
struct StreamRoute {
    let database: Database
    let hub: ChangeHub
    let metrics: ServerMetrics
    let limits: StreamLimits

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
        if let gameId {
            try await ready.reads.withSession { try ReadRoutes.requireGame(gameId, in: $0) }
        }
        // Subscribed before anything is read, so no change slips between the reads and the waits; the
        // place is given back however the response ends (also if it is never written).
        let subscription: Subscription
        switch hub.subscribe(limit: limits.maxClients) {
        case .closed: throw Self.shuttingDown
        case .full:
            metrics.streamEnded(reason: "refused")
            throw full
        case .subscribed(let admitted): subscription = admitted
        }
        let client = StreamClient(
            subscription: subscription, hub: hub, pools: (ready.pool, ready.reads), gameId: gameId, limits: limits,
            metrics: metrics, logger: context.logger, joined: await hub.head)
        let body = ResponseBody { writer in
            do {
                // The client's side closing ends the stream at once (not at the next write).
                try await request.body.consumeWithInboundCloseHandler { _ in
                    try await client.run(resume: resume, writer: &writer)
                } onInboundClosed: {
                    subscription.clientLeft()
                }
            } catch {
                client.logger.debug("live stream ended", metadata: ["error": "\(error)"])
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

    /// The answer past ``StreamLimits/maxClients``.
    private var full: APIError {
        var error = APIError(
            .serviceUnavailable, "too-many-streams",
            "this node serves \(limits.maxClients) live streams already; retry in a moment")
        error.headers[.retryAfter] = String(limits.retryAfterSeconds)
        return error
    }
}
