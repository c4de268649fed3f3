import Crypto
import Foundation
import LocalServer
import Logging
import NIOConcurrencyHelpers

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
    /// The broadcast channels created through the channel management API.
    public let channels: SandboxChannels
    let logger: Logger
    /// TLS, HTTP/2, the event loops and the connections.
    let listener: LocalListener
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
        configuration: Configuration, listener: LocalListener, caCertificatePath: String, state: SandboxState,
        channels: SandboxChannels, logger: Logger
    ) {
        self.channels = channels
        self.configuration = configuration
        self.port = listener.port
        self.caCertificatePEM = listener.caCertificatePEM
        self.caCertificatePath = caCertificatePath
        self.ownsCACertificate = configuration.caCertificateOutput == nil
        self.url = listener.url
        self.listener = listener
        self.state = state
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
        let listener: LocalListener
        do {
            listener = try await LocalListener.bind(
                host: configuration.host, port: configuration.port,
                maximumConcurrentStreams: configuration.maximumConcurrentStreams,
                caCommonName: "ScoreFeed APNs Sandbox CA", name: "APNs sandbox", logger: logger
            ) { id in RequestHandler(state: state, validator: validator, logger: logger, connectionId: id) }
        } catch {
            state.close()
            throw APNsSandboxError(Self.code(error.code), error.message)
        }
        // Written once the socket is bound (no client can connect before bind returns), so a failed
        // bind leaves no file behind.
        let caPath =
            configuration.caCertificateOutput
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("apns-sandbox-ca-\(UUID()).pem").path
        guard FileManager.default.createFile(atPath: caPath, contents: Data(listener.caCertificatePEM.utf8)) else {
            await listener.close()
            state.close()
            throw APNsSandboxError(.cannotWriteFile, "cannot write the CA certificate to \(caPath)")
        }
        logger.debug("APNs sandbox bound", metadata: ["sandbox.port": "\(listener.port)", "sandbox.ca": "\(caPath)"])
        return APNsSandbox(
            configuration: configuration, listener: listener, caCertificatePath: caPath, state: state,
            channels: channels, logger: logger)
    }

    /// The sandbox's code for a listener's failure.
    static func code(_ code: LocalServerError.Code) -> APNsSandboxError.Code {
        switch code {
        case .invalidAddress: .invalidConfiguration
        case .certificateGenerationFailed: .certificateGenerationFailed
        case .bindFailed: .bindFailed
        }
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
        // Fails the pending delays, which record their requests as abandoned.
        await listener.close()
        state.close()
        if ownsCACertificate { try? FileManager.default.removeItem(atPath: caCertificatePath) }
        logger.debug("APNs sandbox stopped", metadata: ["sandbox.port": "\(port)"])
    }

    deinit {
        // Neither run() nor stop() shut it down (a bound sandbox dropped unused): the listener's own
        // deinit ends its event loops.
        if !lifecycle.withLockedValue({ $0.shutDown }), ownsCACertificate {
            try? FileManager.default.removeItem(atPath: caCertificatePath)
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
    public func connectionCount() -> Int { listener.acceptedConnections }

    /// The largest number of requests (HTTP/2 streams) handled at the same time since start.
    public func peakConcurrentRequests() async -> Int { state.peakConcurrentRequests() }
}
