import CryptoExtras
import Foundation
import ScoreDomain

/// A Google service-account key file for the sandbox: a fresh RSA 2048 key, ids derived at random.
struct ServiceAccount: Sendable {
    let projectId: String
    let privateKeyId: String
    let clientEmail: String
    let clientId: String
    /// The token endpoint (`aud` of the assertions); set once the port is known.
    var tokenURI: String
    let privateKey: _RSA.Signing.PrivateKey

    init(projectId: String, baseURL: URL?) throws(FCMSandboxError) {
        do {
            privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        } catch {
            throw FCMSandboxError(.certificateGenerationFailed, "cannot generate the RSA key: \(error)")
        }
        self.projectId = projectId
        privateKeyId = (0..<20).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        clientEmail = "firebase-adminsdk-sandbox@\(projectId).iam.gserviceaccount.com"
        clientId = "1" + (0..<20).map { _ in String(Int.random(in: 0...9)) }.joined()
        tokenURI = (baseURL?.absoluteString ?? "") + "/token"
    }

    /// The verifier of the JWTs signed with this account's key.
    var verifier: AssertionVerifier {
        AssertionVerifier(
            clientEmail: clientEmail, keyId: privateKeyId, audience: tokenURI, publicKey: privateKey.publicKey)
    }

    /// The key file as Google writes it (pretty-printed JSON), the private key as PKCS#8 PEM.
    var json: String {
        let base = tokenURI.dropLast("/token".count)
        let fields: [(String, String)] = [
            ("type", "service_account"),
            ("project_id", projectId),
            ("private_key_id", privateKeyId),
            ("private_key", privateKey.pkcs8PEMRepresentation + "\n"),
            ("client_email", clientEmail),
            ("client_id", clientId),
            ("auth_uri", "\(base)/o/oauth2/auth"),
            ("token_uri", tokenURI),
            ("auth_provider_x509_cert_url", "\(base)/oauth2/v1/certs"),
            ("client_x509_cert_url", "\(base)/robot/v1/metadata/x509/\(clientEmail)"),
            ("universe_domain", "googleapis.com"),
        ]
        let lines = fields.map { "  \(JSONValue.string($0.0).serialized()): \(JSONValue.string($0.1).serialized())" }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}
