import NIOCore
import NIOHPACK

/// One request: the complete header block (pseudo-headers first) and the body, sent as one
/// HEADERS frame and one DATA frame.
public struct HTTP2Request: Sendable {
    /// `:method`, `:scheme`, `:authority`, `:path`, then the regular headers.
    public var headers: HPACKHeaders
    /// The body; empty means the HEADERS frame ends the stream.
    public var body: ByteBuffer

    /// Creates a request.
    public init(headers: HPACKHeaders, body: ByteBuffer) {
        self.headers = headers
        self.body = body
    }
}

/// The server's answer to one request.
public struct HTTP2Response: Sendable {
    /// The `:status`.
    public var status: Int
    /// The response headers (pseudo-headers included).
    public var headers: HPACKHeaders
    /// The body, at most ``HTTP2ConnectionHandler/maximumResponseBody`` bytes.
    public var body: ByteBuffer

    /// Creates a response.
    public init(status: Int, headers: HPACKHeaders, body: ByteBuffer) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request got no answer.
public struct HTTP2ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the failure.
    public enum Code: String, Sendable, Hashable {
        /// No answer before the deadline (the stream was reset).
        case timeout
        /// The request never reached the server (connection closing, GOAWAY above its stream, stream
        /// refused): sending it again cannot make it twice.
        case notSent
        /// The connection closed after the request was written and before its answer.
        case connectionClosed
        /// The TCP connection, the TLS handshake or the HTTP/2 preface failed.
        case connectFailed
        /// The server reset the stream, or a protocol error ended it.
        case streamReset
        /// The pool is shut down.
        case shutDown
        /// The caller's task was cancelled before the answer (the stream was reset).
        case cancelled
    }

    /// The stable code.
    public var code: Code
    /// A human-readable explanation (never includes request headers or bodies).
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// The outcome of one request.
public typealias HTTP2Outcome = Result<HTTP2Response, HTTP2ClientError>
