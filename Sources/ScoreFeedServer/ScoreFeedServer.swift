import APNs
import FCM
import Foundation
import Hummingbird
import LiveActivity
import Logging
import NIOCore
import PostgresClient
import PushDelivery
import ScoreStore
import ServiceLifecycle
import UnixSignals

/// `scorefeed serve`: one `ServiceGroup` of the database (opened and migrated first, closed last),
/// the node's heartbeat, the leadership (the projector and the tick scheduler, on one node of a
/// cluster at a time), the push delivery workers, the HTTP server and the live-stream feed.
///
/// On SIGTERM or SIGINT the services stop in reverse order: the live streams end, the HTTP server
/// stops accepting and drains the requests in flight, the delivery worker finishes (or releases)
/// its round, the projector commits its page, and the database closes.
public struct ScoreFeedServer: Sendable {
    public let configuration: ServerConfiguration
    public let database: Database
    public let metrics: ServerMetrics
    /// This node of the cluster (`--node-id`): several `serve` processes may share one database.
    public let node: ClusterNodeState
    /// The live streams' hub, holding the newest `streamMemory` changes in memory.
    public let hub: ChangeHub
    /// The APNs client for an environment; `nil` runs without delivery (the outbox keeps the pushes).
    public let apns: (@Sendable (PushEnvironment) -> APNsClient)?
    /// The channel management client for an environment; `nil` without APNs settings (no channels).
    public var channels: (@Sendable (PushEnvironment) -> APNsChannelClient)?
    /// The broadcast client for an environment; `nil`: broadcasts wait in their outbox.
    public var broadcasts: (@Sendable (PushEnvironment) -> APNsClient)?
    /// The FCM client for activities registered through FCM and Android followers; `nil`: their
    /// pushes wait in the outbox.
    public var fcm: FCMClient?
    /// How long delivery may take to finish its round on shutdown.
    public var drain: Duration = .seconds(10)
    public var projector = Projector(clock: .wall({ Date() }))
    /// The trace exporter (OpenTelemetry), when tracing is on: run first, so it stops last and
    /// flushes the spans of every other service's shutdown.
    public var tracing: (any Service)?
    public let logger: Logger

    public init(
        configuration: ServerConfiguration, databaseURL: String,
        apns: (@Sendable (PushEnvironment) -> APNsClient)?, logger: Logger, metrics: ServerMetrics = ServerMetrics(),
        streamMemory: Int = 4096
    ) {
        self.hub = ChangeHub(capacity: streamMemory)
        self.configuration = configuration
        self.node = ClusterNodeState(id: configuration.nodeId)
        self.projector.channelPlanner = PushPlanner(policy: .channel(interval: configuration.channelIntervalSeconds))
        self.database = Database(
            url: databaseURL, readURL: configuration.readDatabaseURL, connections: configuration.databaseConnections)
        self.apns = apns
        self.logger = logger
        self.metrics = metrics
    }

    /// One route: method, path (`{name}` for a path parameter, as in `docs/openapi.yaml`), handler.
    typealias Route = (
        method: String, path: String, handler: @Sendable (Request, BasicRequestContext) async throws -> Response
    )

    /// Every route of the server, in one table.
    func table() -> [Route] {
        let operations = OperationRoutes(database: database, hub: hub, metrics: metrics, node: node)
        let cluster = ClusterRoute(database: database, node: node)
        let ingest = IngestRoute(configuration: configuration, database: database, metrics: metrics)
        let activities = ActivityRoutes(configuration: configuration, database: database, planner: projector.planner)
        let followers = FollowerRoutes(activities: activities)
        let channels = ChannelRoute(configuration: configuration, database: database, channels: self.channels)
        let reads = ReadRoutes(database: database, appKeys: configuration.appKeys)
        let streams = StreamRoute(database: database, hub: hub, metrics: metrics, limits: configuration.streams)
        let targets = TargetsRoute(
            appKeys: configuration.appKeys, database: database,
            view: OperatorTargets(policy: projector.planner.policy, channelPolicy: projector.channelPlanner.policy))
        return [
            ("GET", "/", Scoreboard.page), ("GET", "/games/{id}", Scoreboard.page),
            ("GET", "/games/{id}/operator", Scoreboard.operatorPage), ("GET", "/v1/games/{id}/targets", targets.handle),
            ("GET", "/healthz", operations.health), ("GET", "/readyz", operations.ready),
            ("GET", "/metrics", operations.metrics), ("GET", "/v1/cluster", cluster.handle),
            ("GET", "/openapi.yaml", OpenAPIRoute.handle),
            ("POST", "/v1/feed", ingest.handle),
            ("POST", "/v1/games/{id}/activities", activities.register),
            ("DELETE", "/v1/activities/{token}", activities.remove), ("POST", "/v1/devices", activities.registerDevice),
            ("GET", "/v1/activities/{token}", activities.show), ("PATCH", "/v1/activities/{token}", activities.update),
            ("POST", "/v1/followers", followers.follow), ("GET", "/v1/followers", followers.list),
            ("DELETE", "/v1/followers", followers.unfollow),
            ("GET", "/v1/games", reads.games), ("GET", "/v1/scoreboard", reads.scoreboard),
            ("GET", "/v1/games/{id}", reads.game), ("GET", "/v1/games/{id}/channel", channels.handle),
            ("GET", "/v1/games/{id}/events", reads.events), ("GET", "/v1/games/{id}/pushes", reads.pushes),
            ("GET", "/v1/stream", streams.all), ("GET", "/v1/games/{id}/stream", streams.game),
        ]
    }

    /// Every route, as `(method, path)` with `{name}` for a path parameter.
    public var routes: [(method: String, path: String)] { table().map { ($0.method, $0.path) } }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(JSONErrorMiddleware())
        router.middlewares.add(InputGuardMiddleware())
        router.middlewares.add(MethodNotAllowedMiddleware(routes: routes))
        for route in table() {
            let path = route.path.replacingOccurrences(of: "{", with: ":").replacingOccurrences(of: "}", with: "")
            router.on(RouterPath(path), method: HTTPRequest.Method(route.method)!, use: route.handler)
        }
        return router
    }

    /// Runs until SIGTERM or SIGINT (or the task is cancelled), then shuts down gracefully.
    ///
    /// - Parameter listening: called with the port once the HTTP server accepts connections.
    public func run(
        signals: [UnixSignal] = [.sigterm, .sigint], listening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        if configuration.ingestKeys.isEmpty && configuration.ingestSecret == nil {
            logger.warning(
                "no ingest credentials: POST /v1/feed refuses every request until SCOREFEED_INGEST_KEYS or SCOREFEED_INGEST_SECRET is set"
            )
        }
        if configuration.appKeys.isEmpty {
            logger.warning("no app keys: activity registration refuses every request until SCOREFEED_APP_KEYS is set")
        }
        let application = Application(
            router: router(), server: ConnectionLimits.server(configuration, metrics: metrics, logger: logger),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "ScoreFeed",
                // A flood of connections must not overflow the accept queue: a dropped SYN costs a client 1 s.
                backlog: 4096),
            onServerRunning: { channel in await listening(channel.localAddress?.port ?? 0) },
            logger: logger)
        // Stopped in reverse order: delivery first (it needs only the database: its round in flight
        // finishes or is released while the rest still runs), then the live streams (so the HTTP
        // server can drain), the HTTP server, the tick scheduler, the projector, and the database last.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: DatabaseService(database: database, logger: logger)),
            .init(service: NodeService(database: database, node: node, logger: logger)),
            .init(
                service: LeaderService(
                    projector: observedProjector(), startLead: configuration.startLeadSeconds, database: database,
                    node: node, logger: logger)),
            .init(service: application),
            .init(service: ChangeFeedService(hub: hub, database: database, logger: logger)),
        ]
        if let tracing { services.insert(.init(service: tracing), at: 0) }
        if let broadcasts {
            let worker = DeliveryRunner(
                BroadcastQueue(client: broadcasts), target: "channel", what: "broadcast delivery", server: self)
            services.append(
                .init(
                    service: DeliveryStarter(server: self, name: "broadcast", workers: [worker]),
                    successTerminationBehavior: .ignore))
        }
        if let channels {
            services.append(
                .init(
                    service: ChannelJanitorService(
                        channels: channels, dismissAfter: projector.throttle.dismissAfter, database: database,
                        logger: logger)))
        }
        if let apns {
            services.append(
                .init(
                    service: DeliveryStarter(server: self, name: "APNs", workers: deliveryWorkers(.apns(apns))),
                    successTerminationBehavior: .ignore))
        } else {
            logger.warning("push delivery is off (no APNs settings): pushes wait in the outbox")
        }
        if let fcm {
            services.append(
                .init(
                    service: DeliveryStarter(server: self, name: "FCM", workers: deliveryWorkers(.fcm(fcm))),
                    successTerminationBehavior: .ignore))
        } else {
            logger.info(
                "FCM delivery is off (SCOREFEED_FCM_CREDENTIALS unset): FCM and Android pushes wait in the outbox")
        }
        var group = ServiceGroupConfiguration(services: services, logger: logger)
        group.gracefulShutdownSignals = signals
        // A client that never finishes its request (or stops reading a stream) cannot hold the
        // shutdown up for ever: after this the remaining services are cancelled.
        group.maximumGracefulShutdownDuration = drain + .seconds(30)
        group.maximumCancellationDuration = .seconds(10)
        try await ServiceGroup(configuration: group).run()
        logger.info("stopped")
    }

    /// The workers of one transport: pushes to targets and push-to-start (APNs: to device tokens on the
    /// push host; FCM: the devices registered through FCM).
    private func deliveryWorkers(_ transport: DeliveryTransport) -> [DeliveryRunner] {
        let target = transport.name == "FCM" ? "fcm" : "liveActivity"
        return [
            DeliveryRunner(PushQueue(transport: transport), target: target, what: "push delivery", server: self),
            DeliveryRunner(
                StartQueue(transport: transport), target: "pushToStart", what: "push-to-start", server: self),
        ]
    }

    private func observedProjector() -> Projector {
        var projector = self.projector
        let metrics = self.metrics
        projector.onCoalesced = { metrics.coalesced($0) }
        return projector
    }
}

/// Runs delivery workers side by side on a connection of its own once the database is ready, and
/// again on a new connection when that one is lost (the messages they had claimed come back when
/// their lease ends).
struct DeliveryStarter: Service {
    let server: ScoreFeedServer
    /// What it delivers, in logs: `APNs`, `FCM`, `broadcast`.
    let name: String
    let workers: [DeliveryRunner]

    func run() async throws {
        _ = try await server.database.ready()
        let (logger, url, workers) = (server.logger, server.database.url, workers)
        try await onOwnConnection(url: url, logger: logger, what: "\(name) delivery") { connection in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in workers { group.addTask { try await worker.run(connection) } }
                try await group.waitForAll()
            }
        }
    }
}

/// One delivery worker (``DeliveryWorker``) as a ``DeliveryService`` on a given connection, its
/// outcomes counted under `target` in the metrics.
struct DeliveryRunner: Sendable {
    let run: @Sendable (PostgresConnection) async throws -> Void

    /// - Parameters:
    ///   - target: the metrics' kind of target (`liveActivity`, `fcm`, `channel`, `pushToStart`).
    ///   - what: the delivery named in logs (`push delivery`, `broadcast delivery`, `push-to-start`).
    init<Queue: DeliveryQueue>(_ queue: Queue, target: String, what: String, server: ScoreFeedServer) {
        let (metrics, logger, drain, url) = (server.metrics, server.logger, server.drain, server.database.url)
        let service = queue.service.lowercased()
        run = { connection in
            var worker = DeliveryWorker(connection: connection, queue: queue, logger: logger)
            worker.observe = { metrics.push(outcome: $0, reason: $1, target: target, service: service) }
            let delivery = DeliveryService(
                worker: worker, drain: drain, url: url, logger: logger, what: what,
                paused: { metrics.deliveryPaused(service: service) })
            try await delivery.run()
        }
    }
}
