import ArgumentParser
import FCM
import Foundation
import ScoreDomain
import ScoreStore

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
}

/// `--fcm-token` / `--fid` of a registration: the app is reached through Firebase Cloud Messaging.
struct FCMAddressOptions: ParsableArguments {
    @Option(help: "Reach the app through Firebase Cloud Messaging, at this FCM registration token.")
    var fcmToken: String?

    @Option(help: "Reach the app through Firebase Cloud Messaging, at this Firebase Installation ID.")
    var fid: String?

    /// The address given (checked), `nil` when neither option is.
    /// - Throws: `ValidationError` for both options at once or a malformed value.
    func address() throws -> FCMAddress? {
        let address: FCMAddress?
        switch (fcmToken, fid) {
        case (let token?, nil): address = .token(token)
        case (nil, let fid?): address = .fid(fid)
        case (nil, nil): address = nil
        case (.some, .some): throw ValidationError("give --fcm-token or --fid, not both")
        }
        do {
            return try address?.validated()
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension FCMAddress {
    /// `, through FCM (token abcdefgh…)`, for the lines that show a registration.
    var throughFCM: String { ", through FCM (\(kind) \(value.prefix(8))…)" }
}
