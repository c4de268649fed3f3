import NIOCore
import NIOHPACK
import NIOSSL

/// Speaks HTTP/2 on the TLS channel itself: the client side of RFC 9113 that requests to APNs and
/// FCM need, and nothing more (no stream channels, no per-request futures, no server push).
///
/// It allocates stream ids, writes each request as HEADERS + DATA into one buffer flushed every
/// ``flushEvery`` requests of a batch, keeps at most the server's `SETTINGS_MAX_CONCURRENT_STREAMS`
/// open (the rest wait in order), holds DATA back while the server's flow-control windows are
/// closed, matches answers to their batch, resets streams whose deadline passed, sends health PINGs,
/// and retires the connection on GOAWAY or when the ``ErrorRateGuard`` trips. A protocol error by
/// the server ends the connection with GOAWAY. Header blocks are written without HPACK state (``HTTP2Wire/writeHeaders``); the
/// server's are read with NIOHPACK's decoder.
///
/// Everything runs on the channel's event loop.
final class HTTP2ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The largest response body kept (APNs and FCM error bodies are far smaller).
    static let maximumResponseBody = 64 * 1024
    /// The connection-level receive window kept open: raised from the protocol's 65,535 at start,
    /// topped up whenever half of it was used.
    static let connectionWindow = 16 << 20
    /// Each stream's receive window (an answer is far smaller, so no stream WINDOW_UPDATE is needed).
    static let streamWindow = 1 << 20
    /// Stream ids are 31 bits; a connection that used this many retires and a new one takes over.
    static let lastUsableStreamID = Int32.max - 4096

    struct Settings {
        var pingInterval: TimeAmount
        var pingTimeout: TimeAmount
        var errorPolicy: ErrorRateGuard.Policy
        var isError: @Sendable (HTTP2Response) -> Bool
        var retiresConnection: @Sendable (HTTP2Response) -> Bool
    }

    struct OpenStream {
        let batch: HTTP2Batch
        let index: Int
        var head: HPACKHeaders?
        var status = 0
        var body: ByteBuffer?
        /// The request body not yet sent (flow control held it back).
        var unsent: ByteBuffer?
        /// What the server lets this stream send.
        var sendWindow: Int
    }

    /// A header block arriving in HEADERS + CONTINUATION frames.
    struct PartialHeaders {
        let streamID: Int32
        let endStream: Bool
        var block: ByteBuffer
    }

    let settings: Settings
    let state: HTTP2ConnectionState
    var context: ChannelHandlerContext?
    var open: [Int32: OpenStream] = [:]
    private var waiting = CircularBuffer<(HTTP2Batch, Int)>()
    /// Streams whose body waits for the server's windows, in the order they were opened.
    var blocked = CircularBuffer<Int32>()
    private var nextStreamID: Int32 = 1
    /// Until the server's SETTINGS say otherwise (RFC 9113 advises at least 100).
    var maximumConcurrentStreams = 100
    var maximumFrameSize = HTTP2Wire.defaultMaximumFrameSize
    var initialSendWindow = HTTP2Wire.defaultWindow
    var connectionSendWindow = HTTP2Wire.defaultWindow
    /// The next header block starts with a dynamic table size update to 0.
    var announceEmptyTable = true
    var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
    var partialHeaders: PartialHeaders?
    private var errorGuard: ErrorRateGuard
    /// No new streams: GOAWAY received, error guard tripped, ids used up, or closed.
    var draining = false
    var closed = false
    /// Bytes received and not yet parsed (a frame split across reads).
    var inbound = ByteBuffer()
    /// Bytes to write at the next flush.
    var outbound = ByteBuffer()
    private var scratch = ByteBuffer()
    /// Response bytes received since the last connection WINDOW_UPDATE.
    var unacknowledgedBytes = 0
    private var pingTask: RepeatedTask?
    var pingDeadline: Scheduled<Void>?
    var pingCounter: UInt64 = 0
    let ready: EventLoopPromise<Void>
    var isReady = false

    init(settings: Settings, state: HTTP2ConnectionState, ready: EventLoopPromise<Void>) {
        self.settings = settings
        self.state = state
        self.ready = ready
        self.errorGuard = ErrorRateGuard(policy: settings.errorPolicy)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        outbound = context.channel.allocator.buffer(capacity: 4096)
        scratch = context.channel.allocator.buffer(capacity: 1024)
        let interval = settings.pingInterval
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        pingTask = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            this.value.sendPing()
        }
        if context.channel.isActive { sendPreface(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        shutDownTimers()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        sendPreface(context)
        context.fireChannelActive()
    }

    /// The preface, our SETTINGS and the raised connection window (TLS holds them until its handshake
    /// is done).
    private func sendPreface(_ context: ChannelHandlerContext) {
        outbound.writeString(HTTP2Wire.preface)
        HTTP2Wire.writeSettings(
            [
                (.enablePush, 0), (.maxConcurrentStreams, 100), (.initialWindowSize, Self.streamWindow),
                (.maxHeaderListSize, 16 * 1024),
            ], into: &outbound)
        HTTP2Wire.writeWindowUpdate(
            streamID: 0, increment: Self.connectionWindow - HTTP2Wire.defaultWindow, into: &outbound)
        flush(context)
    }

    // MARK: Requests

    /// Starts every request of `batch` (or queues those beyond the concurrency limit) and flushes once.
    func submit(_ batch: HTTP2Batch) {
        guard !batch.isComplete else { return }
        guard let context, !draining, !closed else {
            batch.failRemaining(HTTP2ClientError(.notSent, "the connection is closing"))
            return
        }
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        batch.timeout = context.eventLoop.scheduleTask(deadline: batch.deadline) { [batch] in
            this.value.expire(batch)
        }
        for index in batch.requests.indices {
            if open.count < maximumConcurrentStreams && waiting.isEmpty {
                start(batch, index)
                // Flushed in slices, so the server starts on the first requests while the rest are
                // encoded (one flush of a thousand left it idle for the whole encoding).
                if index % Self.flushEvery == Self.flushEvery - 1 { flush(context) }
            } else {
                waiting.append((batch, index))
            }
        }
        flush(context)
    }

    /// Requests started between two flushes of one batch.
    static let flushEvery = 64

    private func start(_ batch: HTTP2Batch, _ index: Int) {
        let id = nextStreamID
        nextStreamID += 2
        let request = batch.requests[index]
        let noBody = request.body.readableBytes == 0
        HTTP2Wire.writeHeaders(
            request.headers, streamID: id, endStream: noBody, emptyTable: announceEmptyTable,
            maximumFrameSize: maximumFrameSize, into: &outbound, scratch: &scratch)
        announceEmptyTable = false
        open[id] = OpenStream(
            batch: batch, index: index, unsent: noBody ? nil : request.body, sendWindow: initialSendWindow)
        if !noBody {
            if blocked.isEmpty { sendBody(id) }
            if open[id]?.unsent != nil { blocked.append(id) }
        }
        if nextStreamID >= Self.lastUsableStreamID { retire("stream ids used up") }
    }

    /// Writes as much of the stream's unsent body as the windows allow; `false` if some is left.
    @discardableResult
    private func sendBody(_ id: Int32) -> Bool {
        guard var stream = open[id], var body = stream.unsent else { return true }
        let length = min(body.readableBytes, connectionSendWindow, stream.sendWindow)
        guard length > 0 else { return false }
        let done = length == body.readableBytes
        HTTP2Wire.writeData(
            &body, length: length, streamID: id, endStream: done, maximumFrameSize: maximumFrameSize,
            into: &outbound)
        connectionSendWindow -= length
        stream.sendWindow -= length
        stream.unsent = done ? nil : body
        open[id] = stream
        return done
    }

    /// Sends the bodies held back, in order, as far as the windows now allow.
    func sendBlocked() {
        var stillBlocked = CircularBuffer<Int32>()
        while let id = blocked.popFirst() {
            guard open[id]?.unsent != nil else { continue }
            if connectionSendWindow <= 0 || !sendBody(id) { stillBlocked.append(id) }
        }
        blocked = stillBlocked
    }

    func startWaiting() {
        while open.count < maximumConcurrentStreams, let (batch, index) = waiting.popFirst() {
            guard batch.outcomes[index] == nil else { continue }
            guard !draining else {
                batch.complete(index, .failure(HTTP2ClientError(.notSent, "the connection is closing")))
                continue
            }
            start(batch, index)
        }
    }

    func flush(_ context: ChannelHandlerContext) {
        guard outbound.readableBytes > 0 else { return }
        let bytes = outbound
        outbound = context.channel.allocator.buffer(capacity: max(4096, bytes.readableBytes))
        context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
    }

    /// Ends a batch early (its deadline passed, or its caller was cancelled): resets its open streams
    /// and drops its waiting requests, which get `error`.
    func expire(
        _ batch: HTTP2Batch, _ error: HTTP2ClientError = HTTP2ClientError(.timeout, "no answer before the deadline")
    ) {
        guard !batch.isComplete else { return }
        for (id, stream) in open where stream.batch === batch {
            open[id] = nil
            HTTP2Wire.writeRstStream(streamID: id, code: 0x8, into: &outbound)  // CANCEL
        }
        batch.failRemaining(error)
        if let context {
            startWaiting()
            flush(context)
        }
    }

    func finish(_ id: Int32, _ outcome: HTTP2Outcome) {
        guard let stream = open.removeValue(forKey: id) else { return }
        stream.batch.complete(stream.index, outcome)
        guard case .success(let response) = outcome else { return }
        if errorGuard.record(isError: settings.isError(response)) {
            retire(
                "\(errorGuard.errors) of the last \(errorGuard.policy.window) answers were errors",
                errorRate: true)
        } else if settings.retiresConnection(response) {
            retire("the server's answer (\(response.status)) asks for a new connection")
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        startWaiting()
        flush(context)
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !isReady {
            isReady = true
            ready.fail(error)
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        state.markUnusable(errorRate: false)
        shutDownTimers()
        if !isReady {
            isReady = true
            ready.fail(HTTP2ClientError(.connectFailed, "the connection closed during the handshake"))
        }
        let lost = HTTP2ClientError(.connectionClosed, "the connection closed before the answer")
        for (id, _) in open { finish(id, .failure(lost)) }
        let unsent = HTTP2ClientError(.notSent, "the connection closed before the request was sent")
        while let (batch, index) = waiting.popFirst() { batch.complete(index, .failure(unsent)) }
        context.fireChannelInactive()
    }

    // MARK: Health

    /// Stops taking new streams; the open ones finish, then the connection closes.
    func retire(_ why: String, errorRate: Bool = false) {
        guard !draining else { return }
        draining = true
        state.markUnusable(errorRate: errorRate, reason: why)
        closeWhenIdle()
    }

    private func closeWhenIdle() {
        guard draining, let context else { return }
        if open.isEmpty {
            context.close(promise: nil)
        } else {
            let this = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .milliseconds(50)) { this.value.closeWhenIdle() }
        }
    }

    private func sendPing() {
        guard let context, !closed, pingDeadline == nil else { return }
        pingCounter &+= 1
        HTTP2Wire.writePing(pingCounter, ack: false, into: &outbound)
        flush(context)
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        pingDeadline = context.eventLoop.scheduleTask(in: settings.pingTimeout) {
            guard let context = this.value.context else { return }
            this.value.state.markUnusable(errorRate: false, reason: "no PING answer in time")
            context.close(promise: nil)
        }
    }

    private func shutDownTimers() {
        pingTask?.cancel()
        pingTask = nil
        pingDeadline?.cancel()
        pingDeadline = nil
    }
}
