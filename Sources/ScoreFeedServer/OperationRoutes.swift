import Hummingbird
import ScoreDomain
import ScoreStore

/// `GET /metrics` (Prometheus text), `GET /healthz` (the process answers), `GET /readyz` (the
/// database is open, migrated and answering).
struct OperationRoutes {
    let database: Database
    let hub: ChangeHub
    let metrics: ServerMetrics
    let node: ClusterNodeState

    func metrics(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let ready = try await database.ready()
        let streams = await hub.subscriberCount
        let (metrics, nodeId) = (self.metrics, node.id)
        // The replica's position and replay delay, when reads go to one.
        let replica: (head: Int, seconds: Double)? =
            ready.hasReplica ? try await ready.reads.withSession { try ServerMetrics.replicaPosition(in: $0) } : nil
        let text = try await ready.pool.withSession { session in
            // Whether this node holds the leadership lock now, as `GET /v1/cluster` shows it.
            let leader = try Cluster.nodes(in: session).contains { $0.id == nodeId && $0.leader }
            return try metrics.render(streams: streams, leader: leader, replica: replica, in: session)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    func health(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        .json(.object(["status": .string("ok"), "version": .string(ScoreFeedVersion.current)]))
    }

    func ready(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard database.isReady else {
            throw APIError(.serviceUnavailable, "not-ready", "database unavailable")
        }
        do {
            let pool = try await database.ready().pool
            _ = try await pool.withSession { try $0.query("SELECT 1") }
        } catch {
            // The detail (server text, host names) goes to the log, never to an anonymous client.
            context.logger.warning("readiness check: the database does not answer", metadata: ["error": "\(error)"])
            throw APIError(.serviceUnavailable, "not-ready", "database unavailable")
        }
        return .json(.object(["status": .string("ready")]))
    }
}
