import Foundation
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Handles one HTTP/2 stream on its event loop: collects the request, then plays a queued fault or checks
/// it, records it and answers.
final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private enum Phase {
        case receiving, handling, done
    }

    private let state: SandboxState
    private let validator: RequestValidator
    private let logger: Logger
    private let connectionId: Int
    private var request: SandboxRequest?
    private var phase = Phase.receiving

    init(state: SandboxState, validator: RequestValidator, logger: Logger, connectionId: Int) {
        self.state = state
        self.validator = validator
        self.logger = logger
        self.connectionId = connectionId
    }

    func handlerAdded(context: ChannelHandlerContext) {
        state.requestStarted()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard phase == .receiving else { return }
        let endStream: Bool
        switch unwrapInboundIn(data) {
        case .headers(let headers):
            if request == nil {  // later header blocks are trailers
                request = SandboxRequest(headerBlock: headers.headers, endStream: headers.endStream)
                guard request != nil else { return fail(context, "malformed request head") }
            }
            endStream = headers.endStream
        case .data(let data):
            if case .byteBuffer(let buffer) = data.data { request?.append(buffer.readableBytesView) }
            endStream = data.endStream
        default:
            return
        }
        guard endStream else { return }
        guard let request else { return fail(context, "no request head") }
        phase = .handling
        process(request, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if phase == .receiving {
            logger.debug("APNs sandbox stream closed before the request was complete")
            finish()
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, "\(error)")
    }

    /// Gives up on the stream (closes it) unless the request is already being answered.
    private func fail(_ context: ChannelHandlerContext, _ problem: String) {
        logger.debug("APNs sandbox stream failed", metadata: ["error": "\(problem)"])
        if phase == .receiving { finish() }
        context.close(promise: nil)
    }

    private func finish() {
        guard phase != .done else { return }
        phase = .done
        state.requestFinished()
    }

    /// Applies a queued fault, or checks the request; records it and answers.
    private func process(_ request: SandboxRequest, context: ChannelHandlerContext) {
        let now = Date()
        var delivery = Delivery(request, connectionId: connectionId, time: now)
        if request.path.hasPrefix(BroadcastValidator.managementPrefix) {
            return manage(request, delivery: delivery, now: now, context: context)
        }
        let fault = state.takeFault(token: request.token)
        delivery.fault = fault?.description
        switch fault {
        case .respond(let status, let reason, let stamp):
            delivery.outcome = .faulted
            let timestamp = stamp ?? (status == 410 ? Int64(now.timeIntervalSince1970 * 1000) : nil)
            answer(Verdict(status: status, reason: reason), delivery: delivery, timestamp: timestamp, context: context)
        case .dropConnection:
            delivery.outcome = .dropped
            state.record(delivery)
            context.channel.parent?.close(promise: nil)
            finish()
        case .delay(let duration):
            let loop = context.eventLoop.assumeIsolated()
            let scheduled = loop.scheduleTask(in: TimeAmount(min(duration, .seconds(365 * 24 * 3600)))) {
                // The client may have given up (reset the stream) meanwhile.
                guard context.channel.isActive else { return self.abandon(delivery) }
                self.answer(request, delivery: delivery, now: Date(), context: context)
            }
            // The event loop shuts down (the sandbox stops) before the delay is over.
            scheduled.futureResult.assumeIsolated().whenFailure { _ in self.abandon(delivery) }
        case nil:
            answer(request, delivery: delivery, now: now, context: context)
        }
    }

    private func abandon(_ delivery: Delivery) {
        var delivery = delivery
        delivery.outcome = .abandoned
        state.record(delivery)
        finish()
    }

    /// Checks the request and answers with the verdict.
    private func answer(_ request: SandboxRequest, delivery: Delivery, now: Date, context: ChannelHandlerContext) {
        var delivery = delivery
        let verdict =
            request.path.hasPrefix(BroadcastValidator.broadcastPrefix)
            ? validator.broadcasts.validateBroadcast(request, now: now) : validator.validate(request, now: now)
        delivery.outcome = verdict.status == 200 ? .delivered : .rejected
        answer(verdict, delivery: delivery, timestamp: nil, context: context)
    }

    /// Answers a channel management request (no faults apply) and records it.
    private func manage(_ request: SandboxRequest, delivery: Delivery, now: Date, context: ChannelHandlerContext) {
        let answer = validator.broadcasts.manage(request, now: now)
        var delivery = delivery
        delivery.status = answer.status
        delivery.reason = answer.reason
        delivery.outcome = .managed
        if let created = answer.channelId { delivery.headers["apns-channel-id"] = created }
        state.record(delivery)
        var headers = HPACKHeaders()
        headers.add(name: ":status", value: String(answer.status))
        if let requestId = request.headers["apns-request-id"] { headers.add(name: "apns-request-id", value: requestId) }
        if let created = answer.channelId { headers.add(name: "apns-channel-id", value: created) }
        let body = answer.reason.map { ErrorBody.json(reason: $0, timestamp: nil) } ?? answer.body
        if let body {
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(body.utf8.count))
            context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
            context.writeAndFlush(
                wrapOutboundOut(
                    .data(.init(data: .byteBuffer(context.channel.allocator.buffer(string: body)), endStream: true))),
                promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: headers, endStream: true))), promise: nil)
        }
        finish()
    }

    /// Records `delivery` with the verdict, then writes the answer.
    private func answer(_ verdict: Verdict, delivery: Delivery, timestamp: Int64?, context: ChannelHandlerContext) {
        var delivery = delivery
        delivery.status = verdict.status
        delivery.reason = verdict.reason
        // Record before answering, so a client that got the answer also finds the record.
        state.record(delivery)
        var headers = HPACKHeaders()
        headers.reserveCapacity(4)
        headers.add(name: ":status", value: verdict.status == 200 ? "200" : String(verdict.status))
        headers.add(name: "apns-id", value: delivery.apnsId)
        if let reason = verdict.reason {
            let body = ErrorBody.json(reason: reason, timestamp: timestamp)
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(body.utf8.count))
            context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
            let buffer = context.channel.allocator.buffer(string: body)
            context.writeAndFlush(
                wrapOutboundOut(.data(.init(data: .byteBuffer(buffer), endStream: true))), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: headers, endStream: true))), promise: nil)
        }
        finish()
    }

}

/// The JSON body of an error answer, as APNs writes it: `{"reason":…}` plus `timestamp` for 410.
/// (Error answers are rare: Foundation is fine here.)
enum ErrorBody {
    static func json(reason: String, timestamp: Int64?) -> String {
        var object: [String: Any] = ["reason": reason]
        if let timestamp { object["timestamp"] = timestamp }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
