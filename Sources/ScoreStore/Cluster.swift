import Foundation
import PostgresClient

/// One `scorefeed serve` process of a cluster on one database, as its heartbeat row says.
public struct ClusterNode: Sendable, Equatable {
    public var id: String
    public var startedAt: Date
    public var heartbeatAt: Date
    public var version: String
    /// It holds the leadership: it runs the projector and the tick scheduler.
    public var leader: Bool
    /// Its heartbeat is recent (see ``Cluster/aliveWithin``); a node that died is not.
    public var alive: Bool
}

/// The nodes of a cluster and its leadership: a session-level PostgreSQL advisory lock that exactly
/// one connection holds at a time. A node that dies loses its connection and with it the lock; the
/// others keep trying and one takes it over within their retry interval.
public enum Cluster {
    /// The advisory lock key of the leadership, in SQL: one per database and schema (a schema holds one
    /// ScoreFeed; tests and deployments that share a database in several schemas do not share a leader).
    static let leadershipKey =
        "hashtextextended(current_database() || '.' || current_schema() || '.scorefeed-leader', 0)"

    /// A heartbeat older than this many seconds means the node is gone.
    public static let aliveWithin = 10

    /// What ``isValid(nodeId:)`` accepts, in the words of an error message.
    public static let nodeIdRule = "1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'"

    /// A node id: 1 to 128 characters of A-Z, a-z, 0-9, `.`, `_`, `:` and `-`.
    public static func isValid(nodeId: String) -> Bool {
        (1...128).contains(nodeId.utf8.count)
            && nodeId.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
                    || "._:-".unicodeScalars.contains($0)
            }
    }

    /// Tries to take the leadership on this session (kept until the session ends).
    /// - Returns: whether this session holds it now.
    public static func tryLead(in session: PostgresSession) throws -> Bool {
        try session.query("SELECT pg_try_advisory_lock(\(leadershipKey)) AS held")[0].bool("held")
    }

    /// Records that the node is alive (and whether it leads) now.
    public static func heartbeat(nodeId: String, version: String, leader: Bool, in session: PostgresSession) throws {
        try session.query(
            """
            INSERT INTO nodes (node_id, version, leader) VALUES ($1, $2, $3)
            ON CONFLICT (node_id) DO UPDATE SET heartbeat_at = now(), version = EXCLUDED.version,
                                                leader = EXCLUDED.leader
            """, [nodeId, version, leader])
    }

    /// The node leaves the cluster (it stops).
    public static func leave(nodeId: String, in session: PostgresSession) throws {
        try session.query("DELETE FROM nodes WHERE node_id = $1", [nodeId])
    }

    /// Every node that sent a heartbeat in the last hour, alive first, the leader first among them.
    public static func nodes(in session: PostgresSession) throws -> [ClusterNode] {
        try session.query(
            """
            SELECT node_id, started_at, heartbeat_at, version, leader,
                   heartbeat_at > now() - make_interval(secs => $1) AS alive
            FROM nodes WHERE heartbeat_at > now() - interval '1 hour'
            ORDER BY alive DESC, leader DESC, node_id
            """, [aliveWithin]
        ).rows.map { row in
            let alive = try row.bool("alive")
            return ClusterNode(
                id: try row.string("node_id"), startedAt: try row.date("started_at"),
                heartbeatAt: try row.date("heartbeat_at"), version: try row.string("version"),
                leader: try row.bool("leader") && alive, alive: alive)
        }
    }
}
