import CoreMetrics
import Metrics
import PostgresClient
import Prometheus
import ScoreStore

/// The server's metrics (swift-metrics, kept in its own Prometheus registry) and their text format.
///
/// Counters are counted as things happen in this process; the gauges that describe the database
/// (projection lag, outbox depth) are read from it at each scrape, so they are right even when
/// other processes append or deliver.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory

    public init() {
        factory = PrometheusMetricsFactory(registry: registry)
        // Shown from the start, at zero.
        ingested(appended: 0, duplicates: 0)
        coalesced(0)
    }

    /// Messages stored by `POST /v1/feed`, and those that were already stored.
    func ingested(appended: Int, duplicates: Int) {
        counter("scorefeed_events_appended_total").increment(by: appended)
        counter("scorefeed_events_duplicate_total").increment(by: duplicates)
    }

    /// A request `POST /v1/feed` refused, by HTTP status.
    func ingestRefused(status: Int) {
        counter("scorefeed_ingest_refused_total", [("status", String(status))]).increment()
    }

    /// One delivery attempt's outcome and the service's reason, per kind of target: `liveActivity` (by
    /// its own token to APNs), `fcm` (an activity or an Android follower through FCM), `channel`,
    /// `pushToStart`.
    func push(outcome: String, reason: String?, target: String = "liveActivity") {
        counter(
            "scorefeed_pushes_total", [("result", outcome), ("reason", Self.reasonLabel(reason)), ("target", target)]
        )
        .increment()
    }

    /// A reason as a label value from a small set: the code before any `:` (APNs' `BadDeviceToken`, FCM's
    /// `UNREGISTERED`; `transport`, `not sent` and `oauth` for a failure whose text follows), at most 40
    /// characters. The whole text stays in the push's last answer; a label must not make a series per error.
    static func reasonLabel(_ reason: String?) -> String {
        guard let reason else { return "" }
        let code = reason.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(code.trimmingCharacters(in: .whitespaces).prefix(40))
    }

    /// Changes an activity's throttle held back to coalesce into a later update.
    func coalesced(_ count: Int) {
        counter("scorefeed_updates_coalesced_total").increment(by: count)
    }

    /// Records the cap on HTTP connections (`SCOREFEED_MAX_CONNECTIONS`) and returns the gauge of the
    /// open ones (made once: it is set at every connection's opening and closing).
    func connections(capacity: Int) -> CoreMetrics.Gauge {
        gauge("scorefeed_http_connections_max").record(capacity)
        return gauge("scorefeed_http_connections")
    }

    /// An HTTP connection the server closed, by reason: `header-timeout`, `idle-timeout`,
    /// `body-timeout`, `evicted` (to make room at the cap), `refused` (at the cap, every other busy).
    func connectionClosed(reason: String, count: Int = 1) {
        counter("scorefeed_http_connections_closed_total", [("reason", reason)]).increment(by: count)
    }

    /// A live stream the server ended or refused, by reason: `too-slow` (more changes behind than its
    /// queue), `not-reading` (a write waited past its deadline), `refused` (at the node's stream limit).
    func streamEnded(reason: String) {
        counter("scorefeed_stream_disconnects_total", [("reason", reason)]).increment()
    }

    /// The Prometheus text of every metric, after reading the database gauges.
    /// A replica's log head and how long ago it replayed its last transaction (0 on a primary).
    static func replicaPosition(in session: PostgresSession) throws -> (head: Int, seconds: Double) {
        let row = try session.query(
            """
            SELECT (SELECT coalesce(max(position), 0) FROM events) AS head,
                   CASE WHEN pg_is_in_recovery()
                        THEN coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)
                        ELSE 0 END::float8 AS seconds
            """)[0]
        return (try row.int("head"), try row.text("seconds").flatMap(Double.init) ?? 0)
    }

    func render(
        streams: Int, leader: Bool, replica: (head: Int, seconds: Double)? = nil, in session: PostgresSession
    ) throws -> String {
        let row = try session.query(
            """
            SELECT (SELECT coalesce(max(position), 0) FROM events) AS head,
                   (SELECT coalesce(max(position), 0) FROM projection_checkpoints WHERE name = $1) AS checkpoint,
                   (SELECT count(*) FROM activity_pushes WHERE state = 'pending') AS pending,
                   a.activities, a.followers,
                   (SELECT count(*) FROM nodes WHERE heartbeat_at > now() - make_interval(secs => $2)) AS nodes
            FROM (SELECT count(*) FILTER (WHERE route <> 'android') AS activities,
                         count(*) FILTER (WHERE route = 'android') AS followers
                  FROM activities WHERE active) a
            """, [Projector.name, Cluster.aliveWithin])[0]
        let head = try row.int("head")
        gauge("scorefeed_log_head_position").record(head)
        gauge("scorefeed_projection_lag_events").record(head - (try row.int("checkpoint")))
        gauge("scorefeed_outbox_depth").record(try row.int("pending"))
        gauge("scorefeed_activities_active").record(try row.int("activities"))
        gauge("scorefeed_followers_active").record(try row.int("followers"))
        gauge("scorefeed_stream_clients").record(streams)
        gauge("scorefeed_cluster_nodes").record(try row.int("nodes"))
        gauge("scorefeed_node_leader").record(leader ? 1 : 0)
        if let replica {
            gauge("scorefeed_replica_lag_events").record(max(0, head - replica.head))
            gauge("scorefeed_replica_lag_seconds").record(replica.seconds)
        }
        CoreMetrics.Gauge(
            label: "scorefeed_build_info", dimensions: [("version", ScoreFeedVersion.current)], factory: factory
        )
        .record(1)
        var text = [UInt8]()
        registry.emit(into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private func counter(_ label: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
    }

    private func gauge(_ label: String) -> CoreMetrics.Gauge {
        CoreMetrics.Gauge(label: label, factory: factory)
    }
}
