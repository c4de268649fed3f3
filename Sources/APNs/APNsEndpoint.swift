import Foundation
import HTTP2Client
import NIOSSL

/// Where an APNs client connects: host, port, `:authority` and the path prefix of a base URL, and
/// the pool configuration with the TLS every APNs connection uses (TLS 1.2 or later, trusting the
/// configuration's extra CA).
struct APNsEndpoint {
    let authority: String
    /// The URL's path without a trailing `/` (empty for Apple's hosts).
    let pathPrefix: String
    let pool: HTTP2ConnectionPool.Configuration

    init(_ url: URL, configuration: APNsConfiguration, connections: Int) {
        let host = url.host ?? "localhost"
        authority = url.port.map { "\(host):\($0)" } ?? host
        var prefix = url.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        pathPrefix = prefix
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if !configuration.additionalCACertificates.isEmpty {
            tls.additionalTrustRoots = [.certificates(configuration.additionalCACertificates)]
        }
        pool = .init(host: host, port: url.port ?? 443, tls: tls, connections: connections)
    }
}
