import NIOCore
import NIOEmbedded
import NIOHPACK
import Testing

@testable import HTTP2Client

/// The connection handler against a scripted server: every frame it writes is read back and checked.
@Suite("the HTTP/2 connection handler, frame by frame")
struct HTTP2ConnectionHandlerTests {
    /// A client on an embedded channel, after the server's SETTINGS.
    final class Scripted {
        let channel = EmbeddedChannel()
        let handler: HTTP2ConnectionHandler
        var encoder = HPACKEncoder(allocator: ByteBufferAllocator())

        init() throws {
            let ready = channel.eventLoop.makePromise(of: Void.self)
            handler = HTTP2ConnectionHandler(
                settings: .init(
                    pingInterval: .seconds(60), pingTimeout: .seconds(10), errorPolicy: .init(),
                    isError: { _ in false }, retiresConnection: { _ in false }),
                state: HTTP2ConnectionState(), ready: ready)
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
            var written = try written()
            #expect(written.readString(length: HTTP2Wire.preface.utf8.count) == HTTP2Wire.preface)
            let frames = try Self.frames(&written)
            #expect(
                frames.map(\.type) == [
                    HTTP2Wire.FrameType.settings.rawValue, HTTP2Wire.FrameType.windowUpdate.rawValue,
                ])
            try serverSends { HTTP2Wire.writeSettings([], into: &$0) }
            try ready.futureResult.wait()
            #expect(try Self.frames(&written).isEmpty)
            var ack = try self.written()
            #expect(try Self.frames(&ack).map { $0.has(HTTP2Wire.Flag.ack) } == [true])
        }

        /// Everything the client wrote since the last call.
        func written() throws -> ByteBuffer {
            var all = ByteBuffer()
            while var part = try channel.readOutbound(as: ByteBuffer.self) { all.writeBuffer(&part) }
            return all
        }

        func writtenFrames() throws -> [HTTP2Wire.Frame] {
            var bytes = try written()
            return try Self.frames(&bytes)
        }

        static func frames(_ bytes: inout ByteBuffer) throws -> [HTTP2Wire.Frame] {
            var frames: [HTTP2Wire.Frame] = []
            while let frame = try HTTP2Wire.nextFrame(from: &bytes, maximumLength: 1 << 24) { frames.append(frame) }
            #expect(bytes.readableBytes == 0)
            return frames
        }

        func serverSends(_ write: (inout ByteBuffer) throws -> Void) throws {
            var bytes = ByteBuffer()
            try write(&bytes)
            try channel.writeInbound(bytes)
        }

        func answer(_ streamID: Int32, status: Int) throws {
            try encoder.beginEncoding(allocator: ByteBufferAllocator())
            try encoder.append(headers: [":status": "\(status)", "apns-id": "A"])
            let block = try encoder.endEncoding()
            try serverSends { bytes in
                HTTP2Wire.writeHeader(
                    .headers, flags: HTTP2Wire.Flag.endHeaders | HTTP2Wire.Flag.endStream, streamID: streamID,
                    length: block.readableBytes, into: &bytes)
                bytes.writeImmutableBuffer(block)
            }
        }

        func batch(_ count: Int, bodyBytes: Int) -> HTTP2Batch {
            let request = HTTP2Request(
                headers: [":method": "POST", ":scheme": "https", ":authority": "a", ":path": "/3/device/x"],
                body: ByteBuffer(repeating: 0x20, count: bodyBytes))
            let batch = HTTP2Batch(
                Array(repeating: request, count: count), deadline: .now() + .seconds(60),
                promise: channel.eventLoop.makePromise())
            handler.submit(batch)
            return batch
        }
    }

    static func dataBytes(_ frames: [HTTP2Wire.Frame]) -> [Int32: Int] {
        var bytes: [Int32: Int] = [:]
        for frame in frames where frame.type == HTTP2Wire.FrameType.data.rawValue {
            bytes[frame.streamID, default: 0] += frame.payload.readableBytes
        }
        return bytes
    }

    @Test("DATA never goes beyond the server's connection and stream windows; WINDOW_UPDATE and SETTINGS open them")
    func flowControl() throws {
        let client = try Scripted()
        let batch = client.batch(3, bodyBytes: 60_000)
        var frames = try client.writtenFrames()
        #expect(frames.filter { $0.type == HTTP2Wire.FrameType.headers.rawValue }.map(\.streamID) == [1, 3, 5])
        // The connection's 65,535 bytes: all of stream 1, the start of stream 3.
        #expect(Self.dataBytes(frames) == [1: 60_000, 3: 5_535])
        try client.serverSends { HTTP2Wire.writeWindowUpdate(streamID: 0, increment: 200_000, into: &$0) }
        frames = try client.writtenFrames()
        // Stream 5 stops at its own window (65,535) only if the connection allows more: here it all fits.
        #expect(Self.dataBytes(frames) == [3: 54_465, 5: 60_000])
        #expect(frames.filter { $0.has(HTTP2Wire.Flag.endStream) }.map(\.streamID) == [3, 5])
        // A smaller stream window from SETTINGS holds a new stream's body at that size.
        try client.serverSends { HTTP2Wire.writeSettings([(.initialWindowSize, 1_000)], into: &$0) }
        _ = try client.writtenFrames()  // the ACK
        _ = client.batch(1, bodyBytes: 3_000)
        #expect(Self.dataBytes(try client.writtenFrames()) == [7: 1_000])
        try client.serverSends { HTTP2Wire.writeWindowUpdate(streamID: 7, increment: 2_000, into: &$0) }
        #expect(Self.dataBytes(try client.writtenFrames()) == [7: 2_000])
        for id: Int32 in [1, 3, 5] { try client.answer(id, status: 200) }
        #expect(batch.isComplete)
        #expect(batch.outcomes.map { try? $0?.get().status } == [200, 200, 200])
    }

    @Test(
        "GOAWAY fails the streams above its last one as not sent; a PING is answered; a protocol error ends the connection with GOAWAY"
    )
    func goAwayPingAndErrors() throws {
        let client = try Scripted()
        let batch = client.batch(3, bodyBytes: 10)
        _ = try client.writtenFrames()
        try client.serverSends { HTTP2Wire.writePing(42, ack: false, into: &$0) }
        let pong = try client.writtenFrames()
        #expect(pong.count == 1 && pong[0].has(HTTP2Wire.Flag.ack))
        var pongData = pong[0].payload
        #expect(pongData.readInteger(as: UInt64.self) == 42)
        try client.serverSends { HTTP2Wire.writeGoAway(lastStreamID: 1, code: 0, into: &$0) }
        #expect(batch.outcomes.compactMap { $0 }.count == 2)
        if case .failure(let error) = batch.outcomes[1] { #expect(error.code == .notSent) }
        try client.answer(1, status: 200)
        #expect(batch.isComplete)
        #expect((try? batch.outcomes[0]?.get().status) == 200)

        let broken = try Scripted()
        let lost = broken.batch(1, bodyBytes: 10)
        _ = try broken.writtenFrames()
        try broken.serverSends { HTTP2Wire.writeHeader(.data, streamID: 0, length: 0, into: &$0) }  // DATA on stream 0
        let goAway = try broken.writtenFrames()
        #expect(goAway.map(\.type) == [HTTP2Wire.FrameType.goAway.rawValue])
        var goAwayPayload = try #require(goAway.first).payload
        #expect(goAwayPayload.readInteger(as: UInt32.self) == 0)  // last stream: none of the server's
        #expect(goAwayPayload.readInteger(as: UInt32.self) == 1)  // PROTOCOL_ERROR
        #expect(!broken.channel.isActive)
        if case .failure(let error) = lost.outcomes[0] {
            #expect(error.code == .connectionClosed)
        } else {
            Issue.record("not failed")
        }
    }
}
