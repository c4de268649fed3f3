import Foundation
import LiveFollowTesting
import MLBFeed
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ScoreDomain

/// A local GUMBO-compatible HTTP/1.1 server for tests: serves one game's documents in order, one step
/// per request, on `GET /api/v1.1/game/{gamePk}/feed/live` and `…/feed/live/diffPatch?startTimecode=T`
/// (patches from the document with timecode `T` to the current one, `[]` when there is nothing new,
/// the whole document when `T` is unknown), with scripted faults.
public final class MLBFeedServer: Sendable {
    /// A scripted answer to the next request, instead of the normal one (the game does not advance).
    public enum Fault: Sendable, Equatable {
        /// Answer normally (a placeholder to aim later faults at later requests).
        case pass
        /// Answer with this HTTP status.
        case status(Int)
        /// Never answer (the client's deadline passes); the connection closes when the server stops.
        case hang
        /// Close the connection without answering.
        case close
        /// Answer 200 with this body.
        case body(String)
        /// Answer with the whole document number `n` (0-based), e.g. an older one.
        case document(Int)
        /// Answer a diffPatch with a patch that cannot apply.
        case brokenPatch
    }

    /// A request the server received.
    public struct Request: Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var query: String?
        /// `true` for `…/diffPatch`.
        public var isPatch: Bool { path.hasSuffix("/diffPatch") }
        public var description: String { query.map { "\(path)?\($0)" } ?? path }
    }

    private struct State {
        var position = -1
        var faults: [Fault] = []
        var requests: [Request] = []
    }

    /// The game served.
    public let gamePk: Int
    /// The bound port.
    public var port: Int { server.port }
    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let documents: [String]
    private let values: [JSONValue]
    private let timecodes: [String]
    private let state = NIOLockedValueBox(State())
    private let listener = NIOLockedValueBox<LocalHTTPServer?>(nil)
    private var server: LocalHTTPServer { listener.withLockedValue { $0! } }

    private init(gamePk: Int, documents: [String], values: [JSONValue]) {
        self.gamePk = gamePk
        self.documents = documents
        self.values = values
        self.timecodes = values.map { value in
            if case .string(let text)? = JSONPointer(tokens: ["metaData", "timeStamp"]).resolve(in: value) {
                return text
            }
            return ""
        }
    }

    /// Binds 127.0.0.1 on a free port and serves `documents` (JSON texts of one game, in order).
    public static func start(gamePk: Int, documents: [String]) async throws -> MLBFeedServer {
        let values = try documents.map { try JSONValue.parse(Data($0.utf8)) }
        let server = MLBFeedServer(gamePk: gamePk, documents: documents, values: values)
        let listener = try await LocalHTTPServer.start { [server] in await server.handle($0) }
        server.listener.withLockedValue { $0 = listener }
        return server
    }

    /// Reads a fixture folder's `*.json` documents in name order.
    public static func documents(inFolder path: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { try String(contentsOfFile: path + "/" + $0, encoding: .utf8) }
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
        case respond(status: Int, body: String)
        case hang
        case close
    }

    private func handle(_ connection: LocalHTTPConnection) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let received): head = received
                case .body: break
                case .end:
                    guard let request = head else { continue }
                    switch answer(request.uri) {
                    case .close:
                        return
                    case .hang:
                        try await Task.sleep(for: .seconds(600))
                        return
                    case .respond(let status, let body):
                        try await LocalHTTPServer.respond(
                            outbound, status: status, body: body, contentType: "application/json;charset=UTF-8")
                    }
                }
            }
        }
    }

    private func answer(_ uri: String) -> Answer {
        let parts = uri.split(separator: "?", maxSplits: 1).map(String.init)
        let request = Request(path: parts[0], query: parts.count > 1 ? parts[1] : nil)
        return state.withLockedValue { state -> Answer in
            state.requests.append(request)
            let live = "/api/v1.1/game/\(gamePk)/feed/live"
            guard request.path == live || request.path == live + "/diffPatch" else {
                return .respond(status: 404, body: "{\"message\":\"Object not found\"}")
            }
            if !state.faults.isEmpty {
                switch state.faults.removeFirst() {
                case .pass: break
                case .status(let status): return .respond(status: status, body: "{\"message\":\"error \(status)\"}")
                case .hang: return .hang
                case .close: return .close
                case .body(let body): return .respond(status: 200, body: body)
                case .document(let index): return .respond(status: 200, body: documents[index])
                case .brokenPatch:
                    return .respond(
                        status: 200, body: "[{\"diff\":[{\"op\":\"remove\",\"path\":\"/liveData/noSuchMember\"}]}]")
                }
            }
            state.position = min(state.position + 1, documents.count - 1)
            let current = state.position
            guard request.isPatch else { return .respond(status: 200, body: documents[current]) }
            let since = request.query?.split(separator: "&").first { $0.hasPrefix("startTimecode=") }
                .map { String($0.dropFirst("startTimecode=".count)) }
            guard let since, let from = timecodes.lastIndex(of: since), from <= current else {
                return .respond(status: 200, body: documents[current])
            }
            if from == current { return .respond(status: 200, body: "[]") }
            let diff = JSONValue.array([
                .object(["diff": .array(JSONDiff.operations(from: values[from], to: values[current]))])
            ])
            return .respond(status: 200, body: diff.serialized())
        }
    }
}
