import Logging
import NIOCore
import NIOPosix
import NIOSSL

extension APNsSandbox {
    /// Binds the TLS + HTTP/2 listener on `group`; every stream of every connection gets a
    /// ``RequestHandler``.
    static func bindSocket(
        _ configuration: Configuration,
        group: MultiThreadedEventLoopGroup,
        sslContext: NIOSSLContext,
        registry: ConnectionRegistry,
        state: SandboxState,
        validator: RequestValidator,
        logger: Logger
    ) async throws(APNsSandboxError) -> any Channel {
        do {
            return try await SandboxListener.bind(
                host: configuration.host, port: configuration.port,
                maximumConcurrentStreams: configuration.maximumConcurrentStreams, group: group,
                sslContext: sslContext, registry: registry, name: "APNs sandbox", logger: logger
            ) { id in RequestHandler(state: state, validator: validator, logger: logger, connectionId: id) }
        } catch {
            throw APNsSandboxError(
                .bindFailed, "cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
    }
}
