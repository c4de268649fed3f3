/// A failure of the client side: the request got no HTTP answer from APNs.
///
/// `description` never contains tokens or keys.
public struct APNsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// No answer within the request timeout.
        case timeout = "apns.timeout"
        /// The connection was closed before the answer arrived.
        case connectionClosed = "apns.connection_closed"
        /// The TCP connection or the TLS handshake could not be established.
        case connectFailed = "apns.connect_failed"
        /// The client was shut down.
        case clientShutDown = "apns.client_shut_down"
        /// The provider token could not be signed.
        case signingFailed = "apns.signing_failed"
        /// The request is malformed (e.g. a device token with characters other than letters and digits);
        /// it was not sent.
        case invalidRequest = "apns.invalid_request"
        /// Any other transport failure.
        case transport = "apns.transport"
    }

    /// The stable code.
    public var code: Code
    /// A human-readable explanation (never includes secrets).
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: A human-readable explanation without secrets.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Whether sending the same request again may succeed (transport trouble, not a bad request).
    public var isRetryable: Bool {
        switch code {
        case .timeout, .connectionClosed, .connectFailed, .transport: true
        case .clientShutDown, .signingFailed, .invalidRequest: false
        }
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
