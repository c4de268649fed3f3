import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

extension APNsSandbox {
    /// Binds the TLS + HTTP/2 listener; every connection yields its HTTP/2 stream multiplexer.
    static func bindSocket(
        _ configuration: Configuration,
        sslContext: NIOSSLContext,
        registry: ConnectionRegistry
    ) async throws(APNsSandboxError) -> NIOAsyncChannel<AcceptedConnection, Never> {
        let http2 = http2Configuration(maximumConcurrentStreams: configuration.maximumConcurrentStreams)
        do {
            return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .bind(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let id = registry.register(channel)
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                        let multiplexer = try channel.pipeline.syncOperations.configureAsyncHTTP2Pipeline(
                            mode: .server,
                            configuration: http2
                        ) { stream in
                            stream.eventLoop.makeCompletedFuture {
                                let promise = stream.eventLoop.makePromise(of: SandboxRequest.self)
                                try stream.pipeline.syncOperations.addHandlers(
                                    HTTP2FramePayloadToHTTP1ServerCodec(),
                                    RequestCollector(promise: promise)
                                )
                                return IncomingStream(channel: stream, request: promise.futureResult)
                            }
                        }
                        return AcceptedConnection(id: id, channel: channel, multiplexer: multiplexer)
                    }
                }
        } catch {
            throw APNsSandboxError(
                .bindFailed, "cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
    }

    private static func http2Configuration(maximumConcurrentStreams: Int) -> NIOHTTP2Handler.Configuration {
        var http2 = NIOHTTP2Handler.Configuration()
        http2.connection.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maximumConcurrentStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 16 * 1024),
        ]
        return http2
    }

    /// Accepts connections until the listener closes or the task is cancelled.
    func acceptConnections() async {
        do {
            try await serverChannel.executeThenClose { connections in
                await withDiscardingTaskGroup { group in
                    do {
                        for try await connection in connections {
                            group.addTask { await self.serve(connection) }
                        }
                    } catch {
                        logger.debug("APNs sandbox stopped accepting", metadata: ["error": "\(error)"])
                    }
                }
            }
        } catch {
            logger.debug("APNs sandbox listener closed with an error", metadata: ["error": "\(error)"])
        }
    }

    /// Serves the HTTP/2 streams of one connection, one task per stream, until the connection closes.
    private func serve(_ connection: AcceptedConnection) async {
        let metadata: Logger.Metadata = ["sandbox.connection": "\(connection.id)"]
        logger.debug("APNs sandbox connection opened", metadata: metadata)
        await withDiscardingTaskGroup { group in
            do {
                for try await stream in connection.multiplexer.inbound {
                    group.addTask { await self.handle(stream, connectionId: connection.id) }
                }
            } catch {
                logger.debug("APNs sandbox connection failed", metadata: ["error": "\(error)"])
            }
            connection.channel.close(promise: nil)
        }
        logger.debug("APNs sandbox connection closed", metadata: metadata)
    }

    /// Waits for the request, applies a queued fault or checks it, records it and answers.
    private func handle(_ stream: IncomingStream, connectionId: Int) async {
        await state.requestStarted()
        do {
            let request = try await stream.request.get()
            if let delivery = await process(request, stream: stream.channel, connectionId: connectionId) {
                await state.record(delivery)
            }
        } catch {
            logger.debug("APNs sandbox stream failed", metadata: ["error": "\(error)"])
            stream.channel.close(promise: nil)
        }
        await state.requestFinished()
    }

    /// Answers one request; returns its record (already recorded when `nil`).
    private func process(_ request: SandboxRequest, stream: any Channel, connectionId: Int) async -> Delivery? {
        let token = RequestValidator.deviceToken(inPath: request.path)
        var delivery = Delivery(request, connectionId: connectionId, token: token)
        let verdict: Verdict
        var timestamp: Int64?
        switch await state.takeFault(token: token) {
        case .respond(let status, let reason, let stamp):
            delivery.fault = Fault.respond(status: status, reason: reason, timestamp: stamp).description
            delivery.outcome = .faulted
            verdict = Verdict(status: status, reason: reason)
            timestamp = stamp ?? (status == 410 ? Int64(Date().timeIntervalSince1970 * 1000) : nil)
        case .dropConnection:
            delivery.fault = Fault.dropConnection.description
            delivery.outcome = .dropped
            await state.record(delivery)
            stream.parent?.close(promise: nil)
            return nil
        case .delay(let duration):
            delivery.fault = Fault.delay(duration).description
            try? await Task.sleep(for: duration)
            guard stream.isActive, !Task.isCancelled else {
                delivery.outcome = .abandoned
                return delivery
            }
            verdict = validator.validate(request, now: Date())
            delivery.outcome = verdict.status == 200 ? .delivered : .rejected
        case nil:
            verdict = validator.validate(request, now: Date())
            delivery.outcome = verdict.status == 200 ? .delivered : .rejected
        }
        delivery.status = verdict.status
        delivery.reason = verdict.reason
        // Record before answering, so a client that got the answer also finds the record.
        await state.record(delivery)
        do {
            try await Self.answer(verdict, apnsId: delivery.apnsId, timestamp: timestamp, on: stream)
        } catch {
            logger.debug("APNs sandbox could not answer", metadata: ["error": "\(error)"])
        }
        return nil
    }

    private static func answer(_ verdict: Verdict, apnsId: String, timestamp: Int64?, on stream: any Channel)
        async throws
    {
        var headers = HTTPHeaders([("apns-id", apnsId)])
        var body: ByteBuffer?
        if let reason = verdict.reason {
            var object: [String: Any] = ["reason": reason]
            if let timestamp { object["timestamp"] = timestamp }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            body = ByteBuffer(bytes: data)
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(data.count))
        }
        let status = HTTPResponseStatus(statusCode: verdict.status)
        let head = HTTPResponseHead(version: .http2, status: status, headers: headers)
        stream.write(HTTPServerResponsePart.head(head), promise: nil)
        if let body {
            stream.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil)
        }
        try await stream.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
    }
}

extension Delivery {
    /// A record of `request` with no answer yet.
    init(_ request: SandboxRequest, connectionId: Int, token: String?) {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            let key = name.lowercased()
            let shown = key == "authorization" ? String(value.prefix(16)) + "…" : value
            headers[key] = headers[key].map { "\($0), \(shown)" } ?? shown
        }
        self.init(
            time: Date(),
            connection: connectionId,
            method: request.method,
            path: request.path,
            token: token,
            apnsId: RequestValidator.requestApnsId(request.headers) ?? UUID().uuidString.lowercased(),
            pushType: request.headers.first(name: "apns-push-type"),
            topic: request.headers.first(name: "apns-topic"),
            priority: request.headers.first(name: "apns-priority").flatMap { Int($0) },
            expiration: request.headers.first(name: "apns-expiration").flatMap { Int64($0) },
            headers: headers,
            payload: request.body,
            status: nil,
            reason: nil,
            fault: nil,
            outcome: .rejected
        )
    }
}
