/// Why a ``ServiceAccount`` or an ``FCMConfiguration`` could not be built.
///
/// ``field`` names the offending JSON field (`private_key`), configuration property (`baseURL`) or
/// environment variable (`SCOREFEED_FCM_URL`); ``reason`` says what is wrong with it. Neither ever
/// contains key material.
public struct FCMConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field, property or environment variable that is missing or invalid.
    public var field: String
    /// What is wrong with it (never includes secrets).
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - field: The field, property or environment variable.
    ///   - reason: What is wrong with it, without secrets.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "fcm.config: \(field): \(reason)" }
}
