import PostgresClient
import Prometheus
import ScoreStore

/// The server's metrics (kept in its own Prometheus registry) and their text format.
///
/// Counters are counted as things happen in this process; the gauges that describe the database
/// (projection lag, outbox depth) are read from it at each scrape, so they are right even when
/// other processes append or deliver. Every family carries its `# HELP` text from ``help``.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// Each metric family the server exports and its `# HELP` text: what it counts, with its unit.
    static let help: KeyValuePairs<String, String> = [
        "scorefeed_events_appended_total": "Messages POST /v1/feed stored in the event log (events).",
        "scorefeed_events_duplicate_total": "Messages POST /v1/feed received that were already stored (events).",
        "scorefeed_ingest_refused_total": "Requests POST /v1/feed refused, by HTTP status (requests).",
        "scorefeed_pushes_total": "Push delivery attempts, by result, service reason and target (attempts).",
        "scorefeed_delivery_paused":
            "1 while delivery through the service (apns, fcm) is paused until restarted, else 0 (boolean).",
        "scorefeed_updates_coalesced_total":
            "Activity changes the throttle held back to coalesce into a later update (changes).",
        "scorefeed_http_connections_max": "Cap on open HTTP connections, SCOREFEED_MAX_CONNECTIONS (connections).",
        "scorefeed_http_connections": "HTTP connections open now (connections).",
        "scorefeed_http_connections_closed_total": "HTTP connections the server closed, by reason (connections).",
        "scorefeed_stream_disconnects_total": "Live streams the server ended or refused, by reason (streams).",
        "scorefeed_log_head_position": "Position of the newest event in the event log (log position).",
        "scorefeed_projection_lag_events": "Events in the log the projector has not applied yet (events).",
        "scorefeed_outbox_depth":
            "Messages pending delivery: pushes, group messages still being walked, broadcasts and starts (messages).",
        "scorefeed_activities_active":
            "Active Live Activities (through APNs or FCM), Android followers excluded (activities).",
        "scorefeed_followers_active": "Active Android followers (followers).",
        "scorefeed_stream_clients": "Live stream clients connected to this node (clients).",
        "scorefeed_cluster_nodes": "Nodes whose heartbeat is recent enough to count as alive (nodes).",
        "scorefeed_node_leader": "1 if this node is the cluster leader, else 0 (boolean).",
        "scorefeed_replica_lag_events": "Events on the primary this replica has not replayed yet (events).",
        "scorefeed_replica_lag_seconds":
            "Time since this replica replayed its last transaction, 0 on a primary (seconds).",
        "scorefeed_build_info": "Always 1; the version label names the running server's version (info).",
    ]

    public init() {
        // Shown from the start, at zero.
        ingested(appended: 0, duplicates: 0)
        coalesced(0)
        for service in Self.deliveryServices {
            gauge("scorefeed_delivery_paused", [("service", service)]).set(Int64(0))
        }
    }

    /// The delivery services, each with its `scorefeed_delivery_paused` gauge.
    static let deliveryServices = ["apns", "fcm"]

    /// Messages stored by `POST /v1/feed`, and those that were already stored.
    func ingested(appended: Int, duplicates: Int) {
        counter("scorefeed_events_appended_total").increment(by: Int64(appended))
        counter("scorefeed_events_duplicate_total").increment(by: Int64(duplicates))
    }

    /// A request `POST /v1/feed` refused, by HTTP status.
    func ingestRefused(status: Int) {
        counter("scorefeed_ingest_refused_total", [("status", String(status))]).increment()
    }

    /// One delivery attempt's outcome and the service's reason, per kind of target: `liveActivity` (by
    /// its own token to APNs), `fcm` (an activity or an Android follower through FCM), `channel`,
    /// `pushToStart`. An outcome `paused` sets the service's (`apns`, `fcm`) `scorefeed_delivery_paused`
    /// to 1: its worker stops until the server is restarted.
    func push(outcome: String, reason: String?, target: String = "liveActivity", service: String = "apns") {
        counter(
            "scorefeed_pushes_total", [("result", outcome), ("reason", Self.reasonLabel(reason)), ("target", target)]
        )
        .increment()
        if outcome == "paused" { deliveryPaused(service: service) }
    }

    /// Delivery through `service` (`apns`, `fcm`) paused until the server is restarted: its
    /// `scorefeed_delivery_paused` reads 1 from now on.
    func deliveryPaused(service: String) {
        gauge("scorefeed_delivery_paused", [("service", service)]).set(Int64(1))
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
        counter("scorefeed_updates_coalesced_total").increment(by: Int64(count))
    }

    /// Records the cap on HTTP connections (`SCOREFEED_MAX_CONNECTIONS`) and returns the gauge of the
    /// open ones (made once: it is set at every connection's opening and closing).
    func connections(capacity: Int) -> Prometheus.Gauge {
        gauge("scorefeed_http_connections_max").set(Int64(capacity))
        return gauge("scorefeed_http_connections")
    }

    /// An HTTP connection the server closed, by reason: `header-timeout`, `idle-timeout`,
    /// `body-timeout`, `evicted` (to make room at the cap), `refused` (at the cap, every other busy).
    func connectionClosed(reason: String, count: Int = 1) {
        counter("scorefeed_http_connections_closed_total", [("reason", reason)]).increment(by: Int64(count))
    }

    /// A live stream the server ended or refused, by reason: `too-slow` (more changes behind than its
    /// queue), `not-reading` (a write waited past its deadline), `refused` (at the node's stream limit).
    func streamEnded(reason: String) {
        counter("scorefeed_stream_disconnects_total", [("reason", reason)]).increment()
    }

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

    /// The Prometheus text of every metric, after reading the database gauges.
    func render(
        streams: Int, leader: Bool, replica: (head: Int, seconds: Double)? = nil, in session: PostgresSession
    ) throws -> String {
        let row = try session.query(
            """
            SELECT (SELECT coalesce(max(position), 0) FROM events) AS head,
                   (SELECT coalesce(max(position), 0) FROM projection_checkpoints WHERE name = $1) AS checkpoint,
                   (SELECT count(*) FROM outbox WHERE state = 'pending') AS pending,
                   a.activities, a.followers,
                   (SELECT count(*) FROM nodes WHERE heartbeat_at > now() - make_interval(secs => $2)) AS nodes
            FROM (SELECT count(*) FILTER (WHERE route <> 'android') AS activities,
                         count(*) FILTER (WHERE route = 'android') AS followers
                  FROM activities WHERE active) a
            """, [Projector.name, Cluster.aliveWithin])[0]
        let head = try row.int("head")
        gauge("scorefeed_log_head_position").set(Int64(head))
        gauge("scorefeed_projection_lag_events").set(Int64(head - (try row.int("checkpoint"))))
        gauge("scorefeed_outbox_depth").set(Int64(try row.int("pending")))
        gauge("scorefeed_activities_active").set(Int64(try row.int("activities")))
        gauge("scorefeed_followers_active").set(Int64(try row.int("followers")))
        gauge("scorefeed_stream_clients").set(Int64(streams))
        gauge("scorefeed_cluster_nodes").set(Int64(try row.int("nodes")))
        gauge("scorefeed_node_leader").set(Int64(leader ? 1 : 0))
        if let replica {
            gauge("scorefeed_replica_lag_events").set(Int64(max(0, head - replica.head)))
            gauge("scorefeed_replica_lag_seconds").set(replica.seconds)
        }
        gauge("scorefeed_build_info", [("version", ScoreFeedVersion.current)]).set(Int64(1))
        var text = [UInt8]()
        registry.emit(into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private func counter(_ name: String, _ labels: [(String, String)] = []) -> Prometheus.Counter {
        registry.makeCounter(descriptor: Self.descriptor(name), labels: labels)
    }

    private func gauge(_ name: String, _ labels: [(String, String)] = []) -> Prometheus.Gauge {
        registry.makeGauge(descriptor: Self.descriptor(name), labels: labels)
    }

    /// A family's full name and its `# HELP` text from ``help`` (every family the server makes is there).
    private static func descriptor(_ name: String) -> MetricNameDescriptor {
        guard let text = help.first(where: { $0.key == name })?.value else {
            preconditionFailure("metric \(name) has no help text in ServerMetrics.help")
        }
        return MetricNameDescriptor(metricName: name, unitName: "", helpText: text)
    }
}
