import Foundation
import ScoreStore

/// What `scorefeed serve` is told: where to listen and whom to trust.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Bearer keys a scoring provider may post to `/v1/feed` with (`SCOREFEED_INGEST_KEYS`).
    public var ingestKeys: [String] = []
    /// The secret of the HMAC-SHA256 body signature (`SCOREFEED_INGEST_SECRET`).
    public var ingestSecret: String?
    /// How far a signed request's `X-ScoreFeed-Timestamp` may be from the server's clock, in seconds
    /// (`SCOREFEED_SIGNATURE_TOLERANCE_SECONDS`, default 300): older captured requests cannot be replayed.
    public var signatureTolerance: TimeInterval = 300
    /// Push-to-start goes this many seconds before the scheduled first pitch
    /// (`SCOREFEED_START_LEAD_SECONDS`, default 0: at the first pitch; the game's start event also starts).
    public var startLeadSeconds = 0
    /// At most one broadcast per channel in this many seconds (`SCOREFEED_CHANNEL_INTERVAL_SECONDS`, default 3).
    public var channelIntervalSeconds = 3
    /// The server's clock, for the signature window (tests pass their own).
    public var now: @Sendable () -> Date = { Date() }
    /// The apps, each with the bearer keys it registers its activities, devices and followers with
    /// (`SCOREFEED_APP_KEYS=APP:KEY[,APP:KEY…]`, a bare `KEY` the default app's), its bundle ids and
    /// Firebase project (`SCOREFEED_APP_<NAME>_BUNDLE_IDS`, `…_FIREBASE_PROJECT`).
    public var appKeys = AppKeys()
    /// The APNs bundle id (`SCOREFEED_APNS_BUNDLE_ID`, or `serve --apns-bundle-id`): the `bundleId` of a
    /// registration that gives none, when the app's settings do not name exactly one.
    public var apnsBundleId: String?
    /// The largest request body accepted, in bytes (`SCOREFEED_MAX_BODY_BYTES`, default 1 MiB).
    public var maxBodyBytes = 1 << 20
    /// Database connections for the HTTP handlers (the workers have their own).
    public var databaseConnections = 4
    /// This node's id in a cluster of `serve` processes on one database (`--node-id`, `SCOREFEED_NODE_ID`;
    /// default: host name and process id).
    public var nodeId = ServerConfiguration.defaultNodeId
    /// A streaming replica of the database for the read API, the page and the stream's catch-up
    /// (`SCOREFEED_READ_DATABASE_URL`); writes and LISTEN stay on the primary.
    public var readDatabaseURL: String?
    /// How long a client may take to send a request's headers, from its connection or from the first
    /// byte of a later request (`SCOREFEED_HEADER_TIMEOUT_SECONDS`, default 5).
    public var headerTimeout: Duration = .seconds(5)
    /// How long a keep-alive connection may stay silent between requests (`SCOREFEED_IDLE_TIMEOUT_SECONDS`,
    /// default 30).
    public var idleTimeout: Duration = .seconds(30)
    /// How long the server waits for more of a request body it is reading (`SCOREFEED_BODY_TIMEOUT_SECONDS`,
    /// default 10).
    public var bodyTimeout: Duration = .seconds(10)
    /// The most HTTP connections open at once (`SCOREFEED_MAX_CONNECTIONS`; default `nil`: derived from the
    /// file-descriptor limit, leaving room for the database connections and files).
    public var maxConnections: Int?
    /// What a live stream may cost this node: at most `streams.maxClients` streams at once
    /// (`SCOREFEED_MAX_STREAM_CLIENTS`, default 1000; past it a stream is answered 503 with `Retry-After`),
    /// and when a client that does not keep up is ended (``StreamLimits``).
    public var streams = StreamLimits()

    public init() {}

    /// The environment variables read by ``fromEnvironment(_:)``.
    public enum Variable {
        public static let ingestKeys = "SCOREFEED_INGEST_KEYS"
        public static let ingestSecret = "SCOREFEED_INGEST_SECRET"
        public static let appKeys = "SCOREFEED_APP_KEYS"
        public static let maxBodyBytes = "SCOREFEED_MAX_BODY_BYTES"
        public static let signatureTolerance = "SCOREFEED_SIGNATURE_TOLERANCE_SECONDS"
        public static let startLead = "SCOREFEED_START_LEAD_SECONDS"
        public static let channelInterval = "SCOREFEED_CHANNEL_INTERVAL_SECONDS"
        public static let nodeId = "SCOREFEED_NODE_ID"
        public static let readDatabaseURL = "SCOREFEED_READ_DATABASE_URL"
        public static let maxStreamClients = "SCOREFEED_MAX_STREAM_CLIENTS"
        public static let headerTimeout = "SCOREFEED_HEADER_TIMEOUT_SECONDS"
        public static let idleTimeout = "SCOREFEED_IDLE_TIMEOUT_SECONDS"
        public static let bodyTimeout = "SCOREFEED_BODY_TIMEOUT_SECONDS"
        public static let maxConnections = "SCOREFEED_MAX_CONNECTIONS"
        public static let apnsBundleId = "SCOREFEED_APNS_BUNDLE_ID"
    }

    /// The host name and process id, with characters a node id does not allow replaced by `-`.
    public static var defaultNodeId: String {
        let raw = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        return String(raw.unicodeScalars.map { Cluster.isValid(nodeId: String($0)) ? Character($0) : "-" }.prefix(128))
    }

    /// Reads the credentials and limits from the environment. Keys are comma-separated.
    public static func fromEnvironment(_ env: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.ingestKeys = try keys(env[Variable.ingestKeys], name: Variable.ingestKeys)
        if let bundle = env[Variable.apnsBundleId], !bundle.isEmpty { configuration.apnsBundleId = bundle }
        configuration.appKeys = try AppKeys.fromEnvironment(env)
        if let secret = env[Variable.ingestSecret], !secret.isEmpty {
            guard secret.utf8.count >= 16 else {
                throw ConfigurationError("\(Variable.ingestSecret) must be at least 16 bytes long")
            }
            configuration.ingestSecret = secret
        }
        if let text = env[Variable.maxBodyBytes], !text.isEmpty {
            guard let bytes = Int(text), (1...(64 << 20)).contains(bytes) else {
                throw ConfigurationError("\(Variable.maxBodyBytes) must be a number of bytes from 1 to 67108864")
            }
            configuration.maxBodyBytes = bytes
        }
        if let text = env[Variable.signatureTolerance], !text.isEmpty {
            guard let seconds = Int(text), (1...86_400).contains(seconds) else {
                throw ConfigurationError("\(Variable.signatureTolerance) must be a number of seconds from 1 to 86400")
            }
            configuration.signatureTolerance = TimeInterval(seconds)
        }
        if let text = env[Variable.startLead], !text.isEmpty {
            guard let seconds = Int(text), (0...86_400).contains(seconds) else {
                throw ConfigurationError("\(Variable.startLead) must be a number of seconds from 0 to 86400")
            }
            configuration.startLeadSeconds = seconds
        }
        if let text = env[Variable.readDatabaseURL], !text.isEmpty {
            guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") || text.contains("=") else {
                throw ConfigurationError("\(Variable.readDatabaseURL) must be a libpq connection URL or string")
            }
            configuration.readDatabaseURL = text
        }
        try readConnectionLimits(env, into: &configuration)
        if let text = env[Variable.nodeId], !text.isEmpty {
            guard Cluster.isValid(nodeId: text) else {
                throw ConfigurationError("\(Variable.nodeId) must be \(Cluster.nodeIdRule)")
            }
            configuration.nodeId = text
        }
        if let text = env[Variable.channelInterval], !text.isEmpty {
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw ConfigurationError("\(Variable.channelInterval) must be a number of seconds from 1 to 3600")
            }
            configuration.channelIntervalSeconds = seconds
        }
        if let text = env[Variable.maxStreamClients], !text.isEmpty {
            guard let count = Int(text), (1...100_000).contains(count) else {
                throw ConfigurationError("\(Variable.maxStreamClients) must be a number of clients from 1 to 100000")
            }
            configuration.streams.maxClients = count
        }
        return configuration
    }

    /// The timeouts (seconds, fractions allowed, 0.05 to 3600) and the connection cap (1 to 1000000).
    private static func readConnectionLimits(
        _ env: [String: String], into configuration: inout ServerConfiguration
    ) throws(ConfigurationError) {
        for (name, path) in [
            (Variable.headerTimeout, \ServerConfiguration.headerTimeout),
            (Variable.idleTimeout, \.idleTimeout), (Variable.bodyTimeout, \.bodyTimeout),
        ] {
            guard let text = env[name], !text.isEmpty else { continue }
            guard let seconds = Double(text), (0.05...3600).contains(seconds) else {
                throw ConfigurationError("\(name) must be a number of seconds from 0.05 to 3600")
            }
            configuration[keyPath: path] = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if let text = env[Variable.maxConnections], !text.isEmpty {
            guard let count = Int(text), (1...1_000_000).contains(count) else {
                throw ConfigurationError("\(Variable.maxConnections) must be a number of connections from 1 to 1000000")
            }
            configuration.maxConnections = count
        }
    }

    private static func keys(_ text: String?, name: String) throws(ConfigurationError) -> [String] {
        let keys = (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for key in keys where key.utf8.count < 16 || key.contains(where: { $0.isWhitespace }) {
            throw ConfigurationError("\(name): every key must be at least 16 characters without spaces")
        }
        return keys.filter { !$0.isEmpty }
    }
}

/// A setting that cannot work, named for the operator.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
