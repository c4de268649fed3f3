import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A local APNs-compatible server (HTTP/2 over TLS) for tests and development.
///
/// It checks each `POST /3/device/<token>` like APNs (headers, JWT, payload), answers like APNs, records
/// every request (see ``deliveries()``) and plays scripted faults (see ``inject(_:count:token:)``).
/// At start it makes a throw-away CA and a server certificate for `localhost`/`127.0.0.1`, and writes the
/// CA certificate to ``caCertificatePath`` for clients to trust.
///
/// Lifecycle: ``start(_:)`` + ``stop()``, or structured: ``withRunning(_:_:)``, or ``bind(_:)`` then
/// ``run()`` in a task of your own (e.g. a service group); ``run()`` returns on cancellation or ``stop()``.
public final class APNsSandbox: Sendable {
    /// The configuration the sandbox runs with.
    public let configuration: Configuration
    /// The bound TCP port (the chosen one when the configuration asked for `0`).
    public let port: Int
    /// Where the CA certificate (PEM) was written (a temporary file, removed when the sandbox stops,
    /// unless the configuration named one).
    public let caCertificatePath: String
    /// The CA certificate (PEM) clients must trust.
    public let caCertificatePEM: String
    /// `https://127.0.0.1:<port>` (with the configured host), the base URL for clients.
    public let url: URL

    let state: SandboxState
    let connections: ConnectionRegistry
    /// The broadcast channels created through the channel management API.
    public let channels: SandboxChannels
    let logger: Logger
    let serverChannel: any Channel
    /// The sandbox's own event loop(s): the listener and every connection, apart from the clients' loops.
    let group: MultiThreadedEventLoopGroup
    private let stopSignal: AsyncStream<Void>.Continuation
    private let stopStream: AsyncStream<Void>
    private let lifecycle = NIOLockedValueBox(Lifecycle())
    /// The CA certificate file is the sandbox's own (none was asked for): removed at shutdown.
    private let ownsCACertificate: Bool

    private struct Lifecycle {
        var running = false
        var shutDown = false
        var ownedTask: Task<Void, Never>?
    }

    private init(
        configuration: Configuration,
        port: Int,
        certificates: SandboxCertificates,
        caCertificatePath: String,
        url: URL,
        serverChannel: any Channel,
        group: MultiThreadedEventLoopGroup,
        state: SandboxState,
        connections: ConnectionRegistry,
        channels: SandboxChannels,
        logger: Logger
    ) {
        self.channels = channels
        self.configuration = configuration
        self.port = port
        self.caCertificatePEM = certificates.caCertificatePEM
        self.caCertificatePath = caCertificatePath
        self.ownsCACertificate = configuration.caCertificateOutput == nil
        self.url = url
        self.serverChannel = serverChannel
        self.group = group
        self.state = state
        self.connections = connections
        self.logger = logger
        (self.stopStream, self.stopSignal) = AsyncStream<Void>.makeStream()
    }

    /// Generates the certificates, writes the CA certificate and binds the listening socket; does not
    /// serve until ``run()``.
    /// - Parameters:
    ///   - configuration: Address, accepted ids and key, output files, initial faults.
    ///   - logger: Receives debug lines about connections and requests (default: discards everything).
    /// - Returns: The bound sandbox.
    /// - Throws: ``APNsSandboxError``.
    public static func bind(
        _ configuration: Configuration,
        logger: Logger = Logger(label: "apns-sandbox", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(APNsSandboxError) -> APNsSandbox {
        let publicKey: P256.Signing.PublicKey
        do {
            publicKey = try P256.Signing.PublicKey(pemRepresentation: configuration.publicKeyPEM)
        } catch {
            throw APNsSandboxError(.invalidPublicKey, "publicKeyPEM is not a PEM P-256 public key")
        }
        guard (0...65535).contains(configuration.port), !configuration.bundleId.isEmpty,
            !configuration.teamId.isEmpty, !configuration.keyId.isEmpty, configuration.maximumConcurrentStreams > 0
        else {
            throw APNsSandboxError(.invalidConfiguration, "port, ids or stream limit out of range")
        }
        // An IPv6 address goes in brackets.
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        guard URL(string: "https://\(host):\(configuration.port)")?.host != nil else {
            throw APNsSandboxError(.invalidConfiguration, "host \(configuration.host) is not an address for a URL")
        }
        let certificates = try SandboxCertificates.generate()
        let sslContext = try certificates.makeSSLContext()
        let state = try SandboxState(
            faults: configuration.faults, random: configuration.randomFaults, deliveryLog: configuration.deliveryLog)
        let tokenVerifier = ProviderTokenVerifier(
            keyId: configuration.keyId,
            teamId: configuration.teamId,
            publicKey: publicKey,
            lifetime: configuration.providerTokenLifetime / .seconds(1)
        )
        let channels = SandboxChannels(maximum: configuration.maximumChannels)
        let validator = RequestValidator(
            topic: configuration.topic, tokenVerifier: tokenVerifier,
            broadcasts: BroadcastValidator(
                bundleId: configuration.bundleId, tokenVerifier: tokenVerifier, channels: channels))
        let connections = ConnectionRegistry()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: eventLoopThreads)
        let serverChannel: any Channel
        do {
            serverChannel = try await bindSocket(
                configuration,
                group: group,
                sslContext: sslContext,
                registry: connections,
                state: state,
                validator: validator,
                logger: logger
            )
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        // Written once the socket is bound (no client can connect before bind returns), so a failed
        // bind leaves no file behind.
        let caPath =
            configuration.caCertificateOutput
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("apns-sandbox-ca-\(UUID()).pem").path
        func abandon(_ error: APNsSandboxError) async -> APNsSandboxError {
            try? await serverChannel.close()
            try? await group.shutdownGracefully()
            return error
        }
        guard let port = serverChannel.localAddress?.port, let url = URL(string: "https://\(host):\(port)") else {
            throw await abandon(APNsSandboxError(.bindFailed, "the listening socket has no port"))
        }
        guard FileManager.default.createFile(atPath: caPath, contents: Data(certificates.caCertificatePEM.utf8)) else {
            throw await abandon(APNsSandboxError(.cannotWriteFile, "cannot write the CA certificate to \(caPath)"))
        }
        logger.debug("APNs sandbox bound", metadata: ["sandbox.port": "\(port)", "sandbox.ca": "\(caPath)"])
        return APNsSandbox(
            configuration: configuration,
            port: port,
            certificates: certificates,
            caCertificatePath: caPath,
            url: url,
            serverChannel: serverChannel,
            group: group,
            state: state,
            connections: connections,
            channels: channels,
            logger: logger
        )
    }

    /// Binds (see ``bind(_:logger:)``) and serves in a background task until ``stop()``.
    /// - Parameters:
    ///   - configuration: Address, accepted ids and key, output files, initial faults.
    ///   - logger: Receives debug lines (default: discards everything).
    /// - Returns: The running sandbox; call ``stop()`` when done.
    /// - Throws: ``APNsSandboxError``.
    public static func start(
        _ configuration: Configuration,
        logger: Logger = Logger(label: "apns-sandbox", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(APNsSandboxError) -> APNsSandbox {
        let sandbox = try await bind(configuration, logger: logger)
        let task = Task { await sandbox.run() }
        sandbox.lifecycle.withLockedValue { $0.ownedTask = task }
        return sandbox
    }

    /// Runs `body` with a serving sandbox, then stops it (structured: no task outlives the call).
    /// - Parameters:
    ///   - configuration: Address, accepted ids and key, output files, initial faults.
    ///   - logger: Receives debug lines (default: discards everything).
    ///   - body: The work using the sandbox.
    /// - Returns: What `body` returns.
    /// - Throws: ``APNsSandboxError`` from binding, or what `body` throws.
    public static func withRunning<Result: Sendable>(
        _ configuration: Configuration,
        logger: Logger = Logger(label: "apns-sandbox", factory: { _ in SwiftLogNoOpLogHandler() }),
        _ body: (APNsSandbox) async throws -> Result
    ) async throws -> Result {
        let sandbox = try await bind(configuration, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await sandbox.run() }
            do {
                let result = try await body(sandbox)
                await sandbox.stop()
                try await group.waitForAll()
                return result
            } catch {
                await sandbox.stop()
                group.cancelAll()
                throw error
            }
        }
    }

    /// Serves connections until ``stop()`` is called or the calling task is cancelled; then closes the
    /// listening socket and all connections and returns. Call it at most once.
    public func run() async {
        let first = lifecycle.withLockedValue { state in
            defer { state.running = true }
            return !state.running
        }
        guard first else { return }
        for await _ in stopStream {}  // until stop() or cancellation
        await shutDown()
    }

    /// Stops serving: closes the listening socket and every connection, and (for ``start(_:)``) waits until
    /// the background task has finished.
    public func stop() async {
        stopSignal.finish()
        let (task, wasRunning) = lifecycle.withLockedValue { state in
            defer { state.running = true }  // a later run() returns at once
            return (state.ownedTask, state.running)
        }
        if !wasRunning { await shutDown() }
        await task?.value
    }

    /// Closes the listener and every connection, then ends the event loop(s) and the delivery log. Once.
    private func shutDown() async {
        let first = lifecycle.withLockedValue { state in
            defer { state.shutDown = true }
            return !state.shutDown
        }
        guard first else { return }
        try? await serverChannel.close()
        connections.closeAll()
        // Fails the pending delays, which record their requests as abandoned.
        try? await group.shutdownGracefully()
        state.close()
        if ownsCACertificate { try? FileManager.default.removeItem(atPath: caCertificatePath) }
        logger.debug("APNs sandbox stopped", metadata: ["sandbox.port": "\(port)"])
    }

    deinit {
        // Neither run() nor stop() ended the event loop (a bound sandbox dropped unused).
        if !lifecycle.withLockedValue({ $0.shutDown }) {
            group.shutdownGracefully { _ in }
            if ownsCACertificate { try? FileManager.default.removeItem(atPath: caCertificatePath) }
        }
    }

    /// Every request received so far, in order of completion.
    public func deliveries() async -> [Delivery] { state.deliveries() }

    /// The requests that were delivered (see ``Delivery/isDelivered``).
    public func delivered() async -> [Delivery] { state.deliveries().filter(\.isDelivered) }

    /// Forgets the recorded requests (the delivery log file is kept).
    public func removeAllDeliveries() async { state.removeAllDeliveries() }

    /// Queues a fault for the next `count` requests (to `token` only, when given).
    /// - Parameters:
    ///   - fault: What to do instead of a normal answer.
    ///   - count: How many matching requests it applies to (default 1).
    ///   - token: Restrict it to one device token (default: any request).
    public func inject(_ fault: Fault, count: Int = 1, token: String? = nil) async {
        state.inject(ScriptedFault(fault, count: count, token: token))
    }

    /// The faults not consumed yet.
    public func pendingFaults() async -> [ScriptedFault] { state.pendingFaults() }

    /// Drops all queued faults.
    public func removeAllFaults() async { state.removeAllFaults() }

    /// How many TCP connections were accepted since start.
    public func connectionCount() -> Int { connections.acceptedCount }

    /// The largest number of requests (HTTP/2 streams) handled at the same time since start.
    public func peakConcurrentRequests() async -> Int { state.peakConcurrentRequests() }

    /// Threads of the sandbox's own event loop group: one connection lives on one loop, so a client
    /// with several connections gets several cores (up to 4).
    static let eventLoopThreads = max(1, min(4, System.coreCount))
}
