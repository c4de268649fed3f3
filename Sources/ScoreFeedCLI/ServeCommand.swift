import APNs
import ArgumentParser
import Foundation
import ScoreFeedServer
import ScoreStore

/// `scorefeed serve`: the long-running server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server: ingest webhook, activity registration, read API, live stream, scoreboard, metrics.",
        discussion: """
            One service group runs the database (migrated on start), the projector, the push delivery \
            workers (APNs when configured; FCM for activities registered through it and Android followers \
            when SCOREFEED_FCM_CREDENTIALS is set), the HTTP server and the live stream. SIGTERM or SIGINT \
            stops it gracefully: streams end, requests in flight finish, claimed pushes finish or are \
            released, and the process exits 0.

            Credentials (comma-separated keys of at least 16 characters):
              SCOREFEED_INGEST_KEYS    bearer keys for POST /v1/feed
              SCOREFEED_INGEST_SECRET  HMAC-SHA256 secret for X-ScoreFeed-Signature on POST /v1/feed \
            (signs "<X-ScoreFeed-Timestamp>.<body>")
              SCOREFEED_APP_KEYS       bearer keys for registering and removing activities
            SCOREFEED_MAX_BODY_BYTES sets the body limit (default 1048576); \
            SCOREFEED_SIGNATURE_TOLERANCE_SECONDS how old a signed request may be (default 300).
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Write the port to this file once listening (useful with --port 0).")
    var portFile: String?

    @Option(help: "Seconds delivery may take to finish its round on shutdown before in-flight pushes are released.")
    var drainSeconds = 10

    @OptionGroup var apns: APNsOptions

    @OptionGroup var fcm: FCMOptions

    @Flag(help: "Run without push delivery even when APNs settings are present.")
    var noDelivery = false

    @Option(
        help:
            "This node's id when several serve processes share one database (SCOREFEED_NODE_ID; default: host name and process id)."
    )
    var nodeId: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard drainSeconds >= 0 else { throw ValidationError("--drain-seconds must not be negative") }
        if let nodeId, !Cluster.isValid(nodeId: nodeId) {
            throw ValidationError("--node-id must be \(Cluster.nodeIdRule)")
        }
    }

    func run() async throws {
        var configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.fromEnvironment(Runtime.environment)
        } catch {
            throw CLIError("\(error)")
        }
        configuration.host = host
        configuration.port = port
        if let nodeId { configuration.nodeId = nodeId }
        if let bundle = apns.bundleId, !bundle.isEmpty { configuration.apnsBundleId = bundle }
        let settings = noDelivery ? nil : try DeliverySettings.ifConfigured(apns: apns, fcm: fcm)
        let built = try settings?.clients(logger: Runtime.logger) ?? DeliveryClients()
        let (clients, fcmClient) = (built.apns, built.fcm)
        var delivery: (@Sendable (PushEnvironment) -> APNsClient)?
        var channels: (@Sendable (PushEnvironment) -> APNsChannelClient)?
        var broadcasts: (@Sendable (PushEnvironment) -> APNsClient)?
        if let clients {
            delivery = { clients.client($0) }
            channels = { clients.channels($0) }
            broadcasts = { clients.broadcasts($0) }
        }
        var server = ScoreFeedServer(
            configuration: configuration, databaseURL: try await Runtime.databaseURL(), apns: delivery,
            logger: Runtime.logger)
        server.channels = channels
        server.broadcasts = broadcasts
        server.fcm = fcmClient
        for warning in configuration.appKeys.deliveryWarnings(
            apnsBundleId: settings?.apns?.configuration.bundleId, fcmProject: settings?.fcm?.serviceAccount.projectId)
        {
            Runtime.logger.warning("\(warning)")
        }
        server.drain = Duration.seconds(drainSeconds)
        server.tracing = try TracingBootstrap.bootstrap(Runtime.environment)
        do {
            let (host, portFile) = (configuration.host, self.portFile)
            try await server.run { port in
                Runtime.logger.info("listening", metadata: ["url": "http://\(host):\(port)/"])
                if let portFile {
                    do {
                        try "\(port)\n".write(toFile: portFile, atomically: true, encoding: .utf8)
                    } catch {
                        Runtime.logger.error("cannot write the port file", metadata: ["error": "\(error)"])
                    }
                }
            }
        } catch {
            await built.shutdown()
            throw CLIError.portInUse(error, port: port) ?? error
        }
        await built.shutdown()
    }
}
