import Foundation
import Hummingbird
import LiveActivity
import Logging
import PostgresClient
import ScoreDomain
import ScoreStore
import ServiceLifecycle
import Synchronization

/// This node of the cluster: its id, and whether it holds the leadership now.
public final class ClusterNodeState: Sendable {
    public let id: String
    private let leading = Atomic<Bool>(false)

    init(id: String) { self.id = id }

    /// Whether this node runs the projector and the tick scheduler now.
    public var isLeader: Bool { leading.load(ordering: .relaxed) }

    func set(leader: Bool) { leading.store(leader, ordering: .relaxed) }
}

/// The work that must run once in a cluster, the projector and the tick scheduler, run on the node
/// holding the leadership lock (``Cluster/tryLead(in:)``) on a connection of its own. The other nodes
/// try again every `retry`; when the leader dies, its connection and lock go, and one of them takes
/// over. A lost lock connection stops the work at once (a new one tries again). On graceful shutdown
/// the page in progress commits and the lock is released with the connection.
///
/// Leadership makes the work run once; correctness does not depend on it: the projector's pages and
/// the scheduler's ticks lock their rows, so two leaders for a moment cannot apply an event twice.
struct LeaderService: Service {
    let projector: Projector
    let startLead: Int
    let database: Database
    let node: ClusterNodeState
    let logger: Logger
    var retry: Duration = .seconds(2)

    func run() async throws {
        let pool = try await database.ready().pool
        let (url, projector, startLead, node, logger, retry) = (
            database.url, projector, startLead, node, logger, retry
        )
        @Sendable func announce(_ leader: Bool) async {
            node.set(leader: leader)
            try? await pool.withSession {
                try Cluster.heartbeat(nodeId: node.id, version: ScoreFeedVersion.current, leader: leader, in: $0)
            }
        }
        try await untilGracefulShutdown {
            try await onOwnConnection(url: url, logger: logger, what: "leadership") { lock in
                // Named in pg_stat_activity, so the cluster view reads who holds the lock from pg_locks.
                try await lock.withSession { try Cluster.markLeadershipSession(nodeId: node.id, in: $0) }
                while !Task.isCancelled {
                    guard try await lock.withSession({ try Cluster.tryLead(in: $0) }) else {
                        try await Task.sleep(for: retry)
                        continue
                    }
                    logger.notice("this node leads: it runs the projector and the tick scheduler")
                    await announce(true)
                    do {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                let follower = LogFollower(url: url, logger: logger)
                                try await follower.run { connection in try await projector.step(connection) > 0 }
                            }
                            group.addTask {
                                try await PushScheduler.run(
                                    url: url, planner: projector.planner, channelPlanner: projector.channelPlanner,
                                    startLead: startLead, logger: logger)
                            }
                            group.addTask {
                                // The lock lives as long as its connection: check it every second.
                                while true {
                                    try await Task.sleep(for: .seconds(1))
                                    try await lock.withSession { _ = try $0.query("SELECT 1") }
                                }
                            }
                            try await group.next()
                            group.cancelAll()
                        }
                    } catch {
                        await announce(false)
                        if !(error is CancellationError) {
                            logger.warning("this node stops leading", metadata: ["error": "\(error)"])
                        }
                        throw error
                    }
                    await announce(false)
                }
            }
        }
        logger.info("projector and tick scheduler stopped")
    }
}

/// The node's heartbeat: its row in `nodes` renewed every `interval`, removed when it stops.
struct NodeService: Service {
    let database: Database
    let node: ClusterNodeState
    let logger: Logger
    var interval: Duration = .seconds(2)

    func run() async throws {
        let pool = try await database.ready().pool
        let (node, logger, interval) = (node, logger, interval)
        logger.info("node joins the cluster", metadata: ["node.id": "\(node.id)"])
        try await untilGracefulShutdown {
            // The first heartbeat that lands says the node has (re)started: its startedAt is now.
            var joining = true
            while !Task.isCancelled {
                do {
                    try await pool.withSession { [joining] in
                        try Cluster.heartbeat(
                            nodeId: node.id, version: ScoreFeedVersion.current, leader: node.isLeader,
                            joining: joining, in: $0)
                    }
                    joining = false
                } catch {
                    logger.warning("heartbeat failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
        try? await pool.withSession { try Cluster.leave(nodeId: node.id, in: $0) }
    }
}

/// `GET /v1/cluster`: the nodes, who leads, and the projector's lag.
struct ClusterRoute {
    let database: Database
    let node: ClusterNodeState

    func handle(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let pool = try await database.ready().pool
        let (nodes, head, checkpoint) = try await pool.withSession { session in
            (try Cluster.nodes(in: session), try EventLog.head(in: session), try Projector.checkpoint(in: session))
        }
        return .json(
            .object([
                "node": .string(node.id),
                "leader": nodes.first { $0.leader }.map { .string($0.id) } ?? .null,
                "nodes": .array(
                    nodes.map { n in
                        .object([
                            "id": .string(n.id), "startedAt": .string(rfc3339(n.startedAt)),
                            "heartbeatAt": .string(rfc3339(n.heartbeatAt)), "version": .string(n.version),
                            "leader": .bool(n.leader), "alive": .bool(n.alive),
                        ])
                    }),
                "projector": .object([
                    "head": .int(head), "checkpoint": .int(checkpoint), "lag": .int(head - checkpoint),
                ]),
            ]))
    }
}
