import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// A local push feed for tests: `GET /stream` answers a chunked stream of JSON lines as Sportradar's
/// push feeds do, each connection playing the next scripted ``Connection`` (the last one again when
/// the script runs out), then closing or stalling.
public final class PushServer: Sendable {
    /// What one connection does.
    public struct Connection: Sendable {
        /// A step of the stream.
        public enum Step: Sendable {
            /// Write this line (a newline is added).
            case line(String)
            /// Wait before the next step.
            case pause(Duration)
        }

        /// How the connection ends after its steps.
        public enum End: Sendable {
            /// The server closes it.
            case close
            /// The server writes nothing more and keeps it open (the client's read timeout must end it).
            case stall
        }

        public var status: Int
        public var steps: [Step]
        public var end: End

        public init(status: Int = 200, steps: [Step], end: End) {
            self.status = status
            self.steps = steps
            self.end = end
        }
    }

    /// A request the server received: its path and `x-api-key` header.
    public struct Request: Sendable, Equatable {
        public var path: String
        public var apiKey: String?
    }

    private struct State {
        var next = 0
        var requests: [Request] = []
    }

    public var port: Int { server.port }
    /// `http://127.0.0.1:<port>/stream`.
    public var streamURL: String { "http://127.0.0.1:\(port)/stream" }

    private let script: [Connection]
    private let state = NIOLockedValueBox(State())
    private let listener = NIOLockedValueBox<LocalHTTPServer?>(nil)
    private var server: LocalHTTPServer { listener.withLockedValue { $0! } }

    private init(script: [Connection]) {
        self.script = script
    }

    /// Binds 127.0.0.1 on a free port and plays `script`, one connection after another.
    public static func start(script: [Connection]) async throws -> PushServer {
        let server = PushServer(script: script)
        let listener = try await LocalHTTPServer.start { [server] in await server.handle($0) }
        server.listener.withLockedValue { $0 = listener }
        return server
    }

    /// The requests received so far.
    public var requests: [Request] { state.withLockedValue { $0.requests } }

    /// Stops listening and closes every connection.
    public func stop() async { await server.stop() }

    private func handle(_ connection: LocalHTTPConnection) async {
        try? await connection.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                let path = String(head.uri.split(separator: "?", maxSplits: 1)[0])
                let played: Connection? = state.withLockedValue { state in
                    state.requests.append(Request(path: path, apiKey: head.headers.first(name: "x-api-key")))
                    guard path == "/stream", !script.isEmpty else { return nil }
                    defer { state.next += 1 }
                    return script[min(state.next, script.count - 1)]
                }
                guard let played else {
                    try await LocalHTTPServer.respond(outbound, status: 404, body: "")
                    return
                }
                var headers = HTTPHeaders()
                headers.add(name: "content-type", value: "application/json")
                headers.add(name: "transfer-encoding", value: "chunked")
                try await outbound.write(
                    .head(
                        HTTPResponseHead(version: .http1_1, status: .init(statusCode: played.status), headers: headers))
                )
                for step in played.steps {
                    switch step {
                    case .line(let text): try await outbound.write(.body(.byteBuffer(ByteBuffer(string: text + "\n"))))
                    case .pause(let wait): try await Task.sleep(for: wait)
                    }
                }
                switch played.end {
                case .close: return
                case .stall: try await Task.sleep(for: .seconds(600))
                }
                return
            }
        }
    }
}
