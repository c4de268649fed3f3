import Foundation
import HTTP2Client
import NIOSSL

/// Where requests to one `https` URL go: `:authority`, `:path` of the URL itself, and the pool
/// configuration (TLS 1.2 or later, trusting the extra CA certificates besides the system roots).
struct FCMEndpoint {
    let authority: String
    /// The URL's percent-encoded path and query without a trailing `/` (empty for a bare host).
    let path: String
    let pool: HTTP2ConnectionPool.Configuration

    init(_ url: URL, caCertificates: [NIOSSLCertificate], connections: Int) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let host = components?.host ?? url.host ?? "localhost"
        let port = components?.port
        authority = port.map { "\(host):\($0)" } ?? host
        var path = components?.percentEncodedPath ?? url.path
        while path.hasSuffix("/") { path.removeLast() }
        if let query = components?.percentEncodedQuery { path += "?" + query }
        self.path = path
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if !caCertificates.isEmpty {
            tls.additionalTrustRoots = [.certificates(caCertificates)]
        }
        pool = .init(host: host, port: port ?? 443, tls: tls, connections: connections)
    }
}
