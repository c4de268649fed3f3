import ArgumentParser
import FCM
import Foundation
import Logging

/// Firebase Cloud Messaging settings: flags, falling back to the `SCOREFEED_FCM_*` environment variables.
struct FCMOptions: ParsableArguments {
    @Option(
        name: .customLong("fcm-credentials"),
        help: "A Google service-account key file (JSON) for FCM HTTP v1 (SCOREFEED_FCM_CREDENTIALS).")
    var credentials: String?

    @Option(
        name: .customLong("fcm-url"),
        help: "The FCM server (SCOREFEED_FCM_URL; default https://fcm.googleapis.com), e.g. a local server.")
    var url: String?

    @Option(name: .customLong("fcm-ca-file"), help: "An extra CA certificate to trust, PEM (SCOREFEED_FCM_CA_FILE).")
    var caFile: String?

    /// The environment with the flags laid over it.
    private var environment: [String: String] {
        var env = Runtime.environment
        if let credentials { env[FCMConfiguration.Variable.credentials] = credentials }
        if let url { env[FCMConfiguration.Variable.url] = url }
        if let caFile { env[FCMConfiguration.Variable.caFile] = caFile }
        return env
    }

    /// The FCM configuration, `nil` when no credentials are set (FCM delivery off).
    /// - Throws: ``CLIError`` naming the setting that cannot work.
    func configuration() throws -> FCMConfiguration? {
        do {
            return try FCMConfiguration.fromEnvironment(environment)
        } catch {
            throw CLIError("FCM configuration: \(error)")
        }
    }

    /// A client for the configuration, `nil` when FCM is not configured. Call `shutdown()` when done.
    func client(logger: Logger) throws -> FCMClient? {
        try configuration().map { FCMClient(configuration: $0, logger: logger) }
    }
}
