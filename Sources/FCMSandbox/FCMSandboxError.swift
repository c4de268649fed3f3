/// Why the FCM sandbox could not start, or why a fault description could not be parsed.
public struct FCMSandboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the problem.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A configuration value is out of range (port, project id, lifetime, limit, …).
        case invalidConfiguration = "fcm_sandbox.invalid_configuration"
        /// The CA or server certificate, or the service-account key, could not be generated.
        case certificateGenerationFailed = "fcm_sandbox.certificate_generation_failed"
        /// A file (CA certificate, service-account key, message log, env) could not be written.
        case cannotWriteFile = "fcm_sandbox.cannot_write_file"
        /// The listening socket could not be bound.
        case bindFailed = "fcm_sandbox.bind_failed"
        /// A fault description (``FCMScriptedFault/init(parsing:)``) is malformed.
        case invalidFaultSpec = "fcm_sandbox.invalid_fault_spec"
    }

    /// The stable code.
    public var code: Code
    /// A human-readable explanation (never includes key material or full tokens).
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
