import Logging
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

/// The TLS + HTTP/2 listener of a local sandbox server (the APNs and the FCM one): every connection is
/// registered in a ``ConnectionRegistry`` and every stream gets the handler `streamHandler` makes.
public enum SandboxListener {
    /// Binds the listener on `group`.
    /// - Parameters:
    ///   - name: the server's name in debug logs (`APNs sandbox`).
    ///   - streamHandler: the handler of one stream, given the connection's number.
    /// - Returns: the listening channel.
    /// - Throws: NIO's error when the address cannot be bound.
    public static func bind(
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
