import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Prometheus
import Synchronization

/// The HTTP/1 server's connections under guard: every connection is counted against the cap (see
/// ``ConnectionTable``) and watched for its timeouts (see ``ConnectionTimeouts``). The decisions are
/// those values'; the handlers here only perform them.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let registry: ConnectionRegistry

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let registry = self.registry
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try ConnectionLimits.setSocketOptions(channel)
            let pipeline = channel.pipeline.syncOperations
            let watch = ConnectionWatch(channel: channel, registry: registry)
            try pipeline.addHandler(ConnectionBytesHandler(watch: watch), position: .first)
            let state = try pipeline.handler(type: HTTPConnectionStateHandler.self)
            try pipeline.addHandler(ConnectionPartsHandler(watch: watch), position: .before(state))
            watch.start()
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// The connections of one server: the table under a lock, the channels to close, the metrics.
final class ConnectionRegistry: Sendable {
    let limits: ConnectionTimeouts.Limits
    let capacity: Int
    private let state: Mutex<(table: ConnectionTable, channels: [Int: any Channel], nextId: Int)>
    let metrics: ServerMetrics
    /// The gauge of the open connections.
    private let open: Prometheus.Gauge
    private let logger: Logger

    init(capacity: Int, limits: ConnectionTimeouts.Limits, metrics: ServerMetrics, logger: Logger) {
        self.capacity = capacity
        self.limits = limits
        self.metrics = metrics
        self.logger = logger
        self.state = Mutex((ConnectionTable(capacity: capacity), [:], 0))
        self.open = metrics.connections(capacity: capacity)
        open.set(Int64(0))
    }

    /// Counts a new connection: returns its id, or `nil` when it is refused (the caller closes it).
    /// Asks the connection evicted to make room for it to close, on its own event loop (see
    /// ``ConnectionWatch/evict()``).
    func admit(_ channel: any Channel) -> Int? {
        let (id, admission, notice, evicted) = state.withLock { state in
            let id = state.nextId
            state.nextId += 1
            let (admission, notice) = state.table.admit(id, at: .now())
            var evicted: (any Channel)?
            if case .admitEvicting(let victim) = admission { evicted = state.channels.removeValue(forKey: victim) }
            if admission != .refuse { state.channels[id] = channel }
            open.set(Int64(state.table.count))
            return (id, admission, notice, evicted)
        }
        if let notice {
            logger.warning(
                "HTTP connection cap reached: the connections waiting longest for their request are closed",
                metadata: [
                    "connections.cap": "\(capacity)", "connections.evicted": "\(notice.evicted)",
                    "connections.refused": "\(notice.refused)",
                ])
        }
        switch admission {
        case .admit: return id
        case .admitEvicting:
            evicted?.pipeline.fireUserInboundEventTriggered(ConnectionEviction())
            return id
        case .refuse:
            metrics.connectionClosed(reason: ConnectionTimeouts.Reason.refused.rawValue)
            return nil
        }
    }

    /// Connection `id` waits (see ``ConnectionTimeouts/Waiting``), or is busy with a request (`nil`).
    func waiting(_ id: Int, _ waiting: ConnectionTimeouts.Waiting?) {
        state.withLock { $0.table.waiting(id, waiting) }
    }

    /// Connection `id`, evicted but found busy with a request on its event loop, counts again.
    func restore(_ id: Int, _ channel: any Channel) {
        state.withLock { state in
            state.table.restore(id)
            state.channels[id] = channel
            open.set(Int64(state.table.count))
        }
    }

    /// Connection `id` closed.
    func closed(_ id: Int) {
        state.withLock { state in
            state.table.remove(id)
            state.channels[id] = nil
            open.set(Int64(state.table.count))
        }
    }
}

/// The registry's request to a connection to close to make room at the cap (an event through its
/// pipeline, so that the connection's own event loop decides).
struct ConnectionEviction: Sendable {}

/// One connection's ``ConnectionTimeouts`` and its timer, shared by its two handlers (both run on
/// the connection's event loop).
final class ConnectionWatch {
    let channel: any Channel
    let registry: ConnectionRegistry
    private var machine: ConnectionTimeouts
    private var id: Int?
    /// What the registry was last told.
    private var waiting: ConnectionTimeouts.Waiting? = .request
    /// The earliest timer set and not yet fired (later ones may be pending too: they find nothing to do).
    private var nextTimer: NIODeadline?
    private var stopped = false

    init(channel: any Channel, registry: ConnectionRegistry) {
        self.channel = channel
        self.registry = registry
        self.machine = ConnectionTimeouts(limits: registry.limits, openedAt: .now())
    }

    /// Counts the connection (closing it when it is refused) and starts its header timeout.
    func start() {
        guard let id = registry.admit(channel) else {
            channel.close(promise: nil)
            return
        }
        self.id = id
        let registry = self.registry
        channel.closeFuture.whenComplete { _ in registry.closed(id) }
        synchronise()
    }

    /// Feeds one event to the machine and performs what does not depend on the handler.
    func receive(_ event: ConnectionTimeouts.Event) -> ConnectionTimeouts.Action {
        let action = machine.receive(event, at: .now())
        if case .close(let reason) = action {
            if reason != .lingerEnded && reason != .clientLeft {
                registry.metrics.connectionClosed(reason: reason.rawValue)
            }
            channel.close(promise: nil)
        }
        synchronise()
        return action
    }

    /// Closes the connection the registry evicted to make room, unless it got busy with a request in
    /// the meantime (its head decoded here before the registry heard of it): then it counts again.
    func evict() {
        guard let id, !stopped else { return }
        guard machine.waiting != nil else { return registry.restore(id, channel) }
        stopped = true
        registry.metrics.connectionClosed(reason: ConnectionTimeouts.Reason.evicted.rawValue)
        channel.close(promise: nil)
    }

    /// Stops the watch (the connection closed). Its timers are left to fire and do nothing: cancelling
    /// one searches the event loop's whole queue of timers, which 15,000 connections leaving at once
    /// turned into seconds.
    func stop() {
        stopped = true
    }

    /// Sets the timer to the machine's deadline and tells the registry whether the connection waits.
    private func synchronise() {
        guard let id, !stopped else { return }
        if machine.waiting != waiting {
            waiting = machine.waiting
            registry.waiting(id, waiting)
        }
        guard let deadline = machine.deadline?.at else { return }
        // A later deadline is checked when the earlier timer fires; only an earlier one sets a timer.
        if let nextTimer, nextTimer <= deadline { return }
        nextTimer = deadline
        channel.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
            guard let self, !self.stopped else { return }
            if self.nextTimer == deadline { self.nextTimer = nil }
            _ = self.receive(.timer)
        }
    }
}

/// At the front of the pipeline: sees the client's bytes before they are decoded, and the reads.
final class ConnectionBytesHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    let watch: ConnectionWatch

    init(watch: ConnectionWatch) { self.watch = watch }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if watch.receive(.bytes) == .proceed { context.fireChannelRead(data) }
    }

    func read(context: ChannelHandlerContext) {
        _ = watch.receive(.readRequested)
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ConnectionEviction { return watch.evict() }
        if case .some(.inputClosed) = event as? ChannelEvent, watch.receive(.inputEnded) != .proceed { return }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        watch.stop()
        context.fireChannelInactive()
    }
}

/// After the HTTP codec: sees the requests' heads and ends, and the responses'.
final class ConnectionPartsHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let watch: ConnectionWatch

    init(watch: ConnectionWatch) { self.watch = watch }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: _ = watch.receive(.requestHead)
        case .body: break
        case .end: _ = watch.receive(.requestEnd)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            let closes = head.headerFields[.connection]?.lowercased() == "close"
            _ = watch.receive(.responseHead(closes: closes))
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard watch.receive(.responseEnd) == .closeOutput else { return context.write(data, promise: promise) }
            // The client reads the answer, then the end of the stream; what it still sends is dropped.
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(mode: .output, promise: nil) }
            context.writeAndFlush(data, promise: written)
        }
    }
}
