import Foundation
import LocalServer
import Logging
import NIOConcurrencyHelpers

/// A local Firebase Cloud Messaging HTTP v1 compatible server (HTTP/2 over TLS) for tests and the demo.
///
/// It issues OAuth 2.0 access tokens at `POST /token` for JWT assertions signed with its own
/// service-account key (``serviceAccountJSON``), checks each
/// `POST /v1/projects/{projectId}/messages:send` as FCM does (bearer token, project, message
/// structure, payload sizes, the per-device rate), answers in Google's formats, records every request
/// (see ``messages()``) and plays scripted faults (see ``inject(_:count:token:)``). At start it makes a
/// throw-away CA and a server certificate for `localhost`/`127.0.0.1`, and writes the CA certificate
/// to ``caCertificatePath`` for clients to trust.
///
/// Lifecycle: ``start(_:logger:)``, then ``stop()``.
public final class FCMSandbox: Sendable {
    /// The configuration the sandbox runs with.
    public let configuration: Configuration
    /// The bound TCP port (the chosen one when the configuration asked for `0`).
    public let port: Int
    /// `https://127.0.0.1:<port>` (with the configured host): the FCM base URL for clients.
    public let url: URL
    /// Where the CA certificate (PEM) was written: `<directory>/ca.pem`, or a temporary file removed when
    /// the sandbox stops.
    public let caCertificatePath: String
    /// The CA certificate (PEM) clients must trust.
    public let caCertificatePEM: String
    /// Where the service-account key file was written (mode 0600): `<directory>/service-account.json`, or
    /// a temporary file removed when the sandbox stops.
    public let serviceAccountPath: String
    /// The service-account key file clients sign their assertions with: `type`, `project_id`,
    /// `private_key_id`, `private_key` (PKCS#8 PEM, RSA 2048), `client_email`, `client_id`, `token_uri`
    /// (``url`` + `/token`), … It holds a private key: do not log it.
    public let serviceAccountJSON: String
    /// The `env` file with the client settings, when the configuration named a directory.
    public let envPath: String?

    let state: SandboxState
    private let logger: Logger
    /// TLS, HTTP/2, the event loops and the connections.
    private let listener: LocalListener
    /// Its files; a temporary folder (no directory configured) is removed at stop.
    private let files: Files
    private let isStopped = NIOLockedValueBox(false)

    private init(
        configuration: Configuration, listener: LocalListener, files: Files, serviceAccountJSON: String,
        state: SandboxState, logger: Logger
    ) {
        self.configuration = configuration
        self.port = listener.port
        self.url = listener.url
        self.caCertificatePath = files.caCertificate
        self.caCertificatePEM = listener.caCertificatePEM
        self.serviceAccountPath = files.serviceAccount
        self.serviceAccountJSON = serviceAccountJSON
        self.envPath = files.env
        self.files = files
        self.state = state
        self.logger = logger
        self.listener = listener
    }

    /// Generates the certificates and the service-account key, binds the listening socket, writes the
    /// files and serves until ``stop()``.
    /// - Parameters:
    ///   - configuration: Address, project, token lifetime, limits, initial faults, output folder.
    ///   - logger: Receives debug lines about connections and requests, never keys or full tokens
    ///     (default: discards everything).
    /// - Returns: The serving sandbox; call ``stop()`` when done.
    /// - Throws: ``FCMSandboxError``.
    public static func start(
        _ configuration: Configuration,
        logger: Logger = Logger(label: "fcm-sandbox", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(FCMSandboxError) -> FCMSandbox {
        if let problem = configuration.problem { throw FCMSandboxError(.invalidConfiguration, problem) }
        var account = try ServiceAccount(projectId: configuration.projectId, baseURL: nil)
        let core = SandboxCore(
            projectId: configuration.projectId, verifier: account.verifier,
            tokenLifetime: configuration.accessTokenLifetime,
            perDeviceLimit: configuration.perDeviceLimitPerMinute, faults: configuration.faults)
        let files = try Files(directory: configuration.directory)
        let state: SandboxState
        do {
            state = try SandboxState(core: core, messageLog: files.messageLog)
        } catch {
            files.removeTemporary()
            throw error
        }
        let listener: LocalListener
        do {
            listener = try await LocalListener.bind(
                host: configuration.host, port: configuration.port, maximumConcurrentStreams: 1000,
                caCommonName: "ScoreFeed FCM Sandbox CA", name: "FCM sandbox", logger: logger
            ) { _ in RequestHandler(state: state, logger: logger) }
        } catch {
            state.close()
            files.removeTemporary()
            throw FCMSandboxError(Self.code(error.code), error.message)
        }
        account.tokenURI = listener.url.absoluteString + "/token"
        state.use(account.verifier)
        let json = account.json
        do {
            try files.write(caCertificatePEM: listener.caCertificatePEM, serviceAccountJSON: json, url: listener.url)
        } catch {
            await listener.close()
            state.close()
            files.removeTemporary()
            throw error
        }
        logger.debug(
            "FCM sandbox listening",
            metadata: [
                "sandbox.port": "\(listener.port)", "sandbox.ca": "\(files.caCertificate)",
                "fcm.project": "\(configuration.projectId)",
            ])
        return FCMSandbox(
            configuration: configuration, listener: listener, files: files, serviceAccountJSON: json, state: state,
            logger: logger)
    }

    /// The sandbox's code for a listener's failure.
    static func code(_ code: LocalServerError.Code) -> FCMSandboxError.Code {
        switch code {
        case .invalidAddress: .invalidConfiguration
        case .certificateGenerationFailed: .certificateGenerationFailed
        case .bindFailed: .bindFailed
        }
    }

    /// Stops serving: closes the listening socket and every connection, ends the message log and
    /// removes the temporary files. Later calls do nothing.
    public func stop() async {
        let first = isStopped.withLockedValue { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // Fails the pending delays, which record their requests as unanswered.
        await listener.close()
        state.close()
        files.removeTemporary()
        logger.debug("FCM sandbox stopped", metadata: ["sandbox.port": "\(port)"])
    }

    deinit {
        // Never stopped: the listener's own deinit ends its event loops.
        if !isStopped.withLockedValue({ $0 }) { files.removeTemporary() }
    }

    /// Every `messages:send` request received so far, accepted or refused, in arrival order (a request
    /// held by a ``FCMFault/delay(_:)`` appears once answered).
    public func messages() -> [FCMReceivedMessage] { state.messages() }

    /// The messages that were accepted (see ``FCMReceivedMessage/isAccepted``), in arrival order.
    public func accepted() -> [FCMReceivedMessage] { state.messages().filter(\.isAccepted) }

    /// Forgets the recorded messages (the `messages.jsonl` file is kept).
    public func removeAllMessages() { state.removeAllMessages() }

    /// Queues a fault for the next `count` matching requests.
    /// - Parameters:
    ///   - fault: What to do instead of a normal answer (``FCMFault/refuseToken`` applies to the token
    ///     endpoint, the others to `messages:send`).
    ///   - count: How many matching requests it applies to (default 1).
    ///   - token: Restrict it to messages to this registration token or FID (default: any).
    public func inject(_ fault: FCMFault, count: Int = 1, token: String? = nil) {
        state.inject(FCMScriptedFault(fault, count: count, token: token))
    }

    /// The faults not consumed yet, in order.
    public func pendingFaults() -> [FCMScriptedFault] { state.pendingFaults() }

    /// Revokes every access token issued so far: requests bearing one are answered `401 UNAUTHENTICATED`
    /// from now on, and clients must exchange a new assertion.
    public func expireAccessTokens() { state.expireAccessTokens() }

    /// How many access tokens the token endpoint has issued since start.
    public func issuedAccessTokens() -> Int { state.issuedAccessTokens() }
}
