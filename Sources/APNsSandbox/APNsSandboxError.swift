/// Why the sandbox could not start (or a fault description could not be parsed).
public struct APNsSandboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the problem.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The configured public key is not a PEM P-256 public key.
        case invalidPublicKey = "apns_sandbox.invalid_public_key"
        /// A configuration value is out of range (port, ids, …).
        case invalidConfiguration = "apns_sandbox.invalid_configuration"
        /// The CA or server certificate could not be generated.
        case certificateGenerationFailed = "apns_sandbox.certificate_generation_failed"
        /// The CA certificate or the delivery log could not be written.
        case cannotWriteFile = "apns_sandbox.cannot_write_file"
        /// The listening socket could not be bound.
        case bindFailed = "apns_sandbox.bind_failed"
        /// A fault description (``ScriptedFault/init(parsing:)``) is malformed.
        case invalidFaultSpec = "apns_sandbox.invalid_fault_spec"
    }

    /// The stable code.
    public var code: Code
    /// A human-readable explanation (never includes key material).
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: A human-readable explanation.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
