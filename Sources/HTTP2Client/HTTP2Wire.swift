import NIOCore
import NIOHPACK

/// HTTP/2's wire format (RFC 9113 §4 and §6) as the client needs it: frames parsed from and written
/// into byte buffers, with no state of their own.
enum HTTP2Wire {
    /// The client connection preface.
    static let preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
    /// Every frame's header: length (24 bits), type, flags, stream id (31 bits).
    static let headerLength = 9
    /// SETTINGS_MAX_FRAME_SIZE's initial value: the largest frame either side may send until told more.
    static let defaultMaximumFrameSize = 16_384
    /// The initial flow-control window of the connection and of every stream.
    static let defaultWindow = 65_535
    static let maximumWindow = Int(Int32.max)

    enum FrameType: UInt8 {
        case data = 0
        case headers = 1
        case priority = 2
        case rstStream = 3
        case settings = 4
        case pushPromise = 5
        case ping = 6
        case goAway = 7
        case windowUpdate = 8
        case continuation = 9
    }

    enum Flag {
        static let endStream: UInt8 = 0x1
        static let ack: UInt8 = 0x1
        static let endHeaders: UInt8 = 0x4
        static let padded: UInt8 = 0x8
        static let priority: UInt8 = 0x20
    }

    enum Setting: UInt16 {
        case headerTableSize = 1
        case enablePush = 2
        case maxConcurrentStreams = 3
        case initialWindowSize = 4
        case maxFrameSize = 5
        case maxHeaderListSize = 6
    }

    /// One frame's header and its payload (padding and priority fields still in it).
    struct Frame {
        var type: UInt8
        var flags: UInt8
        var streamID: Int32
        var payload: ByteBuffer

        func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
    }

    /// A violation of the protocol by the server: the connection ends with GOAWAY and this code.
    struct ConnectionError: Error, CustomStringConvertible {
        var code: UInt32
        var reason: String
        var description: String { "\(HTTP2Wire.name(of: code)): \(reason)" }
    }

    /// The next complete frame at the start of `buffer` (consumed), or `nil` if it has not all arrived.
    static func nextFrame(from buffer: inout ByteBuffer, maximumLength: Int) throws(ConnectionError) -> Frame? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self).map({ Int($0 >> 8) }) else {
            return nil
        }
        guard length <= maximumLength else {
            throw ConnectionError(code: 0x6, reason: "a frame of \(length) bytes, above \(maximumLength)")
        }
        guard buffer.readableBytes >= headerLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: 3)
        let type = buffer.readInteger(as: UInt8.self)!
        let flags = buffer.readInteger(as: UInt8.self)!
        let streamID = Int32(bitPattern: buffer.readInteger(as: UInt32.self)! & 0x7FFF_FFFF)
        return Frame(type: type, flags: flags, streamID: streamID, payload: buffer.readSlice(length: length)!)
    }

    /// Removes the padding (and, for HEADERS, the priority fields) from a DATA or HEADERS payload.
    /// Returns how many bytes went (they count against flow control for DATA).
    static func stripPadding(_ frame: inout Frame) throws(ConnectionError) -> Int {
        var removed = 0
        var padding = 0
        if frame.has(Flag.padded) {
            guard let length = frame.payload.readInteger(as: UInt8.self) else {
                throw ConnectionError(code: 0x6, reason: "a padded frame without its pad length")
            }
            padding = Int(length)
            removed += 1 + padding
        }
        if frame.type == FrameType.headers.rawValue && frame.has(Flag.priority) {
            guard frame.payload.readSlice(length: 5) != nil else {
                throw ConnectionError(code: 0x6, reason: "HEADERS too short for its priority fields")
            }
        }
        guard padding <= frame.payload.readableBytes else {
            throw ConnectionError(code: 0x1, reason: "padding longer than the frame")
        }
        frame.payload.moveWriterIndex(to: frame.payload.writerIndex - padding)
        return removed
    }

    /// Writes a frame header; the payload (`length` bytes) follows.
    static func writeHeader(
        _ type: FrameType, flags: UInt8 = 0, streamID: Int32, length: Int, into buffer: inout ByteBuffer
    ) {
        buffer.writeInteger(UInt32(length) << 8 | UInt32(type.rawValue))
        buffer.writeInteger(flags)
        buffer.writeInteger(UInt32(bitPattern: streamID))
    }

    static func writeSettings(_ settings: [(Setting, Int)], into buffer: inout ByteBuffer) {
        writeHeader(.settings, streamID: 0, length: 6 * settings.count, into: &buffer)
        for (setting, value) in settings {
            buffer.writeInteger(setting.rawValue)
            buffer.writeInteger(UInt32(value))
        }
    }

    static func writeSettingsAck(into buffer: inout ByteBuffer) {
        writeHeader(.settings, flags: Flag.ack, streamID: 0, length: 0, into: &buffer)
    }

    static func writePing(_ data: UInt64, ack: Bool, into buffer: inout ByteBuffer) {
        writeHeader(.ping, flags: ack ? Flag.ack : 0, streamID: 0, length: 8, into: &buffer)
        buffer.writeInteger(data)
    }

    static func writeWindowUpdate(streamID: Int32, increment: Int, into buffer: inout ByteBuffer) {
        writeHeader(.windowUpdate, streamID: streamID, length: 4, into: &buffer)
        buffer.writeInteger(UInt32(increment))
    }

    static func writeRstStream(streamID: Int32, code: UInt32, into buffer: inout ByteBuffer) {
        writeHeader(.rstStream, streamID: streamID, length: 4, into: &buffer)
        buffer.writeInteger(code)
    }

    static func writeGoAway(lastStreamID: Int32, code: UInt32, into buffer: inout ByteBuffer) {
        writeHeader(.goAway, streamID: 0, length: 8, into: &buffer)
        buffer.writeInteger(UInt32(bitPattern: lastStreamID))
        buffer.writeInteger(code)
    }

    /// Writes `headers` as one HEADERS frame and as many CONTINUATION frames as `maximumFrameSize`
    /// needs. The block is HPACK without the dynamic table and without Huffman coding (RFC 7541
    /// §6.2.2, literals never indexed): nothing to keep in step with the server, and cheaper to make
    /// than the few bytes it would save.
    ///
    /// - Parameter emptyTable: starts the block with a dynamic table size update to 0 (the first
    ///   block of a connection, and the first after the server's SETTINGS_HEADER_TABLE_SIZE).
    static func writeHeaders(
        _ headers: HPACKHeaders, streamID: Int32, endStream: Bool, emptyTable: Bool, maximumFrameSize: Int,
        into buffer: inout ByteBuffer, scratch: inout ByteBuffer
    ) {
        scratch.clear()
        if emptyTable { scratch.writeInteger(UInt8(0x20)) }
        for (name, value, _) in headers { writeLiteral(name: name, value: value, into: &scratch) }
        var type = FrameType.headers
        var flags = endStream ? Flag.endStream : 0
        repeat {
            let length = min(scratch.readableBytes, maximumFrameSize)
            let last = length == scratch.readableBytes
            writeHeader(
                type, flags: flags | (last ? Flag.endHeaders : 0), streamID: streamID, length: length, into: &buffer)
            var part = scratch.readSlice(length: length)!
            buffer.writeBuffer(&part)
            (type, flags) = (.continuation, 0)
        } while scratch.readableBytes > 0
    }

    /// Writes `body` as DATA frames of at most `maximumFrameSize` bytes, the last ending the stream.
    static func writeData(
        _ body: inout ByteBuffer, length: Int, streamID: Int32, endStream: Bool, maximumFrameSize: Int,
        into buffer: inout ByteBuffer
    ) {
        var left = length
        repeat {
            let size = min(left, maximumFrameSize)
            left -= size
            let flags = endStream && left == 0 ? Flag.endStream : 0
            writeHeader(.data, flags: flags, streamID: streamID, length: size, into: &buffer)
            var part = body.readSlice(length: size)!
            buffer.writeBuffer(&part)
        } while left > 0
    }

    /// A literal header field never indexed, with a static-table name where there is one.
    private static func writeLiteral(name: String, value: String, into buffer: inout ByteBuffer) {
        if let index = staticNames[name] {
            writeInteger(index, prefix: 4, flags: 0x10, into: &buffer)
        } else {
            buffer.writeInteger(UInt8(0x10))
            writeString(name, into: &buffer)
        }
        writeString(value, into: &buffer)
    }

    private static func writeString(_ string: String, into buffer: inout ByteBuffer) {
        writeInteger(string.utf8.count, prefix: 7, flags: 0, into: &buffer)
        buffer.writeString(string)
    }

    /// RFC 7541 §5.1.
    private static func writeInteger(_ value: Int, prefix: Int, flags: UInt8, into buffer: inout ByteBuffer) {
        let limit = (1 << prefix) - 1
        guard value >= limit else {
            buffer.writeInteger(flags | UInt8(value))
            return
        }
        buffer.writeInteger(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 128 {
            buffer.writeInteger(UInt8(rest & 0x7F | 0x80))
            rest >>= 7
        }
        buffer.writeInteger(UInt8(rest))
    }

    /// The names of RFC 7541's static table that requests use (the first index of each).
    private static let staticNames: [String: Int] = [
        ":authority": 1, ":method": 2, ":path": 4, ":scheme": 6, ":status": 8, "accept": 19,
        "accept-encoding": 16, "authorization": 23, "content-length": 28, "content-type": 31, "user-agent": 58,
    ]

    /// RFC 9113 §7's names of error codes, for messages.
    static func name(of code: UInt32) -> String {
        let names = [
            "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
            "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR",
            "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
        ]
        return code < names.count ? names[Int(code)] : "error code \(code)"
    }
}
