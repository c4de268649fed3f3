import Foundation
import Hummingbird
import NIOCore
import ScoreFeedTesting
import ServiceLifecycle
import Synchronization

/// A local OTLP/HTTP receiver for traces: `POST /v1/traces` with OTLP JSON (`http/json`), each span
/// recorded with its ids (as hex), parent, name and attributes.
final class OTLPReceiver: Sendable {
    /// A span as exported.
    struct Span: Sendable, CustomStringConvertible {
        var traceId: String
        var spanId: String
        var parentSpanId: String?
        var name: String
        /// Each attribute's value as text.
        var attributes: [String: String]
        /// `traceId-spanId` of each link.
        var links: [String]

        var description: String { "\(name) \(traceId)/\(spanId) <- \(parentSpanId ?? "-") \(attributes)" }
    }

    private let bound = Atomic<Int>(0)
    private let received = Mutex<(spans: [Span], requests: Int)>(([], 0))
    private let running = Mutex<(group: ServiceGroup, task: Task<Void, any Error>)?>(nil)

    /// The port it listens on.
    var port: Int { bound.load(ordering: .relaxed) }

    private init() {}

    /// Listens on 127.0.0.1, on a free port.
    static func start() async throws -> OTLPReceiver {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let receiver = OTLPReceiver()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 << 20)
            receiver.record(Data(body.readableBytesView))
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { listening.yield($0.localAddress?.port ?? 0) }, logger: quietLogger)
        let group = ServiceGroup(services: [application], gracefulShutdownSignals: [], logger: quietLogger)
        let task = Task { try await group.run() }
        for await port in ports {
            receiver.bound.store(port, ordering: .relaxed)
            break
        }
        receiver.running.withLock { $0 = (group, task) }
        return receiver
    }

    /// Every span received so far.
    func spans() -> [Span] { received.withLock { $0.spans } }

    /// How many export requests came.
    func requests() -> Int { received.withLock { $0.requests } }

    /// Stops gracefully: closes the listener and waits for it.
    func stop() async {
        guard let (group, task) = running.withLock({ $0 }) else { return }
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    private func record(_ body: Data) {
        let spans = Self.spans(in: (try? JSONSerialization.jsonObject(with: body)) ?? [:])
        received.withLock {
            $0.spans += spans
            $0.requests += 1
        }
    }

    /// The spans of an `ExportTraceServiceRequest` in OTLP JSON.
    static func spans(in json: Any) -> [Span] {
        var spans: [Span] = []
        for resource in (json as? [String: Any])?["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                        guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any]
                        else { continue }
                        // OTLP/JSON: {"boolValue": true}, {"intValue": "3"}, {"stringValue": "x"}, …
                        attributes[key] =
                            (value["boolValue"] as? Bool).map { "\($0)" } ?? value.values.first.map { "\($0)" }
                    }
                    let links = (span["links"] as? [[String: Any]] ?? []).map {
                        "\(hex($0["traceId"]) ?? "")-\(hex($0["spanId"]) ?? "")"
                    }
                    spans.append(
                        Span(
                            traceId: hex(span["traceId"]) ?? "", spanId: hex(span["spanId"]) ?? "",
                            parentSpanId: hex(span["parentSpanId"]), name: span["name"] as? String ?? "",
                            attributes: attributes, links: links))
                }
            }
        }
        return spans
    }

    /// An id as lowercase hex: OTLP JSON writes ids in hex; a protobuf JSON encoder may write base64.
    static func hex(_ value: Any?) -> String? {
        guard let text = value as? String, !text.isEmpty else { return nil }
        if text.count % 2 == 0, text.allSatisfy(\.isHexDigit), text.count == 32 || text.count == 16 {
            return text.lowercased()
        }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
