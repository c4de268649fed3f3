import NIOCore
import NIOHTTP1
import NIOPosix

/// A live-stream client on a connection of its own that reads only when asked: with a small receive
/// buffer, a client that stops reading soon makes the server's writes wait.
struct StreamSocket {
    /// One block of the stream: an event, or a comment line (its text after `: `).
    enum Item: Equatable {
        case event(id: Int?, data: String)
        case comment(String)
    }

    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private var text = ""
    private var ended = false
    /// The response's status.
    private(set) var status = 0

    private init(_ inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator) {
        self.inbound = inbound
    }

    /// Opens `path` on `server` (with `Last-Event-ID` when given, a receive buffer of `receiveBuffer`
    /// bytes), reads the response head and runs `body`; the connection is closed afterwards.
    static func with<T: Sendable>(
        _ server: RunningServer, _ path: String, lastEventID: Int? = nil, receiveBuffer: Int = 4096,
        _ body: (inout StreamSocket) async throws -> T
    ) async throws -> T {
        let port = Int(server.base.split(separator: ":").last!)!
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(backPressureStrategy: .init(lowWatermark: 1, highWatermark: 2)))
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var headers: HTTPHeaders = ["Host": "127.0.0.1"]
            if let lastEventID { headers.add(name: "Last-Event-ID", value: String(lastEventID)) }
            try await outbound.write(
                .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)))
            try await outbound.write(.end(nil))
            var socket = StreamSocket(inbound.makeAsyncIterator())
            if case .head(let head) = try await socket.inbound.next() { socket.status = Int(head.status.code) }
            return try await body(&socket)
        }
    }

    /// The next event or comment, or `nil` once the response (or the connection) ended.
    mutating func next() async throws -> Item? {
        while true {
            if let end = text.range(of: "\n\n") {
                let block = text[..<end.lowerBound]
                text = String(text[end.upperBound...])
                if block.hasPrefix(": ") { return .comment(String(block.dropFirst(2))) }
                var (id, data): (Int?, String?) = (nil, nil)
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                if let data { return .event(id: id, data: data) }
                continue
            }
            guard !ended, let part = try await inbound.next() else { return nil }
            switch part {
            case .body(let buffer): text += String(buffer: buffer)
            case .end: ended = true
            case .head: continue
            }
        }
    }

    /// Every event and comment until the response ends.
    mutating func rest() async throws -> [Item] {
        var items: [Item] = []
        while let item = try await next() { items.append(item) }
        return items
    }
}
