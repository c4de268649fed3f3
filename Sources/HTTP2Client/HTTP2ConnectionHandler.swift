import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOSSL

/// Speaks HTTP/2 requests directly on the connection channel, after `NIOHTTP2Handler` (no stream
/// channels, no per-request futures): allocates stream ids, writes each request as HEADERS + one DATA
/// frame, flushes once per batch, keeps at most the server's `SETTINGS_MAX_CONCURRENT_STREAMS` open
/// (the rest wait in order), matches answers to their batch, resets streams whose deadline passed,
/// sends health PINGs, and retires the connection on GOAWAY or when the ``ErrorRateGuard`` trips.
///
/// Everything runs on the channel's event loop.
final class HTTP2ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The largest response body kept (APNs and FCM error bodies are far smaller).
    static let maximumResponseBody = 64 * 1024
    /// The connection-level receive window kept open (NIOHTTP2Handler leaves it to the layer above):
    /// raised from the protocol's 65,535 at start, topped up whenever half of it was used.
    static let connectionWindow = 16 << 20
    /// Stream ids are 31 bits; a connection that used this many retires and a new one takes over.
    static let lastUsableStreamID = Int32.max - 4096

    struct Settings {
        var pingInterval: TimeAmount
        var pingTimeout: TimeAmount
        var errorPolicy: ErrorRateGuard.Policy
        var isError: @Sendable (HTTP2Response) -> Bool
        var retiresConnection: @Sendable (HTTP2Response) -> Bool
    }

    private struct OpenStream {
        let batch: HTTP2Batch
        let index: Int
        var head: HPACKHeaders?
        var status = 0
        var body: ByteBuffer?
    }

    private let settings: Settings
    private let state: HTTP2ConnectionState
    private var context: ChannelHandlerContext?
    private var open: [HTTP2StreamID: OpenStream] = [:]
    private var waiting = CircularBuffer<(HTTP2Batch, Int)>()
    private var nextStreamID: Int32 = 1
    /// Until the server's SETTINGS say otherwise (RFC 9113 advises at least 100).
    private var maximumConcurrentStreams = 100
    private var errorGuard: ErrorRateGuard
    /// No new streams: GOAWAY received, error guard tripped, ids used up, or closed.
    private var draining = false
    private var closed = false
    private var needsFlush = false
    /// Response bytes received since the last connection WINDOW_UPDATE.
    private var unacknowledgedBytes = 0
    private var pingTask: RepeatedTask?
    private var pingDeadline: Scheduled<Void>?
    private var pingCounter: UInt64 = 0
    private let ready: EventLoopPromise<Void>
    private var isReady = false

    init(settings: Settings, state: HTTP2ConnectionState, ready: EventLoopPromise<Void>) {
        self.settings = settings
        self.state = state
        self.ready = ready
        self.errorGuard = ErrorRateGuard(policy: settings.errorPolicy)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let interval = settings.pingInterval
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        pingTask = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            this.value.sendPing()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        shutDownTimers()
        self.context = nil
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
                start(batch, index, context: context)
            } else {
                waiting.append((batch, index))
            }
        }
        flushIfNeeded(context)
    }

    private func start(_ batch: HTTP2Batch, _ index: Int, context: ChannelHandlerContext) {
        let id = HTTP2StreamID(nextStreamID)
        nextStreamID += 2
        let request = batch.requests[index]
        open[id] = OpenStream(batch: batch, index: index)
        let noBody = request.body.readableBytes == 0
        let headers = HTTP2Frame.FramePayload.Headers(headers: request.headers, endStream: noBody)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: id, payload: .headers(headers))), promise: nil)
        if !noBody {
            let data = HTTP2Frame.FramePayload.Data(data: .byteBuffer(request.body), endStream: true)
            context.write(wrapOutboundOut(HTTP2Frame(streamID: id, payload: .data(data))), promise: nil)
        }
        needsFlush = true
        if nextStreamID >= Self.lastUsableStreamID { retire("stream ids used up") }
    }

    private func startWaiting(_ context: ChannelHandlerContext) {
        while open.count < maximumConcurrentStreams, let (batch, index) = waiting.popFirst() {
            guard batch.outcomes[index] == nil else { continue }
            guard !draining else {
                batch.complete(index, .failure(HTTP2ClientError(.notSent, "the connection is closing")))
                continue
            }
            start(batch, index, context: context)
        }
    }

    private func flushIfNeeded(_ context: ChannelHandlerContext) {
        guard needsFlush else { return }
        needsFlush = false
        context.flush()
    }

    /// Ends a batch early (its deadline passed, or its caller was cancelled): resets its open streams
    /// and drops its waiting requests, which get `error`.
    func expire(
        _ batch: HTTP2Batch, _ error: HTTP2ClientError = HTTP2ClientError(.timeout, "no answer before the deadline")
    ) {
        guard !batch.isComplete else { return }
        for (id, stream) in open where stream.batch === batch {
            open[id] = nil
            context?.write(wrapOutboundOut(HTTP2Frame(streamID: id, payload: .rstStream(.cancel))), promise: nil)
            needsFlush = true
        }
        batch.failRemaining(error)
        if let context {
            startWaiting(context)
            flushIfNeeded(context)
        }
    }

    private func finish(_ id: HTTP2StreamID, _ outcome: HTTP2Outcome) {
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

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let headers):
            guard var stream = open[frame.streamID] else { return }
            if stream.head == nil {
                stream.head = headers.headers
                stream.status = headers.headers.first(name: ":status").flatMap { Int($0) } ?? 0
            }
            open[frame.streamID] = stream
            if headers.endStream { complete(frame.streamID) }
        case .data(let data):
            acknowledge(data, context: context)
            guard var stream = open[frame.streamID] else { return }
            if case .byteBuffer(var bytes) = data.data {
                var body = stream.body ?? ByteBuffer()
                let room = max(0, Self.maximumResponseBody - body.readableBytes)
                if var kept = bytes.readSlice(length: min(room, bytes.readableBytes)) { body.writeBuffer(&kept) }
                stream.body = body
            }
            open[frame.streamID] = stream
            if data.endStream { complete(frame.streamID) }
        case .rstStream(let code):
            let error =
                code == .refusedStream
                ? HTTP2ClientError(.notSent, "the server refused the stream")
                : HTTP2ClientError(.streamReset, "the server reset the stream (\(code))")
            finish(frame.streamID, .failure(error))
        case .goAway(let lastStreamID, let code, _):
            retire("the server sent GOAWAY (\(code))")
            let refused = HTTP2ClientError(.notSent, "GOAWAY: the server did not process this stream")
            for (id, _) in open where id > lastStreamID { finish(id, .failure(refused)) }
        case .settings(.settings(let list)):
            for setting in list where setting.parameter == .maxConcurrentStreams {
                maximumConcurrentStreams = setting.value
            }
            if !isReady {
                isReady = true
                let increment = Self.connectionWindow - 65_535
                context.write(
                    wrapOutboundOut(
                        HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: increment))),
                    promise: nil)
                needsFlush = true
                ready.succeed()
            }
            startWaiting(context)
        case .ping(let data, ack: true):
            if data == HTTP2PingData(withInteger: pingCounter) {
                pingDeadline?.cancel()
                pingDeadline = nil
            }
        default:
            break
        }
    }

    /// Gives the server back the connection window a DATA frame used (its whole payload counts).
    private func acknowledge(_ data: HTTP2Frame.FramePayload.Data, context: ChannelHandlerContext) {
        unacknowledgedBytes += data.data.readableBytes + (data.paddingBytes.map { $0 + 1 } ?? 0)
        guard unacknowledgedBytes >= Self.connectionWindow / 2 else { return }
        let increment = unacknowledgedBytes
        unacknowledgedBytes = 0
        context.write(
            wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: increment))),
            promise: nil)
        needsFlush = true
    }

    private func complete(_ id: HTTP2StreamID) {
        guard let stream = open[id] else { return }
        let response = HTTP2Response(
            status: stream.status, headers: stream.head ?? [:], body: stream.body ?? ByteBuffer())
        finish(id, .success(response))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        startWaiting(context)
        flushIfNeeded(context)
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let closed = event as? StreamClosedEvent, let reason = closed.reason {
            let error =
                reason == .refusedStream
                ? HTTP2ClientError(.notSent, "the server did not process this stream")
                : HTTP2ClientError(.streamReset, "stream closed (\(reason))")
            finish(closed.streamID, .failure(error))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let streamError = error as? NIOHTTP2Errors.StreamError {
            finish(streamError.streamID, .failure(HTTP2ClientError(.streamReset, "\(streamError.baseError)")))
            return
        }
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
    private func retire(_ why: String, errorRate: Bool = false) {
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
        context.writeAndFlush(
            wrapOutboundOut(
                HTTP2Frame(streamID: .rootStream, payload: .ping(.init(withInteger: pingCounter), ack: false))),
            promise: nil)
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
