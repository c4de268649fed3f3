import APNs
import FCM
import Foundation
import Logging

/// What `serve`, `deliver` and `replay --deliver` deliver with, read and checked once, at start (a
/// replay, before it stores anything): FCM when its credentials are set; APNs when its settings are,
/// or (for `deliver` and `replay`) when FCM's are not (then the APNs error says what is missing).
struct DeliverySettings {
    /// The APNs settings, `nil` when only FCM is configured.
    var apns: (configuration: APNsConfiguration, connections: Int, channelsURL: URL?, broadcastURL: URL?)?
    /// The FCM settings, `nil` when FCM is not configured.
    var fcm: FCMConfiguration?

    /// Settings that must deliver somewhere (`deliver`, `replay --deliver`).
    /// - Throws: ``CLIError`` naming the setting that cannot work.
    init(apns options: APNsOptions, fcm: FCMOptions) throws {
        self.fcm = try fcm.configuration()
        guard options.isConfigured || self.fcm == nil else { return }
        apns = (
            try options.configuration(), try options.connectionCount(), try options.channelsURLSetting(),
            try options.broadcastURLSetting()
        )
    }

    /// The settings of `serve`: `nil` when neither APNs nor FCM is configured (delivery off, pushes wait
    /// in the outbox).
    /// - Throws: ``CLIError`` naming the setting that cannot work.
    static func ifConfigured(apns options: APNsOptions, fcm: FCMOptions) throws -> DeliverySettings? {
        let fcmConfigured = try fcm.configuration() != nil
        guard options.isConfigured || fcmConfigured else { return nil }
        return try DeliverySettings(apns: options, fcm: fcm)
    }

    /// The clients these settings name. Call ``DeliveryClients/shutdown()`` when done.
    func clients(logger: Logger) throws -> DeliveryClients {
        DeliveryClients(
            apns: try apns.map {
                try PushClients(
                    $0.configuration, connections: $0.connections, channelsURL: $0.channelsURL,
                    broadcastURL: $0.broadcastURL, logger: logger)
            },
            fcm: fcm.map { FCMClient(configuration: $0, logger: logger) })
    }
}

/// The APNs clients (device host, channel management, broadcasts) and the FCM client of one process.
struct DeliveryClients: Sendable {
    var apns: PushClients?
    var fcm: FCMClient?

    func shutdown() async {
        await apns?.shutdown()
        await fcm?.shutdown()
    }
}
