/// Why a local server's listener could not start.
public struct LocalServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable {
        /// The host and port make no URL (or the port is out of range).
        case invalidAddress
        /// The CA or server certificate, or the TLS context, could not be made.
        case certificateGenerationFailed
        /// The listening socket could not be bound.
        case bindFailed
    }

    public var code: Code
    /// A human-readable explanation.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
