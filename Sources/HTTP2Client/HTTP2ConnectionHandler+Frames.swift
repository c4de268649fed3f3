import NIOCore
import NIOHPACK

/// The server's frames: parsed from the TLS bytes as they arrive, and acted on.
extension HTTP2ConnectionHandler {
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if inbound.readableBytes == 0 {
            inbound = bytes
        } else {
            inbound.writeBuffer(&bytes)
        }
        do {
            while !closed,
                var frame = try HTTP2Wire.nextFrame(from: &inbound, maximumLength: HTTP2Wire.defaultMaximumFrameSize)
            {
                try handle(&frame, context: context)
            }
            if inbound.readableBytes == 0 {
                inbound.clear()
            } else if inbound.readerIndex > 65_536 {
                inbound.discardReadBytes()
            }
        } catch {
            connectionError(error, context: context)
        }
    }

    private func handle(_ frame: inout HTTP2Wire.Frame, context: ChannelHandlerContext) throws(HTTP2Wire
        .ConnectionError)
    {
        if let partial = partialHeaders {
            guard frame.type == HTTP2Wire.FrameType.continuation.rawValue, frame.streamID == partial.streamID else {
                throw .init(code: 0x1, reason: "a header block interrupted by another frame")
            }
            partialHeaders!.block.writeBuffer(&frame.payload)
            if frame.has(HTTP2Wire.Flag.endHeaders) { try headerBlockEnded() }
            return
        }
        guard let type = HTTP2Wire.FrameType(rawValue: frame.type) else { return }  // unknown types are ignored
        switch type {
        case .data:
            guard frame.streamID != 0 else { throw .init(code: 0x1, reason: "DATA on stream 0") }
            let flowControlled = frame.payload.readableBytes
            _ = try HTTP2Wire.stripPadding(&frame)
            acknowledge(flowControlled, context: context)
            guard var stream = open[frame.streamID] else { return }
            var body = stream.body ?? ByteBuffer()
            let room = max(0, Self.maximumResponseBody - body.readableBytes)
            if var kept = frame.payload.readSlice(length: min(room, frame.payload.readableBytes)) {
                body.writeBuffer(&kept)
            }
            stream.body = body
            open[frame.streamID] = stream
            if frame.has(HTTP2Wire.Flag.endStream) { complete(frame.streamID) }
        case .headers:
            guard frame.streamID % 2 == 1 else {
                throw .init(code: 0x1, reason: "HEADERS on a stream the client did not open")
            }
            _ = try HTTP2Wire.stripPadding(&frame)
            partialHeaders = PartialHeaders(
                streamID: frame.streamID, endStream: frame.has(HTTP2Wire.Flag.endStream), block: frame.payload)
            if frame.has(HTTP2Wire.Flag.endHeaders) { try headerBlockEnded() }
        case .continuation:
            throw .init(code: 0x1, reason: "CONTINUATION without HEADERS")
        case .rstStream:
            guard let code = frame.payload.readInteger(as: UInt32.self) else {
                throw .init(code: 0x6, reason: "RST_STREAM of \(frame.payload.readableBytes) bytes")
            }
            let error =
                code == 0x7
                ? HTTP2ClientError(.notSent, "the server refused the stream")
                : HTTP2ClientError(.streamReset, "the server reset the stream (\(HTTP2Wire.name(of: code)))")
            finish(frame.streamID, .failure(error))
        case .settings:
            try settingsReceived(frame, context: context)
        case .pushPromise:
            throw .init(code: 0x1, reason: "PUSH_PROMISE, though push is disabled")
        case .ping:
            guard frame.streamID == 0, let data = frame.payload.readInteger(as: UInt64.self) else {
                throw .init(code: 0x6, reason: "a malformed PING")
            }
            if !frame.has(HTTP2Wire.Flag.ack) {
                HTTP2Wire.writePing(data, ack: true, into: &outbound)
            } else if data == pingCounter {
                pingDeadline?.cancel()
                pingDeadline = nil
            }
        case .goAway:
            guard let last = frame.payload.readInteger(as: UInt32.self),
                let code = frame.payload.readInteger(as: UInt32.self)
            else { throw .init(code: 0x6, reason: "a GOAWAY shorter than 8 bytes") }
            retire("the server sent GOAWAY (\(HTTP2Wire.name(of: code)))")
            let lastStreamID = Int32(bitPattern: last & 0x7FFF_FFFF)
            let refused = HTTP2ClientError(.notSent, "GOAWAY: the server did not process this stream")
            for (id, _) in open where id > lastStreamID { finish(id, .failure(refused)) }
        case .windowUpdate:
            guard let raw = frame.payload.readInteger(as: UInt32.self) else {
                throw .init(code: 0x6, reason: "a WINDOW_UPDATE of \(frame.payload.readableBytes) bytes")
            }
            let increment = Int(raw & 0x7FFF_FFFF)
            if frame.streamID == 0 {
                guard increment > 0 else { throw .init(code: 0x1, reason: "a connection WINDOW_UPDATE of 0") }
                connectionSendWindow += increment
                guard connectionSendWindow <= HTTP2Wire.maximumWindow else {
                    throw .init(code: 0x3, reason: "the connection window above 2^31-1")
                }
            } else if var stream = open[frame.streamID] {
                stream.sendWindow += increment
                open[frame.streamID] = stream
            }
            sendBlocked()
        case .priority:
            break
        }
    }

    /// Decodes a complete header block (every block, so the HPACK table stays in step with the
    /// server's, even for a stream the client reset) and gives it to its stream.
    private func headerBlockEnded() throws(HTTP2Wire.ConnectionError) {
        guard var partial = partialHeaders else { return }
        partialHeaders = nil
        let headers: HPACKHeaders
        do {
            headers = try decoder.decodeHeaders(from: &partial.block)
        } catch {
            throw .init(code: 0x9, reason: "an undecodable header block: \(error)")
        }
        let id = partial.streamID
        guard var stream = open[id] else { return }
        if stream.head == nil {
            stream.head = headers
            stream.status = headers.first(name: ":status").flatMap { Int($0) } ?? 0
        }
        open[id] = stream
        if partial.endStream { complete(id) }
    }

    private func settingsReceived(
        _ frame: HTTP2Wire.Frame, context: ChannelHandlerContext
    ) throws(HTTP2Wire.ConnectionError) {
        guard frame.streamID == 0 else { throw .init(code: 0x1, reason: "SETTINGS on a stream") }
        if frame.has(HTTP2Wire.Flag.ack) { return }
        guard frame.payload.readableBytes % 6 == 0 else {
            throw .init(code: 0x6, reason: "SETTINGS of \(frame.payload.readableBytes) bytes")
        }
        var payload = frame.payload
        while let id = payload.readInteger(as: UInt16.self), let raw = payload.readInteger(as: UInt32.self) {
            let value = Int(raw)
            switch HTTP2Wire.Setting(rawValue: id) {
            case .maxConcurrentStreams:
                maximumConcurrentStreams = value
            case .initialWindowSize:
                guard value <= HTTP2Wire.maximumWindow else {
                    throw .init(code: 0x3, reason: "SETTINGS_INITIAL_WINDOW_SIZE of \(value)")
                }
                let change = value - initialSendWindow
                initialSendWindow = value
                for id in open.keys { open[id]!.sendWindow += change }
            case .maxFrameSize:
                guard (HTTP2Wire.defaultMaximumFrameSize...16_777_215).contains(value) else {
                    throw .init(code: 0x1, reason: "SETTINGS_MAX_FRAME_SIZE of \(value)")
                }
                maximumFrameSize = value
            case .headerTableSize:
                announceEmptyTable = true
            default:
                break
            }
        }
        HTTP2Wire.writeSettingsAck(into: &outbound)
        sendBlocked()
        if !isReady {
            isReady = true
            ready.succeed()
        }
        startWaiting()
    }

    /// Gives the server back the connection window a DATA frame used (its whole payload counts).
    private func acknowledge(_ length: Int, context: ChannelHandlerContext) {
        unacknowledgedBytes += length
        guard unacknowledgedBytes >= Self.connectionWindow / 2 else { return }
        HTTP2Wire.writeWindowUpdate(streamID: 0, increment: unacknowledgedBytes, into: &outbound)
        unacknowledgedBytes = 0
    }

    private func complete(_ id: Int32) {
        guard let stream = open[id] else { return }
        let response = HTTP2Response(
            status: stream.status, headers: stream.head ?? [:], body: stream.body ?? ByteBuffer())
        finish(id, .success(response))
    }

    /// The server broke the protocol: GOAWAY with the reason's code, then the connection closes
    /// (its requests in flight fail with `connectionClosed`).
    private func connectionError(_ error: HTTP2Wire.ConnectionError, context: ChannelHandlerContext) {
        guard !closed else { return }
        closed = true
        state.markUnusable(errorRate: false, reason: "HTTP/2 protocol error: \(error)")
        HTTP2Wire.writeGoAway(lastStreamID: 0, code: error.code, into: &outbound)
        flush(context)
        if !isReady {
            isReady = true
            ready.fail(HTTP2ClientError(.connectFailed, "HTTP/2 protocol error: \(error)"))
        }
        context.close(promise: nil)
    }
}
