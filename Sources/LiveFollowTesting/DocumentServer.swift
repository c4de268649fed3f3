import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

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
    public var port: Int { server.port }
    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let documents: [String: [String]]
    private let state = NIOLockedValueBox(State())
    private let listener = NIOLockedValueBox<LocalHTTPServer?>(nil)
    private var server: LocalHTTPServer { listener.withLockedValue { $0! } }

    private init(documents: [String: [String]]) {
        self.documents = documents
    }

    /// Binds 127.0.0.1 on a free port and serves `documents` (path → the JSON texts in order).
    public static func start(documents: [String: [String]]) async throws -> DocumentServer {
        let server = DocumentServer(documents: documents)
        let listener = try await LocalHTTPServer.start { [server] in await server.handle($0) }
        server.listener.withLockedValue { $0 = listener }
        return server
    }

    /// Queues faults, answered to the next requests in order.
    public func inject(_ faults: Fault...) {
        state.withLockedValue { $0.faults += faults }
    }

    /// The requests received so far.
    public var requests: [Request] { state.withLockedValue { $0.requests } }

    /// Stops listening and closes every connection.
    public func stop() async { await server.stop() }

    private enum Answer {
        case respond(status: Int, etag: String?, body: String)
        case hang
        case close
        case stall(Duration, status: Int, etag: String?, body: String)
    }

    private func handle(_ connection: LocalHTTPConnection) async {
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
                let validators = etag.map { [("etag", $0), ("last-modified", "Sat, 01 Jan 2000 00:00:00 GMT")] } ?? []
                try await LocalHTTPServer.respond(outbound, status: status, body: body, headers: validators)
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
