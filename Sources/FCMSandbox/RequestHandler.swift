import Foundation
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Handles one HTTP/2 stream on its event loop: collects the request, then answers the token endpoint,
/// or plays a queued fault or checks a `messages:send` request, records it and answers.
final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    /// The largest body read; a longer one is answered `413`.
    static let maximumBody = 1 << 20

    private struct Head {
        var method: String
        var path: String
        var authorization: String?
        var contentType: String?
    }

    private enum Phase {
        case receiving, handling, done
    }

    private let state: SandboxState
    private let logger: Logger
    private var head: Head?
    private var body: [UInt8] = []
    private var bodyLength = 0
    private var phase = Phase.receiving

    init(state: SandboxState, logger: Logger) {
        self.state = state
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard phase == .receiving else { return }
        let endStream: Bool
        switch unwrapInboundIn(data) {
        case .headers(let headers):
            if head == nil {  // later header blocks are trailers
                head = Self.head(of: headers.headers)
                guard head != nil else { return fail(context, "malformed request head") }
            }
            endStream = headers.endStream
        case .data(let data):
            if case .byteBuffer(let buffer) = data.data {
                bodyLength += buffer.readableBytes
                let room = Self.maximumBody - body.count
                if room > 0 { body.append(contentsOf: buffer.readableBytesView.prefix(room)) }
            }
            endStream = data.endStream
        default:
            return
        }
        guard endStream else { return }
        guard let head else { return fail(context, "no request head") }
        phase = .handling
        process(head, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        phase = .done
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, "\(error)")
    }

    private func fail(_ context: ChannelHandlerContext, _ problem: String) {
        logger.debug("FCM sandbox stream failed", metadata: ["error": "\(problem)"])
        phase = .done
        context.close(promise: nil)
    }

    private func process(_ head: Head, context: ChannelHandlerContext) {
        let now = Date()
        guard bodyLength <= Self.maximumBody else {
            return write(GoogleError.api(status: 413, message: "Request payload too large."), context: context)
        }
        switch Route(method: head.method, path: head.path) {
        case .token:
            let answer = state.exchange(TokenRequest(contentType: head.contentType, body: body), now: now)
            logger.debug(
                "FCM sandbox token exchange",
                metadata: ["http.status": "\(answer.status)", "oauth.error": "\(answer.errorCode ?? "-")"])
            write(answer, context: context)
        case .send(let projectId):
            let request = SendRequest(
                projectId: projectId, authorization: head.authorization, contentType: head.contentType, body: body)
            send(request, arrival: state.arrive(), now: now, context: context)
        case .notFound:
            write(GoogleError.pageNotFound(path: head.path), context: context)
        }
    }

    /// Plays the fault queued for the request, or checks it; records it and answers.
    private func send(_ request: SendRequest, arrival: Int, now: Date, context: ChannelHandlerContext) {
        switch state.takeFault(device: request.device) {
        case .error(let status, let code, let retryAfter):
            let answer = GoogleError.fcm(status: status, errorCode: code, retryAfter: retryAfter)
            respond(request, answer, arrival: arrival, receivedAt: now, context: context)
        case .drop:
            record(request, status: 0, errorCode: nil, isAccepted: false, arrival: arrival, receivedAt: now)
            phase = .done
            context.channel.parent?.close(promise: nil)
        case .delay(let duration):
            let loop = context.eventLoop.assumeIsolated()
            let scheduled = loop.scheduleTask(in: TimeAmount(duration)) {
                // The client may have given up (reset the stream) meanwhile.
                guard context.channel.isActive, self.phase == .handling else {
                    return self.abandon(request, arrival: arrival, receivedAt: now)
                }
                let answer = self.state.send(request, now: Date())
                self.respond(request, answer, arrival: arrival, receivedAt: now, context: context)
            }
            // The event loop shuts down (the sandbox stops) before the delay is over.
            scheduled.futureResult.assumeIsolated().whenFailure { _ in
                self.abandon(request, arrival: arrival, receivedAt: now)
            }
        case .refuseToken, nil:
            respond(request, state.send(request, now: now), arrival: arrival, receivedAt: now, context: context)
        }
    }

    private func abandon(_ request: SendRequest, arrival: Int, receivedAt: Date) {
        record(request, status: 0, errorCode: nil, isAccepted: false, arrival: arrival, receivedAt: receivedAt)
        phase = .done
    }

    private func respond(
        _ request: SendRequest, _ answer: SandboxAnswer, arrival: Int, receivedAt: Date, context: ChannelHandlerContext
    ) {
        // Record before answering, so a client that got the answer also finds the record.
        record(
            request, status: answer.status, errorCode: answer.errorCode, isAccepted: answer.isAccepted,
            arrival: arrival, receivedAt: receivedAt)
        logger.debug(
            "FCM sandbox message",
            metadata: [
                "http.status": "\(answer.status)", "fcm.error": "\(answer.errorCode ?? "-")",
                "fcm.target": "\(request.device.map { String($0.prefix(8)) + "…" } ?? "-")",
            ])
        write(answer, context: context)
    }

    private func record(
        _ request: SendRequest, status: Int, errorCode: String?, isAccepted: Bool, arrival: Int, receivedAt: Date
    ) {
        let message = FCMReceivedMessage(
            status: status, errorCode: errorCode, body: String(decoding: request.body, as: UTF8.self),
            target: request.device, topic: MessageValidator.topic(in: request.json), isAccepted: isAccepted,
            receivedAt: receivedAt)
        state.record(message, arrival: arrival)
    }

    private func write(_ answer: SandboxAnswer, context: ChannelHandlerContext) {
        var headers = HPACKHeaders()
        headers.reserveCapacity(4 + answer.headers.count)
        headers.add(name: ":status", value: String(answer.status))
        headers.add(name: "content-type", value: answer.contentType)
        headers.add(name: "content-length", value: String(answer.body.utf8.count))
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
        let buffer = context.channel.allocator.buffer(string: answer.body)
        context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(buffer), endStream: true))), promise: nil)
        phase = .done
    }

    /// The pseudo-headers and the fields the sandbox reads; `nil` when `:method` or `:path` is missing.
    private static func head(of headers: HPACKHeaders) -> Head? {
        guard let method = headers.first(name: ":method"), let path = headers.first(name: ":path") else {
            return nil
        }
        return Head(
            method: method, path: path, authorization: headers.first(name: "authorization"),
            contentType: headers.first(name: "content-type"))
    }
}
