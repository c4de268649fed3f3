import CryptoExtras
import Foundation
import ScoreDomain

/// A Google service-account key (the JSON file downloaded from the Firebase console): who signs the
/// OAuth token requests, with which RSA key, for which project, and where to exchange them.
///
/// Building one checks every field the client needs, and that the key is an RSA private key.
/// `description` never shows the key.
public struct ServiceAccount: Sendable, Equatable, CustomStringConvertible {
    /// `client_email`: the service account (the JWT `iss`).
    public let clientEmail: String
    /// `private_key`: the PEM (PKCS#8 `BEGIN PRIVATE KEY`) RSA key that signs the JWT.
    public let privateKeyPEM: String
    /// `private_key_id`: the key's id (the JWT `kid`).
    public let privateKeyId: String
    /// `project_id`: the Firebase project messages are sent for.
    public let projectId: String
    /// `token_uri`: the OAuth 2.0 token endpoint (the JWT `aud`), an `https` URL.
    public let tokenURI: String
    /// ``privateKeyPEM`` as the key that signs, parsed once when the account is built.
    let signingKey: _RSA.Signing.PrivateKey

    /// Creates a validated service account from its fields.
    /// - Parameters:
    ///   - clientEmail: `client_email`.
    ///   - privateKeyPEM: `private_key`, a PEM RSA private key of 2048 bits or more.
    ///   - privateKeyId: `private_key_id`.
    ///   - projectId: `project_id` (see ``FirebaseProjectId``).
    ///   - tokenURI: `token_uri`, an `https` URL with a host.
    /// - Throws: ``FCMConfigurationError`` naming the JSON field of the first invalid value.
    public init(
        clientEmail: String, privateKeyPEM: String, privateKeyId: String, projectId: String, tokenURI: String
    ) throws(FCMConfigurationError) {
        guard clientEmail.contains("@"), !clientEmail.contains(where: \.isWhitespace) else {
            throw FCMConfigurationError(field: "client_email", reason: "is not an e-mail address")
        }
        guard !privateKeyId.isEmpty, privateKeyId.unicodeScalars.allSatisfy(Self.isPrintableASCII) else {
            throw FCMConfigurationError(field: "private_key_id", reason: "must be non-empty printable ASCII")
        }
        guard FirebaseProjectId.isValid(projectId) else {
            throw FCMConfigurationError(field: "project_id", reason: "must be " + FirebaseProjectId.rule)
        }
        guard Self.isHTTPSURL(tokenURI) else {
            throw FCMConfigurationError(field: "token_uri", reason: "must be an https URL with a host")
        }
        self.signingKey = try Self.signingKey(pem: privateKeyPEM)
        self.clientEmail = clientEmail
        self.privateKeyPEM = privateKeyPEM
        self.privateKeyId = privateKeyId
        self.projectId = projectId
        self.tokenURI = tokenURI
    }

    /// Parses and validates a service-account key file's JSON.
    /// - Parameter json: The file's bytes: an object with `client_email`, `private_key`,
    ///   `private_key_id`, `project_id` and `token_uri` (other fields are ignored; `type`, when
    ///   present, must be `service_account`).
    /// - Throws: ``FCMConfigurationError`` naming the missing or invalid field (`service_account` when the
    ///   JSON is not an object).
    public init(json: Data) throws(FCMConfigurationError) {
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw FCMConfigurationError(field: "service_account", reason: "is not a JSON object")
        }
        func string(_ key: String) throws(FCMConfigurationError) -> String {
            guard let raw = object[key] else { throw FCMConfigurationError(field: key, reason: "is missing") }
            guard let value = raw as? String, !value.isEmpty else {
                throw FCMConfigurationError(field: key, reason: "must be a non-empty string")
            }
            return value
        }
        if let type = object["type"], type as? String != "service_account" {
            throw FCMConfigurationError(field: "type", reason: "must be service_account")
        }
        let clientEmail = try string("client_email")
        let privateKey = try string("private_key")
        let privateKeyId = try string("private_key_id")
        let projectId = try string("project_id")
        let tokenURI = try string("token_uri")
        try self.init(
            clientEmail: clientEmail, privateKeyPEM: privateKey, privateKeyId: privateKeyId, projectId: projectId,
            tokenURI: tokenURI)
    }

    /// Reads and validates a service-account key file.
    /// - Parameter path: The path of the JSON key file.
    /// - Throws: ``FCMConfigurationError``: field `service_account` when the file cannot be read, else the
    ///   error of ``init(json:)``.
    public init(contentsOfFile path: String) throws(FCMConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FCMConfigurationError(field: "service_account", reason: "cannot read the key file at \(path)")
        }
        try self.init(json: data)
    }

    /// Equal when every field is (the signing key is the PEM's).
    public static func == (a: Self, b: Self) -> Bool {
        (a.clientEmail, a.privateKeyPEM, a.privateKeyId, a.projectId, a.tokenURI)
            == (b.clientEmail, b.privateKeyPEM, b.privateKeyId, b.projectId, b.tokenURI)
    }

    public var description: String {
        "ServiceAccount(clientEmail: \(clientEmail), projectId: \(projectId), privateKeyId: \(privateKeyId), "
            + "tokenURI: \(tokenURI))"
    }

    /// The RSA key of `pem`.
    /// - Throws: ``FCMConfigurationError`` for field `private_key`.
    static func signingKey(pem: String) throws(FCMConfigurationError) -> _RSA.Signing.PrivateKey {
        do {
            return try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw FCMConfigurationError(
                field: "private_key", reason: "is not a PEM RSA private key of 2048 bits or more")
        }
    }

    static func isHTTPSURL(_ text: String) -> Bool {
        guard let url = URL(string: text), url.scheme?.lowercased() == "https", let host = url.host else {
            return false
        }
        return !host.isEmpty
    }

    private static func isPrintableASCII(_ scalar: Unicode.Scalar) -> Bool {
        (0x21...0x7e).contains(scalar.value)
    }

}
