import APNsSandbox
import Logging
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

extension FCMSandbox {
    /// Binds the TLS + HTTP/2 listener on `group`; every stream of every connection gets a
    /// ``RequestHandler``.
    static func bindSocket(
        _ configuration: Configuration,
        group: MultiThreadedEventLoopGroup,
        sslContext: NIOSSLContext,
        registry: ConnectionRegistry,
        state: SandboxState,
        logger: Logger
    ) async throws(FCMSandboxError) -> any Channel {
        let http2 = http2Configuration()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let id = registry.register(channel)
                    let metadata: Logger.Metadata = ["sandbox.connection": "\(id)"]
                    logger.debug("FCM sandbox connection opened", metadata: metadata)
                    channel.closeFuture.whenComplete { _ in
                        logger.debug("FCM sandbox connection closed", metadata: metadata)
                    }
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server,
                        connectionConfiguration: http2.connection,
                        streamConfiguration: http2.stream
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(RequestHandler(state: state, logger: logger))
                        }
                    }
                }
            }
        do {
            return try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            throw FCMSandboxError(.bindFailed, "cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
    }

    private static func http2Configuration() -> NIOHTTP2Handler.Configuration {
        var http2 = NIOHTTP2Handler.Configuration()
        http2.connection.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: 1000),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 16 * 1024),
        ]
        return http2
    }
}
