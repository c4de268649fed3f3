import Crypto
import Foundation
import NIOSSL

/// Everything needed to talk to APNs with token (JWT) authentication for Live Activities.
///
/// Building one validates every field, so a value of this type is always usable.
/// `description` never prints the signing key.
public struct APNsConfiguration: Sendable, CustomStringConvertible {
    /// Which APNs server to talk to.
    public enum Environment: Sendable, Hashable {
        /// `https://api.push.apple.com`.
        case production
        /// `https://api.sandbox.push.apple.com`.
        case sandbox
        /// Any `https` base URL, e.g. the local ``APNsSandbox`` at `https://127.0.0.1:PORT`.
        case custom(URL)

        /// The base URL requests are sent to (no trailing slash).
        public var baseURL: URL {
            switch self {
            case .production: URL(string: "https://api.push.apple.com")!
            case .sandbox: URL(string: "https://api.sandbox.push.apple.com")!
            case .custom(let url): url
            }
        }
    }

    /// The P-256 key of the `.p8` file that signs the provider tokens.
    public let signingKey: P256.Signing.PrivateKey
    /// The 10-character key id of the signing key (the JWT `kid`).
    public let keyId: String
    /// The 10-character Apple team id (the JWT `iss`).
    public let teamId: String
    /// The bundle id of the app; the topic is `<bundleId>.push-type.liveactivity`.
    public let bundleId: String
    /// The APNs server.
    public let environment: Environment
    /// Path of a PEM file with CA certificates trusted in addition to the system roots.
    public let additionalCAFile: String?
    /// The certificates loaded from ``additionalCAFile``.
    public let additionalCACertificates: [NIOSSLCertificate]

    /// The `apns-topic` of Live Activity pushes: `<bundleId>.push-type.liveactivity`.
    public var topic: String { "\(bundleId).push-type.liveactivity" }

    /// Creates a validated configuration.
    /// - Parameters:
    ///   - signingKeyPEM: The text of the `.p8` file (PEM, PKCS#8 P-256 private key).
    ///   - keyId: The key id (ASCII letters and digits).
    ///   - teamId: The team id (ASCII letters and digits).
    ///   - bundleId: The app's bundle id.
    ///   - environment: The APNs server.
    ///   - additionalCAFile: Optional PEM file of CA certificates to trust besides the system roots.
    /// - Throws: ``APNsConfigurationError`` naming the first invalid field.
    public init(
        signingKeyPEM: String,
        keyId: String,
        teamId: String,
        bundleId: String,
        environment: Environment,
        additionalCAFile: String? = nil
    ) throws(APNsConfigurationError) {
        self.signingKey = try Self.parseSigningKey(pem: signingKeyPEM)
        guard Self.isAlphanumeric(keyId) else {
            throw APNsConfigurationError(.invalidKeyId, "key id must be non-empty ASCII letters and digits")
        }
        guard Self.isAlphanumeric(teamId) else {
            throw APNsConfigurationError(.invalidTeamId, "team id must be non-empty ASCII letters and digits")
        }
        guard Self.isBundleId(bundleId) else {
            throw APNsConfigurationError(.invalidBundleId, "bundle id must be non-empty letters, digits, '.' or '-'")
        }
        if case .custom(let url) = environment {
            guard url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty else {
                throw APNsConfigurationError(.invalidURL, "custom APNs URL must be https with a host: \(url)")
            }
        }
        self.keyId = keyId
        self.teamId = teamId
        self.bundleId = bundleId
        self.environment = environment
        self.additionalCAFile = additionalCAFile
        self.additionalCACertificates = try additionalCAFile.map(Self.loadCertificates) ?? []
    }

    /// Creates a validated configuration, reading the signing key from a `.p8` file.
    /// - Parameters:
    ///   - signingKeyFile: Path of the `.p8` file (PEM, PKCS#8 P-256 private key).
    ///   - keyId: The key id (ASCII letters and digits).
    ///   - teamId: The team id (ASCII letters and digits).
    ///   - bundleId: The app's bundle id.
    ///   - environment: The APNs server.
    ///   - additionalCAFile: Optional PEM file of CA certificates to trust besides the system roots.
    /// - Throws: ``APNsConfigurationError`` (`keyFileUnreadable` or the error of the invalid field).
    public init(
        signingKeyFile: String,
        keyId: String,
        teamId: String,
        bundleId: String,
        environment: Environment,
        additionalCAFile: String? = nil
    ) throws(APNsConfigurationError) {
        try self.init(
            signingKeyPEM: Self.readSigningKey(fromFile: signingKeyFile),
            keyId: keyId,
            teamId: teamId,
            bundleId: bundleId,
            environment: environment,
            additionalCAFile: additionalCAFile
        )
    }

    /// Reads the signing key from a `.p8` file.
    /// - Parameter path: Path of the `.p8` file.
    /// - Returns: The PEM text of the file.
    /// - Throws: ``APNsConfigurationError`` with code `keyFileUnreadable`.
    public static func readSigningKey(fromFile path: String) throws(APNsConfigurationError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw APNsConfigurationError(.keyFileUnreadable, "cannot read signing key file at \(path)")
        }
        return text
    }

    public var description: String {
        "APNsConfiguration(keyId: \(keyId), teamId: \(teamId), bundleId: \(bundleId), "
            + "environment: \(environment.baseURL.absoluteString), caFile: \(additionalCAFile ?? "none"))"
    }

    static func parseSigningKey(pem: String) throws(APNsConfigurationError) -> P256.Signing.PrivateKey {
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            return key
        }
        if (try? P384.Signing.PrivateKey(pemRepresentation: pem)) != nil
            || (try? P521.Signing.PrivateKey(pemRepresentation: pem)) != nil
        {
            throw APNsConfigurationError(.signingKeyNotP256, "signing key is an EC key but not on curve P-256")
        }
        throw APNsConfigurationError(.invalidSigningKey, "signing key is not a PEM PKCS#8 P-256 private key")
    }

    private static func loadCertificates(path: String) throws(APNsConfigurationError) -> [NIOSSLCertificate] {
        guard FileManager.default.isReadableFile(atPath: path),
            let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty
        else {
            throw APNsConfigurationError(.caFileUnreadable, "cannot read a PEM CA certificate from \(path)")
        }
        return certificates
    }

    /// Non-empty ASCII letters and digits (key and team ids, device tokens).
    static func isAlphanumeric(_ value: String) -> Bool {
        !value.isEmpty
            && value.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            }
    }

    private static func isBundleId(_ value: String) -> Bool {
        !value.isEmpty && !value.hasPrefix(".") && !value.hasSuffix(".")
            && value.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-")
            }
    }
}
