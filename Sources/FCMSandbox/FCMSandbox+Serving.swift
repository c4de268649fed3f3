import APNsSandbox
import Logging
import NIOCore
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
        do {
            return try await SandboxListener.bind(
                host: configuration.host, port: configuration.port, maximumConcurrentStreams: 1000, group: group,
                sslContext: sslContext, registry: registry, name: "FCM sandbox", logger: logger
            ) { _ in RequestHandler(state: state, logger: logger) }
        } catch {
            throw FCMSandboxError(.bindFailed, "cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
    }
}
