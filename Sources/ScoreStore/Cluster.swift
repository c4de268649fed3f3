import Foundation
import PostgresClient

/// One `scorefeed serve` process of a cluster on one database, as its heartbeat row says.
public struct ClusterNode: Sendable, Equatable {
    public var id: String
    public var startedAt: Date
    public var heartbeatAt: Date
    public var version: String
    /// Its leadership session holds the leadership lock now (read from `pg_locks`, not from what the
    /// node last said): it runs the projector and the tick scheduler.
    public var leader: Bool
    /// Its heartbeat is recent (see ``Cluster/aliveWithin``) and its leadership session is connected
    /// now: a node that was killed is shown as gone as soon as PostgreSQL sees its connection close.
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

    /// The `application_name` that marks a node's leadership session in `pg_stat_activity`, in SQL: a
    /// digest of the schema and the node id (a node id can be longer than the 63 bytes a name holds).
    static func sessionName(nodeIdSQL: String) -> String {
        "'scorefeed-node ' || left(md5(current_schema() || '/' || \(nodeIdSQL)), 24)"
    }

    /// Marks `session` as the leadership session of node `nodeId`: ``nodes(in:)`` finds it there and in
    /// `pg_locks`, so the cluster view shows who holds the lock and which nodes are connected now.
    public static func markLeadershipSession(nodeId: String, in session: PostgresSession) throws {
        try session.query("SELECT set_config('application_name', \(sessionName(nodeIdSQL: "$1")), false)", [nodeId])
    }

    /// Records that the node is alive now; `joining`: it has just started (its `startedAt` is now).
    public static func heartbeat(
        nodeId: String, version: String, leader: Bool, joining: Bool = false,
        in session: PostgresSession
    ) throws {
        try session.query(
            """
            INSERT INTO nodes (node_id, version, leader) VALUES ($1, $2, $3)
            ON CONFLICT (node_id) DO UPDATE SET heartbeat_at = now(), version = EXCLUDED.version,
                                                leader = EXCLUDED.leader,
                                                started_at = CASE WHEN $4 THEN now() ELSE nodes.started_at END
            """, [nodeId, version, leader, joining])
    }

    /// The node leaves the cluster (it stops).
    public static func leave(nodeId: String, in session: PostgresSession) throws {
        try session.query("DELETE FROM nodes WHERE node_id = $1", [nodeId])
    }

    /// Every node that sent a heartbeat in the last hour, alive first, the leader first among them.
    ///
    /// Who leads is read from `pg_locks` (the session holding the leadership lock, named by
    /// ``markLeadershipSession(nodeId:in:)``), and whether a node is connected from `pg_stat_activity`:
    /// a node killed a moment ago is neither leader nor alive once PostgreSQL sees its connection close,
    /// and two nodes are never both shown as leader.
    public static func nodes(in session: PostgresSession) throws -> [ClusterNode] {
        try session.query(
            """
            WITH sessions AS (
                SELECT a.application_name AS name,
                       bool_or(EXISTS (
                           SELECT 1 FROM pg_locks l
                           WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                             AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                             AND l.classid::bigint = ((\(leadershipKey)) >> 32) & 4294967295
                             AND l.objid::bigint = (\(leadershipKey)) & 4294967295)) AS leads
                FROM pg_stat_activity a
                WHERE a.application_name LIKE 'scorefeed-node %' AND a.datname = current_database()
                GROUP BY a.application_name
            )
            SELECT n.node_id, n.started_at, n.heartbeat_at, n.version,
                   coalesce(s.leads, false) AS leads,
                   n.heartbeat_at > now() - make_interval(secs => $1) AND s.name IS NOT NULL AS alive
            FROM nodes n LEFT JOIN sessions s ON s.name = \(sessionName(nodeIdSQL: "n.node_id"))
            WHERE n.heartbeat_at > now() - interval '1 hour' OR s.leads
            ORDER BY alive DESC, leads DESC, n.node_id
            """, [aliveWithin]
        ).rows.map { row in
            ClusterNode(
                id: try row.string("node_id"), startedAt: try row.date("started_at"),
                heartbeatAt: try row.date("heartbeat_at"), version: try row.string("version"),
                leader: try row.bool("leads"), alive: try row.bool("alive"))
        }
    }
}
