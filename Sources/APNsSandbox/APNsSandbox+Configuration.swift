import Foundation

extension APNsSandbox {
    /// How the sandbox listens, whom it accepts and where it writes.
    public struct Configuration: Sendable {
        /// The address to listen on (default `127.0.0.1`).
        public var host: String
        /// The TCP port; `0` picks a free one (see ``APNsSandbox/port``).
        public var port: Int
        /// The accepted bundle id: the topic must be `<bundleId>.push-type.liveactivity`.
        public var bundleId: String
        /// The accepted team id (JWT `iss`).
        public var teamId: String
        /// The accepted key id (JWT `kid`).
        public var keyId: String
        /// The PEM public key that verifies JWT signatures (the public half of the `.p8` key).
        public var publicKeyPEM: String
        /// Where to write the generated CA certificate (PEM); `nil` = a new file in the temporary
        /// directory, removed when the sandbox stops.
        public var caCertificateOutput: String?
        /// Optional file to which every recorded request is appended as one JSON line.
        public var deliveryLog: String?
        /// Faults queued at start (e.g. from a CLI), consumed before programmatically injected ones.
        public var faults: [ScriptedFault]
        /// Faults drawn at random for requests no queued fault matches (`nil`: none).
        public var randomFaults: RandomFaults?
        /// `SETTINGS_MAX_CONCURRENT_STREAMS` announced to clients (APNs announces 1000).
        public var maximumConcurrentStreams: Int
        /// How old a JWT `iat` may be before `403 ExpiredProviderToken` (APNs: one hour).
        public var providerTokenLifetime: Duration
        /// Broadcast channels that may exist at once (APNs: 10,000 per environment).
        public var maximumChannels = 10_000

        /// Creates a configuration.
        /// - Parameters:
        ///   - host: The address to listen on (default `127.0.0.1`).
        ///   - port: The TCP port (default `0`: any free port).
        ///   - bundleId: The accepted bundle id.
        ///   - teamId: The accepted team id.
        ///   - keyId: The accepted key id.
        ///   - publicKeyPEM: The P-256 public key (PEM) verifying the JWTs.
        ///   - caCertificateOutput: Where to write the CA certificate PEM.
        ///   - deliveryLog: Optional JSON-lines file of recorded requests.
        ///   - faults: Faults queued at start.
        ///   - randomFaults: Faults drawn at random for the other requests (default none).
        ///   - maximumConcurrentStreams: Concurrent HTTP/2 streams per connection (default 1000).
        ///   - providerTokenLifetime: JWT lifetime (default one hour).
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            bundleId: String,
            teamId: String,
            keyId: String,
            publicKeyPEM: String,
            caCertificateOutput: String? = nil,
            deliveryLog: String? = nil,
            faults: [ScriptedFault] = [],
            randomFaults: RandomFaults? = nil,
            maximumConcurrentStreams: Int = 1000,
            providerTokenLifetime: Duration = .seconds(3600)
        ) {
            self.host = host
            self.port = port
            self.bundleId = bundleId
            self.teamId = teamId
            self.keyId = keyId
            self.publicKeyPEM = publicKeyPEM
            self.caCertificateOutput = caCertificateOutput
            self.deliveryLog = deliveryLog
            self.faults = faults
            self.randomFaults = randomFaults
            self.maximumConcurrentStreams = maximumConcurrentStreams
            self.providerTokenLifetime = providerTokenLifetime
        }

        /// The topic accepted by the sandbox: `<bundleId>.push-type.liveactivity`.
        public var topic: String { "\(bundleId).push-type.liveactivity" }
    }
}
