import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A throw-away CA and a `localhost`/`127.0.0.1` server certificate signed by it, both P-256.
///
/// Made at every start of a local server (``LocalListener``).
struct LocalCertificates: Sendable {
    /// The CA certificate (PEM) clients must trust.
    let caCertificatePEM: String
    let serverCertificate: NIOSSLCertificate
    let serverKey: NIOSSLPrivateKey

    /// Generates a CA (valid from an hour before `now` for a week) and a server certificate signed by it.
    /// - Parameters:
    ///   - now: The current time.
    ///   - caCommonName: The common name of the CA certificate.
    /// - Returns: The certificates.
    /// - Throws: ``LocalServerError`` with code `certificateGenerationFailed`.
    static func generate(now: Date = Date(), caCommonName: String) throws(LocalServerError) -> LocalCertificates {
        do {
            let caKey = P256.Signing.PrivateKey()
            let caName = try DistinguishedName {
                OrganizationName("ScoreFeed")
                CommonName(caCommonName)
            }
            let notBefore = now.addingTimeInterval(-3600)
            let notAfter = now.addingTimeInterval(7 * 24 * 3600)
            let ca = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: .init(caKey.publicKey),
                notValidBefore: notBefore,
                notValidAfter: notAfter,
                issuer: caName,
                subject: caName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                },
                issuerPrivateKey: .init(caKey)
            )
            let serverKey = P256.Signing.PrivateKey()
            let server = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: .init(serverKey.publicKey),
                notValidBefore: notBefore,
                notValidAfter: notAfter,
                issuer: caName,
                subject: try DistinguishedName { CommonName("localhost") },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames([
                        .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                    ])
                },
                issuerPrivateKey: .init(caKey)
            )
            var serializer = DER.Serializer()
            try serializer.serialize(server)
            return LocalCertificates(
                caCertificatePEM: try ca.serializeAsPEM().pemString,
                serverCertificate: try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der),
                serverKey: try NIOSSLPrivateKey(bytes: Array(serverKey.pemRepresentation.utf8), format: .pem)
            )
        } catch {
            throw LocalServerError(.certificateGenerationFailed, "\(error)")
        }
    }

    /// A TLS 1.2+ server context offering only ALPN `h2`, as APNs and FCM do.
    /// - Returns: The context serving the server certificate.
    /// - Throws: ``LocalServerError`` with code `certificateGenerationFailed`.
    func makeSSLContext() throws(LocalServerError) -> NIOSSLContext {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(serverCertificate)],
            privateKey: .privateKey(serverKey)
        )
        tls.minimumTLSVersion = .tlsv12
        tls.applicationProtocols = ["h2"]
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw LocalServerError(.certificateGenerationFailed, "cannot build the TLS context: \(error)")
        }
    }
}
