import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

/// The TLS + HTTP/2 side of a local server (the APNs-compatible and the FCM-compatible one): a
/// throw-away CA and server certificate, the server's own event loops, the listening socket, and every
/// connection registered so ``close()`` ends them all. Each stream gets the handler the server makes.
public final class LocalListener: Sendable {
    /// The bound TCP port (the chosen one when `0` was asked for).
    public let port: Int
    /// `https://<host>:<port>`, the base URL for clients.
    public let url: URL
    /// The CA certificate (PEM) clients must trust.
    public let caCertificatePEM: String

    private let serverChannel: any Channel
    /// The server's own event loop(s): the listener and every connection, apart from the clients' loops.
    private let group: MultiThreadedEventLoopGroup
    private let connections: ConnectionRegistry
    private let isClosed = NIOLockedValueBox(false)

    private init(
        port: Int, url: URL, caCertificatePEM: String, serverChannel: any Channel, group: MultiThreadedEventLoopGroup,
        connections: ConnectionRegistry
    ) {
        (self.port, self.url, self.caCertificatePEM) = (port, url, caCertificatePEM)
        (self.serverChannel, self.group, self.connections) = (serverChannel, group, connections)
    }

    /// Makes the certificates (the CA named `caCommonName`, the server's for `localhost` and
    /// `127.0.0.1`) and binds the listener.
    /// - Parameters:
    ///   - name: the server's name in debug logs (`APNs sandbox`).
    ///   - streamHandler: the handler of one stream, given the connection's number (1, 2, …).
    /// - Throws: ``LocalServerError``: a host that is no URL's, certificates that cannot be made, an
    ///   address that cannot be bound.
    public static func bind(
        host: String, port: Int, maximumConcurrentStreams: Int, caCommonName: String, name: String, logger: Logger,
        streamHandler: @escaping @Sendable (_ connectionId: Int) -> any ChannelHandler
    ) async throws(LocalServerError) -> LocalListener {
        // An IPv6 address goes in brackets.
        let urlHost = host.contains(":") ? "[\(host)]" : host
        guard (0...65535).contains(port), URL(string: "https://\(urlHost):\(port)")?.host != nil else {
            throw LocalServerError(.invalidAddress, "host \(host) and port \(port) are not an address for a URL")
        }
        let certificates = try LocalCertificates.generate(caCommonName: caCommonName)
        let sslContext = try certificates.makeSSLContext()
        let connections = ConnectionRegistry()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: eventLoopThreads)
        let serverChannel: any Channel
        do {
            serverChannel = try await listen(
                host: host, port: port, maximumConcurrentStreams: maximumConcurrentStreams, group: group,
                sslContext: sslContext, registry: connections, name: name, logger: logger,
                streamHandler: streamHandler)
        } catch {
            try? await group.shutdownGracefully()
            throw LocalServerError(.bindFailed, "cannot listen on \(host):\(port): \(error)")
        }
        guard let bound = serverChannel.localAddress?.port, let url = URL(string: "https://\(urlHost):\(bound)") else {
            try? await serverChannel.close()
            try? await group.shutdownGracefully()
            throw LocalServerError(.bindFailed, "the listening socket has no port")
        }
        return LocalListener(
            port: bound, url: url, caCertificatePEM: certificates.caCertificatePEM, serverChannel: serverChannel,
            group: group, connections: connections)
    }

    /// Closes the listening socket and every connection, then ends the event loops (which fails what
    /// they still hold, such as a fault's pending delay). Later calls do nothing.
    public func close() async {
        let first = isClosed.withLockedValue { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        try? await serverChannel.close()
        connections.closeAll()
        try? await group.shutdownGracefully()
    }

    /// How many TCP connections were accepted since start.
    public var acceptedConnections: Int { connections.acceptedCount }

    deinit {
        // Never closed (a server dropped unused): the event loops still end.
        if !isClosed.withLockedValue({ $0 }) { group.shutdownGracefully { _ in } }
    }

    /// Threads of the server's own event loop group: one connection lives on one loop, so a client
    /// with several connections gets several cores (up to 4).
    static let eventLoopThreads = max(1, min(4, System.coreCount))

    private static func listen(
        host: String, port: Int, maximumConcurrentStreams: Int, group: MultiThreadedEventLoopGroup,
        sslContext: NIOSSLContext, registry: ConnectionRegistry, name: String, logger: Logger,
        streamHandler: @escaping @Sendable (_ connectionId: Int) -> any ChannelHandler
    ) async throws -> any Channel {
        var configuration = NIOHTTP2Handler.Configuration()
        configuration.connection.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maximumConcurrentStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 16 * 1024),
        ]
        let http2 = configuration
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let id = registry.register(channel)
                    let metadata: Logger.Metadata = ["sandbox.connection": "\(id)"]
                    logger.debug("\(name) connection opened", metadata: metadata)
                    channel.closeFuture.whenComplete { _ in
                        logger.debug("\(name) connection closed", metadata: metadata)
                    }
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: http2.connection,
                        streamConfiguration: http2.stream
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(streamHandler(id))
                        }
                    }
                }
            }
        return try await bootstrap.bind(host: host, port: port).get()
    }
}
