import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A local HTTP/1.1 server for tests of the live followers: serves, per path, a sequence of recorded
/// documents, one step per request (the last one stays), each with an `ETag` (`"<step>"`) and
/// `Last-Modified`; a request whose `If-None-Match` names the current step is answered 304, as the
/// providers' CDNs do. Scripted faults answer the next requests instead (the sequence does not move).
public final class DocumentServer: Sendable {
    /// A scripted answer to the next request, instead of the normal one.
    public enum Fault: Sendable, Equatable {
        /// Answer normally (a placeholder to aim later faults at later requests).
        case pass
        /// Answer with this HTTP status.
        case status(Int)
        /// Never answer (the client's deadline passes).
        case hang
        /// Close the connection without answering.
        case close
        /// Wait this long, then answer normally.
        case stall(Duration)
        /// Answer 200 with this body.
        case body(String)
        /// Answer with the current document again (its `ETag` unchanged: 304 to a conditional request).
        case same
    }

    /// A request the server received.
    public struct Request: Sendable, Equatable {
        public var path: String
        public var ifNoneMatch: String?
        /// The `x-api-key` header.
        public var apiKey: String?
        /// The status answered (0 when none was: a hang or a closed connection).
        public var status: Int
    }

    private struct State {
        var positions: [String: Int] = [:]
        var faults: [Fault] = []
        var requests: [Request] = []
    }

    /// The bound port.
    public let port: Int
    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let documents: [String: [String]]
    private let state = NIOLockedValueBox(State())
    private let channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

    private init(
        documents: [String: [String]],
        channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    ) {
        self.documents = documents
        self.channel = channel
        self.port = channel.channel.localAddress?.port ?? 0
    }

    /// Binds 127.0.0.1 on a free port and serves `documents` (path → the JSON texts in order).
    public static func start(documents: [String: [String]]) async throws -> DocumentServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: child)
                }
            }
        let server = DocumentServer(documents: documents, channel: channel)
        let task = Task { await server.serve() }
        server.task.withLockedValue { $0 = task }
        return server
    }

    /// Queues faults, answered to the next requests in order.
    public func inject(_ faults: Fault...) {
        state.withLockedValue { $0.faults += faults }
    }

    /// The requests received so far.
    public var requests: [Request] { state.withLockedValue { $0.requests } }

    /// Stops listening and closes every connection.
    public func stop() async {
        let task = self.task.withLockedValue { $0 }
        task?.cancel()
        try? await channel.channel.close()
        await task?.value
    }

    private func serve() async {
        await withDiscardingTaskGroup { group in
            do {
                try await channel.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask { await self.handle(connection) }
                    }
                }
            } catch {}
            group.cancelAll()
        }
    }

    private enum Answer {
        case respond(status: Int, etag: String?, body: String)
        case hang
        case close
        case stall(Duration, status: Int, etag: String?, body: String)
    }

    private func handle(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                guard case .end = part else {
                    if case .head(let received) = part { head = received }
                    continue
                }
                guard let request = head else { continue }
                var (status, etag, body) = (0, String?.none, "")
                switch answer(request) {
                case .close: return
                case .hang:
                    try await Task.sleep(for: .seconds(600))
                    return
                case .respond(let s, let e, let b): (status, etag, body) = (s, e, b)
                case .stall(let wait, let s, let e, let b):
                    try await Task.sleep(for: wait)
                    (status, etag, body) = (s, e, b)
                }
                var headers = HTTPHeaders()
                headers.add(name: "content-type", value: "application/json")
                headers.add(name: "content-length", value: String(body.utf8.count))
                if let etag {
                    headers.add(name: "etag", value: etag)
                    headers.add(name: "last-modified", value: "Sat, 01 Jan 2000 00:00:00 GMT")
                }
                try await outbound.write(
                    .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers)))
                try await outbound.write(.body(.byteBuffer(ByteBuffer(string: body))))
                try await outbound.write(.end(nil))
            }
        }
    }

    private func answer(_ head: HTTPRequestHead) -> Answer {
        let path = String(head.uri.split(separator: "?", maxSplits: 1)[0])
        let ifNoneMatch = head.headers.first(name: "if-none-match")
        let apiKey = head.headers.first(name: "x-api-key")
        return state.withLockedValue { state -> Answer in
            var record = Request(path: path, ifNoneMatch: ifNoneMatch, apiKey: apiKey, status: 0)
            defer { state.requests.append(record) }
            guard let sequence = documents[path], !sequence.isEmpty else {
                record.status = 404
                return .respond(status: 404, etag: nil, body: "{\"message\":\"not found\"}")
            }
            var stall: Duration?
            var advance = 1
            if !state.faults.isEmpty {
                switch state.faults.removeFirst() {
                case .pass: break
                case .status(let status):
                    record.status = status
                    return .respond(status: status, etag: nil, body: "{\"message\":\"error \(status)\"}")
                case .hang: return .hang
                case .close: return .close
                case .stall(let wait): stall = wait
                case .same: advance = 0
                case .body(let body):
                    record.status = 200
                    return .respond(status: 200, etag: nil, body: body)
                }
            }
            let position = max(0, min((state.positions[path] ?? -1) + advance, sequence.count - 1))
            state.positions[path] = position
            let etag = "\"\(position)\""
            let (status, body) = ifNoneMatch == etag ? (304, "") : (200, sequence[position])
            record.status = status
            if let stall { return .stall(stall, status: status, etag: etag, body: body) }
            return .respond(status: status, etag: etag, body: body)
        }
    }
}
