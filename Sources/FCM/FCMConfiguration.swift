import Foundation
import NIOSSL

/// Everything an ``FCMClient`` needs: the service account, the FCM server and an extra CA to trust.
///
/// Building one validates every field, so a value made by the initializer is usable.
/// `description` never shows the key.
public struct FCMConfiguration: Sendable, CustomStringConvertible {
    /// `https://fcm.googleapis.com`.
    public static let defaultBaseURL = URL(string: "https://fcm.googleapis.com")!

    /// The service account whose key signs the OAuth token requests.
    public var serviceAccount: ServiceAccount
    /// The FCM server; messages go to `<baseURL>/v1/projects/<project_id>/messages:send`. Always `https`,
    /// stored without a trailing slash.
    public var baseURL: URL
    /// Path of a PEM file of CA certificates trusted besides the system roots (e.g. a local server's CA),
    /// for both the FCM server and the token endpoint.
    public let additionalCAFile: String?
    /// The certificates loaded from ``additionalCAFile`` (read once, here).
    public let additionalCACertificates: [NIOSSLCertificate]

    /// Creates a validated configuration.
    /// - Parameters:
    ///   - serviceAccount: The service account.
    ///   - baseURL: The FCM server, an `https` URL with a host (a trailing slash is ignored).
    ///   - additionalCAFile: Optional PEM file of CA certificates to trust besides the system roots.
    /// - Throws: ``FCMConfigurationError`` for field `baseURL` or `additionalCAFile`.
    public init(
        serviceAccount: ServiceAccount, baseURL: URL = defaultBaseURL, additionalCAFile: String? = nil
    ) throws(FCMConfigurationError) {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        guard ServiceAccount.isHTTPSURL(text), let url = URL(string: text), url.query == nil, url.fragment == nil
        else {
            throw FCMConfigurationError(field: "baseURL", reason: "must be an https URL with a host")
        }
        let path = url.path.lowercased()
        guard !path.hasSuffix("/v1"), !path.contains("/projects/"), !path.hasSuffix(":send") else {
            throw FCMConfigurationError(
                field: "baseURL",
                reason: "must be the server only, like https://fcm.googleapis.com: "
                    + "/v1/projects/<project_id>/messages:send is added to it")
        }
        if let additionalCAFile {
            additionalCACertificates = try Self.loadCertificates(path: additionalCAFile, field: "additionalCAFile")
        } else {
            additionalCACertificates = []
        }
        self.serviceAccount = serviceAccount
        self.baseURL = url
        self.additionalCAFile = additionalCAFile
    }

    /// The environment variables read by ``fromEnvironment(_:)``.
    public enum Variable {
        /// The service-account key file: its path, or its JSON text itself (a value starting with `{`).
        /// Unset or empty: FCM delivery is off.
        public static let credentials = "SCOREFEED_FCM_CREDENTIALS"
        /// The FCM server, an `https` URL (default `https://fcm.googleapis.com`).
        public static let url = "SCOREFEED_FCM_URL"
        /// Optional PEM file of an extra CA certificate to trust (e.g. a local server's CA).
        public static let caFile = "SCOREFEED_FCM_CA_FILE"
    }

    /// Builds a configuration from environment variables (see ``Variable``).
    /// - Parameter env: The environment, e.g. `ProcessInfo.processInfo.environment`.
    /// - Returns: `nil` when `SCOREFEED_FCM_CREDENTIALS` is unset or empty (FCM delivery is off), else a
    ///   validated configuration.
    /// - Throws: ``FCMConfigurationError`` whose ``FCMConfigurationError/field`` is the variable at fault
    ///   (for the credentials, the reason names the JSON field).
    public static func fromEnvironment(_ env: [String: String]) throws(FCMConfigurationError) -> FCMConfiguration? {
        func value(_ name: String) -> String? {
            guard let value = env[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
                return nil
            }
            return value
        }
        guard let credentials = value(Variable.credentials) else { return nil }
        let account: ServiceAccount
        do throws(FCMConfigurationError) {
            if credentials.contains("{") {
                account = try ServiceAccount(json: Data(Self.inlineJSON(credentials).utf8))
            } else if Self.mayBePath(credentials) || FileManager.default.isReadableFile(atPath: credentials) {
                account = try ServiceAccount(contentsOfFile: credentials)
            } else {
                throw FCMConfigurationError(
                    field: "service_account",
                    reason: "is neither the key file's JSON nor the path of a readable file (a value of "
                        + "\(credentials.utf8.count) characters, not shown: it may hold the key; give the JSON "
                        + "itself or the file's path)")
            }
        } catch {
            throw FCMConfigurationError(field: Variable.credentials, reason: "\(error.field): \(error.reason)")
        }
        var baseURL = defaultBaseURL
        if let text = value(Variable.url) {
            guard let url = URL(string: text) else {
                throw FCMConfigurationError(field: Variable.url, reason: "must be an https URL with a host")
            }
            baseURL = url
        }
        let caFile = value(Variable.caFile)
        do {
            return try FCMConfiguration(serviceAccount: account, baseURL: baseURL, additionalCAFile: caFile)
        } catch {
            let field = error.field == "baseURL" ? Variable.url : Variable.caFile
            throw FCMConfigurationError(field: field, reason: error.reason)
        }
    }

    /// Whether a credentials value that is not JSON may be shown as a path in an error: short, one line,
    /// and no PEM. A longer value (the key's base64, or its PEM alone) is never printed.
    static func mayBePath(_ value: String) -> Bool {
        value.utf8.count <= 255 && !value.contains(where: \.isNewline) && !value.contains("PRIVATE KEY")
    }

    /// The key itself given as the setting: its JSON, without a byte-order mark or the quotes an env
    /// file may leave around it. (A value with a `{` is never taken for a path, so an error never
    /// prints it: it may hold the private key.)
    static func inlineJSON(_ value: String) -> String {
        var text = Substring(value)
        if text.first == "\u{FEFF}" { text = text.dropFirst() }
        if let quote = text.first, quote == "'" || quote == "\"", text.count > 1, text.last == quote {
            text = text.dropFirst().dropLast()
        }
        return String(text)
    }

    public var description: String {
        "FCMConfiguration(\(serviceAccount), baseURL: \(baseURL.absoluteString), caFile: \(additionalCAFile ?? "none"))"
    }

    /// The certificates of a PEM file.
    /// - Throws: ``FCMConfigurationError`` for `field` when the file is unreadable or holds no certificate.
    static func loadCertificates(path: String, field: String) throws(FCMConfigurationError) -> [NIOSSLCertificate] {
        guard FileManager.default.isReadableFile(atPath: path),
            let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty
        else {
            throw FCMConfigurationError(field: field, reason: "cannot read a PEM CA certificate from \(path)")
        }
        return certificates
    }
}
