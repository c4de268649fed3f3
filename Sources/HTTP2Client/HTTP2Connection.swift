import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// What the pool may read of a connection from any thread.
final class HTTP2ConnectionState: Sendable {
    private struct Value {
        var usable = true
        var retiredForErrors = false
        var reason: String?
    }
    private let value = NIOLockedValueBox(Value())

    /// Whether new requests may go to the connection.
    var isUsable: Bool { value.withLockedValue { $0.usable } }
    /// Whether it was retired by the error-rate guard (its replacement waits for a backoff).
    var retiredForErrors: Bool { value.withLockedValue { $0.retiredForErrors } }
    /// Why it stopped taking requests.
    var reason: String? { value.withLockedValue { $0.reason } }

    func markUnusable(errorRate: Bool, reason: String? = nil) {
        value.withLockedValue {
            $0.usable = false
            $0.retiredForErrors = $0.retiredForErrors || errorRate
            if $0.reason == nil { $0.reason = reason }
        }
    }
}

/// One TLS + HTTP/2 connection (ALPN `h2`) and its request handler.
final class HTTP2Connection: Sendable {
    let channel: any Channel
    let state: HTTP2ConnectionState
    private let handler: NIOLoopBound<HTTP2ConnectionHandler>

    private init(channel: any Channel, state: HTTP2ConnectionState, handler: NIOLoopBound<HTTP2ConnectionHandler>) {
        self.channel = channel
        self.state = state
        self.handler = handler
    }

    /// Opens a connection and waits for the server's HTTP/2 SETTINGS.
    static func connect(
        host: String, port: Int, tls: NIOSSLContext, settings: HTTP2ConnectionHandler.Settings,
        connectTimeout: TimeAmount, group: any EventLoopGroup
    ) async throws -> HTTP2Connection {
        let eventLoop = group.next()
        let state = HTTP2ConnectionState()
        let ready = eventLoop.makePromise(of: Void.self)
        let serverHostname = isIPAddress(host) ? nil : host
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
                    try sync.addHandler(HTTP2ConnectionHandler(settings: settings, state: state, ready: ready))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            ready.fail(error)
            throw HTTP2ClientError(.connectFailed, "cannot connect to \(host):\(port): \(error)")
        }
        let timeout = eventLoop.scheduleTask(in: connectTimeout) {
            ready.fail(HTTP2ClientError(.connectFailed, "no HTTP/2 SETTINGS from \(host):\(port) in time"))
        }
        do {
            try await ready.futureResult.get()
            timeout.cancel()
        } catch {
            timeout.cancel()
            channel.close(promise: nil)
            if let error = error as? HTTP2ClientError { throw error }
            throw HTTP2ClientError(.connectFailed, "cannot set up TLS and HTTP/2 with \(host):\(port): \(error)")
        }
        let handler = try await channel.eventLoop.submit {
            NIOLoopBound(
                try channel.pipeline.syncOperations.handler(type: HTTP2ConnectionHandler.self),
                eventLoop: channel.eventLoop)
        }.get()
        return HTTP2Connection(channel: channel, state: state, handler: handler)
    }

    /// Makes a batch for this connection; ``submit(_:)`` sends it.
    func batch(_ requests: [HTTP2Request], deadline: NIODeadline) -> HTTP2Batch {
        HTTP2Batch(requests, deadline: deadline, promise: channel.eventLoop.makePromise())
    }

    /// Sends the batch's requests on this connection; its future always succeeds.
    func submit(_ batch: HTTP2Batch) {
        onLoop { $0.submit(batch) }
    }

    /// Ends the batch at once: its requests without an answer fail with `cancelled`.
    func cancel(_ batch: HTTP2Batch) {
        onLoop { $0.expire(batch, HTTP2ClientError(.cancelled, "the caller was cancelled")) }
    }

    private func onLoop(_ body: @escaping @Sendable (HTTP2ConnectionHandler) -> Void) {
        let (eventLoop, handler) = (channel.eventLoop, self.handler)
        if eventLoop.inEventLoop {
            body(handler.value)
        } else {
            eventLoop.execute { body(handler.value) }
        }
    }

    /// Closes the connection at once; requests in flight fail with `connectionClosed`.
    func close() async {
        state.markUnusable(errorRate: false, reason: "closed by the client")
        try? await channel.close()
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
