/// Why an ``APNsConfiguration`` could not be built.
///
/// The `description` names the problem and, where useful, a file path or variable name; it never
/// contains key material.
public struct APNsConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the problem, suitable for matching and for logs.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A required environment variable is not set (or is empty).
        case missingVariable = "apns.config.missing_variable"
        /// The signing key file does not exist or cannot be read.
        case keyFileUnreadable = "apns.config.key_file_unreadable"
        /// The signing key text is not a PEM-encoded PKCS#8 EC private key.
        case invalidSigningKey = "apns.config.invalid_signing_key"
        /// The signing key is an EC key on another curve than P-256.
        case signingKeyNotP256 = "apns.config.signing_key_not_p256"
        /// The key id is empty or contains characters other than ASCII letters and digits.
        case invalidKeyId = "apns.config.invalid_key_id"
        /// The team id is empty or contains characters other than ASCII letters and digits.
        case invalidTeamId = "apns.config.invalid_team_id"
        /// The bundle id is empty or contains characters not allowed in a bundle identifier.
        case invalidBundleId = "apns.config.invalid_bundle_id"
        /// The server URL is neither `production`, `sandbox` nor an `https` URL with a host.
        case invalidURL = "apns.config.invalid_url"
        /// The extra CA certificate file does not exist, cannot be read or holds no PEM certificate.
        case caFileUnreadable = "apns.config.ca_file_unreadable"
    }

    /// The stable code of the problem.
    public var code: Code
    /// A human-readable explanation (never includes secrets).
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: A human-readable explanation without secrets.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
