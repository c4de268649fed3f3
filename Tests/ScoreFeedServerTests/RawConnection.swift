import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A raw TCP connection to a test server: the bytes it sends are the test's, what it receives is kept.
final class RawConnection: Sendable {
    let channel: any Channel
    private let received: Collector
    let openedAt = ContinuousClock.now

    private init(channel: any Channel, received: Collector) {
        self.channel = channel
        self.received = received
    }

    /// Connects to 127.0.0.1 at the port of `base` (`http://127.0.0.1:PORT`).
    static func open(_ base: String) async throws -> RawConnection {
        let port = Int(base.split(separator: ":").last ?? "") ?? 0
        let received = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(received) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, received: received)
    }

    /// Sends `text` as it is.
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// What the server sent so far.
    var text: String { received.text }

    /// Whether the server closed the connection within `limit` (polled).
    func closes(within limit: Duration) async throws -> Bool {
        let end = ContinuousClock.now + limit
        while channel.isActive && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
        return !channel.isActive
    }

    /// Waits until the server's answer holds `fragment`, at most `limit`.
    func waitFor(_ fragment: String, within limit: Duration = .seconds(5)) async throws -> Bool {
        let end = ContinuousClock.now + limit
        while !text.contains(fragment) && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
        return text.contains(fragment)
    }

    /// Closes the connection from the client's side.
    func close() async {
        try? await channel.close()
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let bytes = Mutex("")

        var text: String { bytes.withLock { $0 } }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            bytes.withLock { $0 += String(buffer: buffer) }
        }
    }
}
