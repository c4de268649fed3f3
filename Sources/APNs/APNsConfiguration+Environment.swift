import Foundation

extension APNsConfiguration {
    /// The environment variables read by ``fromEnvironment(_:)``.
    public enum Variable {
        /// Path of the `.p8` signing key file (required).
        public static let keyFile = "SCOREFEED_APNS_KEY_FILE"
        /// The key id (required).
        public static let keyId = "SCOREFEED_APNS_KEY_ID"
        /// The team id (required).
        public static let teamId = "SCOREFEED_APNS_TEAM_ID"
        /// The app's bundle id (required).
        public static let bundleId = "SCOREFEED_APNS_BUNDLE_ID"
        /// `production` (the default when unset), `sandbox` or an `https` URL.
        public static let url = "SCOREFEED_APNS_URL"
        /// Optional PEM file of an extra CA certificate to trust (e.g. the local sandbox's CA).
        public static let caFile = "SCOREFEED_APNS_CA_FILE"
    }

    /// Builds a configuration from environment variables (see ``Variable``).
    ///
    /// `SCOREFEED_APNS_URL` defaults to `production` when unset or empty.
    /// - Parameter env: The environment, e.g. `ProcessInfo.processInfo.environment`.
    /// - Returns: A validated configuration.
    /// - Throws: ``APNsConfigurationError``: `missingVariable` for an unset required variable, or the
    ///   error of the invalid field.
    public static func fromEnvironment(_ env: [String: String]) throws(APNsConfigurationError) -> APNsConfiguration {
        func required(_ name: String) throws(APNsConfigurationError) -> String {
            guard let value = env[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                throw APNsConfigurationError(.missingVariable, "environment variable \(name) is not set")
            }
            return value
        }
        let keyFile = try required(Variable.keyFile)
        let keyId = try required(Variable.keyId)
        let teamId = try required(Variable.teamId)
        let bundleId = try required(Variable.bundleId)
        let environment = try parseEnvironment(env[Variable.url] ?? "")
        let caFile = env[Variable.caFile].flatMap { $0.isEmpty ? nil : $0 }
        return try APNsConfiguration(
            signingKeyFile: keyFile,
            keyId: keyId,
            teamId: teamId,
            bundleId: bundleId,
            environment: environment,
            additionalCAFile: caFile
        )
    }

    /// Parses `production`, `sandbox` or an `https` URL (empty means `production`).
    /// - Parameter text: The value of `SCOREFEED_APNS_URL`.
    /// - Returns: The environment.
    /// - Throws: ``APNsConfigurationError`` with code `invalidURL`.
    public static func parseEnvironment(_ text: String) throws(APNsConfigurationError) -> Environment {
        let value = text.trimmingCharacters(in: .whitespaces)
        switch value.lowercased() {
        case "", "production": return .production
        case "sandbox", "development": return .sandbox
        default:
            var trimmed = value
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            guard let url = URL(string: trimmed), url.scheme?.lowercased() == "https", let host = url.host,
                !host.isEmpty
            else {
                throw APNsConfigurationError(.invalidURL, "\(Variable.url) must be production, sandbox or https URL")
            }
            return .custom(url)
        }
    }
}
