import NIOCore
import NIOHPACK
import Testing

@testable import HTTP2Client

@Suite("HTTP/2 frames as the client writes and reads them")
struct HTTP2WireTests {
    @Test("a header block split over HEADERS and CONTINUATION frames decodes to the same headers, in order")
    func headersRoundTrip() throws {
        let headers: HPACKHeaders = [
            ":method": "POST", ":scheme": "https", ":authority": "api.push.apple.com", ":path": "/3/device/abc",
            "authorization": "bearer " + String(repeating: "x", count: 300), "apns-topic": "com.example.app",
            "apns-push-type": "liveactivity", "content-length": "170", "x-long": String(repeating: "é", count: 200),
        ]
        var wire = ByteBuffer()
        var scratch = ByteBuffer()
        HTTP2Wire.writeHeaders(
            headers, streamID: 7, endStream: false, emptyTable: true, maximumFrameSize: 100, into: &wire,
            scratch: &scratch)
        var block = ByteBuffer()
        var frames: [HTTP2Wire.Frame] = []
        while var frame = try HTTP2Wire.nextFrame(from: &wire, maximumLength: 100) {
            #expect(frame.streamID == 7)
            block.writeBuffer(&frame.payload)
            frames.append(frame)
        }
        #expect(wire.readableBytes == 0)
        #expect(frames.count > 2)
        #expect(frames.first?.type == HTTP2Wire.FrameType.headers.rawValue)
        #expect(frames.dropFirst().allSatisfy { $0.type == HTTP2Wire.FrameType.continuation.rawValue })
        #expect(
            frames.map { $0.has(HTTP2Wire.Flag.endHeaders) } == Array(repeating: false, count: frames.count - 1) + [
                true
            ])
        #expect(!frames[0].has(HTTP2Wire.Flag.endStream))
        var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
        let decoded = try decoder.decodeHeaders(from: &block)
        #expect(decoded.map { "\($0.name): \($0.value)" } == headers.map { "\($0.name): \($0.value)" })
    }

    @Test("a body is cut into DATA frames of the server's frame size, the last one ending the stream")
    func dataFrames() throws {
        var body = ByteBuffer(repeating: 0x41, count: 40_000)
        var wire = ByteBuffer()
        HTTP2Wire.writeData(&body, length: 40_000, streamID: 3, endStream: true, maximumFrameSize: 16_384, into: &wire)
        var sizes: [Int] = []
        var ends: [Bool] = []
        while let frame = try HTTP2Wire.nextFrame(from: &wire, maximumLength: 16_384) {
            sizes.append(frame.payload.readableBytes)
            ends.append(frame.has(HTTP2Wire.Flag.endStream))
        }
        #expect(sizes == [16_384, 16_384, 7_232])
        #expect(ends == [false, false, true])
    }

    @Test("a frame not all arrived waits; one above the frame size is a FRAME_SIZE_ERROR; padding is stripped")
    func parsing() throws {
        var wire = ByteBuffer()
        HTTP2Wire.writeHeader(.data, flags: HTTP2Wire.Flag.padded, streamID: 1, length: 6, into: &wire)
        wire.writeBytes([3, 0x61, 0x62, 0, 0])  // pad length 3, "ab", then 2 of the 3 padding bytes
        #expect(try HTTP2Wire.nextFrame(from: &wire, maximumLength: 16_384) == nil)
        wire.writeBytes([0])
        var frame = try #require(try HTTP2Wire.nextFrame(from: &wire, maximumLength: 16_384))
        #expect(try HTTP2Wire.stripPadding(&frame) == 4)
        #expect(frame.payload.readString(length: frame.payload.readableBytes) == "ab")
        HTTP2Wire.writeHeader(.data, streamID: 1, length: 16_385, into: &wire)
        #expect(throws: HTTP2Wire.ConnectionError.self) {
            _ = try HTTP2Wire.nextFrame(from: &wire, maximumLength: 16_384)
        }
    }
}
