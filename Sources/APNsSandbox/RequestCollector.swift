import NIOCore
import NIOHTTP1

/// One HTTP/2 stream: its channel (to answer on) and the request once it is complete.
///
/// Plain values on purpose: a stream dropped while the sandbox shuts down needs no cleanup beyond the
/// connection being closed.
struct IncomingStream: Sendable {
    var channel: any Channel
    /// Succeeds with the complete request; fails when the stream closes before the request is complete.
    var request: EventLoopFuture<SandboxRequest>
}

/// Collects the request parts of one stream into a ``SandboxRequest``.
final class RequestCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let promise: EventLoopPromise<SandboxRequest>
    private var request: SandboxRequest?

    init(promise: EventLoopPromise<SandboxRequest>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = SandboxRequest(
                method: head.method.rawValue,
                path: head.uri,
                headers: head.headers,
                body: [],
                bodyLength: 0
            )
        case .body(let buffer):
            request?.bodyLength += buffer.readableBytes
            let room = RequestValidator.maximumStoredBody - (request?.body.count ?? 0)
            if room > 0 {
                request?.body.append(contentsOf: buffer.readableBytesView.prefix(room))
            }
        case .end:
            if let request {
                promise.succeed(request)
            } else {
                promise.fail(ChannelError.inputClosed)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        promise.fail(ChannelError.ioOnClosedChannel)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }
}
