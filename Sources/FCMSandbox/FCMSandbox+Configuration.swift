import Foundation
import ScoreDomain

extension FCMSandbox {
    /// How the sandbox listens, what it accepts and where it writes.
    public struct Configuration: Sendable {
        /// The address to listen on (default `127.0.0.1`).
        public var host: String
        /// The TCP port; `0` picks a free one (see ``FCMSandbox/port``).
        public var port: Int
        /// The Firebase project id: the service account's `project_id` and the only project
        /// `messages:send` accepts (default `scorefeed-sandbox`).
        public var projectId: String
        /// How long an access token from the token endpoint is valid (`expires_in`; default one hour).
        public var accessTokenLifetime: Duration
        /// Faults queued at start (e.g. from a CLI), consumed before programmatically injected ones.
        public var faults: [FCMScriptedFault]
        /// A folder for `service-account.json` (mode 0600), `ca.pem`, `messages.jsonl` (one JSON line
        /// per `messages:send` request, appended) and `env`; `nil` = the key file and the CA certificate go
        /// to a temporary folder removed when the sandbox stops, and nothing else is written.
        public var directory: String?
        /// The most accepted messages to one registration token or FID in any rolling minute (FCM: 240);
        /// more are answered `429 QUOTA_EXCEEDED` with `retry-after`.
        public var perDeviceLimitPerMinute: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - host: The address to listen on (default `127.0.0.1`).
        ///   - port: The TCP port (default `0`: any free port).
        ///   - projectId: The Firebase project id (default `scorefeed-sandbox`).
        ///   - accessTokenLifetime: Access token lifetime (default one hour).
        ///   - faults: Faults queued at start.
        ///   - directory: Where to write the files for clients (default: temporary files).
        ///   - perDeviceLimitPerMinute: Accepted messages per device and rolling minute (default 240).
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            projectId: String = "scorefeed-sandbox",
            accessTokenLifetime: Duration = .seconds(3600),
            faults: [FCMScriptedFault] = [],
            directory: String? = nil,
            perDeviceLimitPerMinute: Int = 240
        ) {
            self.host = host
            self.port = port
            self.projectId = projectId
            self.accessTokenLifetime = accessTokenLifetime
            self.faults = faults
            self.directory = directory
            self.perDeviceLimitPerMinute = perDeviceLimitPerMinute
        }

        /// The first thing wrong with the values, `nil` when they are usable.
        var problem: String? {
            if !(0...65535).contains(port) { return "port \(port) is not in 0...65535" }
            if !FirebaseProjectId.isValid(projectId) {
                return "project id '\(projectId)' is not \(FirebaseProjectId.rule)"
            }
            if accessTokenLifetime <= .zero { return "the access token lifetime must be positive" }
            if perDeviceLimitPerMinute < 1 { return "the per-device limit must be at least 1" }
            return nil
        }
    }
}
