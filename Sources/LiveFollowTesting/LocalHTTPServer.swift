import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 connection of a local test server.
public typealias LocalHTTPConnection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

/// What every local provider server of the tests shares (the MLB feed, the polled documents, the push
/// feed): a listener on 127.0.0.1 on a free port, each connection handed to `handle` in a task of its
/// own, and a stop that closes them all.
public final class LocalHTTPServer: Sendable {
    /// The bound port.
    public let port: Int
    private let channel: NIOAsyncChannel<LocalHTTPConnection, Never>
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

    private init(channel: NIOAsyncChannel<LocalHTTPConnection, Never>) {
        self.channel = channel
        self.port = channel.channel.localAddress?.port ?? 0
    }

    /// Binds 127.0.0.1 on a free port and serves every connection with `handle`.
    public static func start(handle: @escaping @Sendable (LocalHTTPConnection) async -> Void) async throws
        -> LocalHTTPServer
    {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try LocalHTTPConnection(wrappingChannelSynchronously: child)
                }
            }
        let server = LocalHTTPServer(channel: channel)
        let task = Task {
            await withDiscardingTaskGroup { group in
                do {
                    try await channel.executeThenClose { inbound in
                        for try await connection in inbound {
                            group.addTask { await handle(connection) }
                        }
                    }
                } catch {}
                group.cancelAll()
            }
        }
        server.task.withLockedValue { $0 = task }
        return server
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        let task = self.task.withLockedValue { $0 }
        task?.cancel()
        try? await channel.channel.close()
        await task?.value
    }

    /// Writes a whole answer: `status`, the content type and more headers, `body` with its length.
    public static func respond(
        _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>, status: Int, body: String,
        contentType: String = "application/json", headers extra: [(String, String)] = []
    ) async throws {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: contentType)
        headers.add(name: "content-length", value: String(body.utf8.count))
        for (name, value) in extra { headers.add(name: name, value: value) }
        try await outbound.write(
            .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers)))
        try await outbound.write(.body(.byteBuffer(ByteBuffer(string: body))))
        try await outbound.write(.end(nil))
    }
}
