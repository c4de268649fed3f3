import APNs
import ArgumentParser
import Foundation
import Logging
import ScoreStore

/// APNs settings: flags, falling back to the `SCOREFEED_APNS_*` environment variables.
struct APNsOptions: ParsableArguments {
    @Option(name: .customLong("apns-key-file"), help: "The .p8 signing key (SCOREFEED_APNS_KEY_FILE).")
    var keyFile: String?

    @Option(name: .customLong("apns-key-id"), help: "The key id (SCOREFEED_APNS_KEY_ID).")
    var keyId: String?

    @Option(name: .customLong("apns-team-id"), help: "The team id (SCOREFEED_APNS_TEAM_ID).")
    var teamId: String?

    @Option(name: .customLong("apns-bundle-id"), help: "The app's bundle id (SCOREFEED_APNS_BUNDLE_ID).")
    var bundleId: String?

    @Option(
        name: .customLong("apns-url"),
        help: "production (default), sandbox, or any https URL such as a local server (SCOREFEED_APNS_URL).")
    var url: String?

    @Option(name: .customLong("apns-ca-file"), help: "An extra CA certificate to trust, PEM (SCOREFEED_APNS_CA_FILE).")
    var caFile: String?

    @Option(
        name: .customLong("apns-channels-url"),
        help:
            "Apple's channel management host, or a local server (SCOREFEED_APNS_CHANNELS_URL; default Apple's for the environment, or --apns-url when that is a URL)."
    )
    var channelsURL: String?

    /// The channel management URL: the flag, else the variable, else `nil` (Apple's, or the custom APNs URL).
    func channelsURLSetting() throws -> URL? {
        try Self.urlSetting(channelsURL, flag: "--apns-channels-url", variable: "SCOREFEED_APNS_CHANNELS_URL")
    }

    @Option(
        name: .customLong("apns-broadcast-url"),
        help:
            "Apple's broadcast host, or a local server (SCOREFEED_APNS_BROADCAST_URL; default Apple's for the environment, or --apns-url when that is a URL)."
    )
    var broadcastURL: String?

    /// The broadcast URL: the flag, else the variable, else `nil` (Apple's, or the custom APNs URL).
    func broadcastURLSetting() throws -> URL? {
        try Self.urlSetting(broadcastURL, flag: "--apns-broadcast-url", variable: "SCOREFEED_APNS_BROADCAST_URL")
    }

    /// An optional https URL setting: the flag's value, else the variable's, else `nil`.
    private static func urlSetting(_ value: String?, flag: String, variable: String) throws -> URL? {
        let text = value ?? Runtime.environment[variable] ?? ""
        if text.isEmpty { return nil }
        guard let url = URL(string: text), url.scheme == "https", url.host != nil else {
            throw CLIError("APNs configuration: \(flag) / \(variable) must be an https URL, not '\(text)'")
        }
        return url
    }

    @Option(
        name: .customLong("apns-connections"),
        help: "HTTP/2 connections per APNs host, 1 to 64 (SCOREFEED_APNS_CONNECTIONS, default 1).")
    var connections: Int?

    /// The number of HTTP/2 connections per host: the flag, else the variable, else 1.
    func connectionCount() throws -> Int {
        let variable = "SCOREFEED_APNS_CONNECTIONS"
        let text = connections.map(String.init) ?? Runtime.environment[variable] ?? ""
        if text.isEmpty { return 1 }
        guard let count = Int(text), (1...64).contains(count) else {
            throw CLIError(
                "APNs configuration: --apns-connections / \(variable) must be a whole number from 1 to 64, not '\(text)'"
            )
        }
        return count
    }

    /// Whether any APNs setting is given, by flag or environment (then all must be right).
    var isConfigured: Bool {
        let flags = [keyFile, keyId, teamId, bundleId, url, caFile]
        let variables = [
            APNsConfiguration.Variable.keyFile, APNsConfiguration.Variable.keyId, APNsConfiguration.Variable.teamId,
            APNsConfiguration.Variable.bundleId, APNsConfiguration.Variable.url, APNsConfiguration.Variable.caFile,
        ]
        return flags.contains { $0 != nil } || variables.contains { !(Runtime.environment[$0] ?? "").isEmpty }
    }

    /// The validated configuration; a clear error names what is missing or wrong.
    func configuration() throws -> APNsConfiguration {
        var env = Runtime.environment
        let flags: [(String, String?)] = [
            (APNsConfiguration.Variable.keyFile, keyFile), (APNsConfiguration.Variable.keyId, keyId),
            (APNsConfiguration.Variable.teamId, teamId), (APNsConfiguration.Variable.bundleId, bundleId),
            (APNsConfiguration.Variable.url, url), (APNsConfiguration.Variable.caFile, caFile),
        ]
        for case (let name, let value?) in flags { env[name] = value }
        do {
            return try APNsConfiguration.fromEnvironment(env)
        } catch {
            throw CLIError("APNs configuration: \(error.message) (flags --apns-*, or SCOREFEED_APNS_* variables)")
        }
    }
}

/// One APNs client per environment: production and sandbox hosts, or one custom URL for both.
final class PushClients: Sendable {
    let production: APNsClient
    let sandbox: APNsClient
    let productionChannels: APNsChannelClient
    let sandboxChannels: APNsChannelClient
    let productionBroadcasts: APNsClient
    let sandboxBroadcasts: APNsClient

    init(
        _ configuration: APNsConfiguration, connections: Int = 1, channelsURL: URL? = nil, broadcastURL: URL? = nil,
        logger: Logger
    ) throws {
        func host(_ environment: APNsConfiguration.Environment) throws -> APNsClient {
            APNsClient(
                configuration: try APNsConfiguration(
                    signingKeyPEM: configuration.signingKey.pemRepresentation, keyId: configuration.keyId,
                    teamId: configuration.teamId, bundleId: configuration.bundleId, environment: environment,
                    additionalCAFile: configuration.additionalCAFile),
                connections: connections, logger: logger)
        }
        switch configuration.environment {
        case .custom:
            production = APNsClient(configuration: configuration, connections: connections, logger: logger)
            sandbox = production
            productionChannels = APNsChannelClient(configuration: configuration, url: channelsURL, logger: logger)
            sandboxChannels = productionChannels
            productionBroadcasts = APNsClient(
                configuration: configuration,
                url: broadcastURL ?? APNsClient.defaultBroadcastURL(for: configuration.environment),
                logger: logger)
            sandboxBroadcasts = productionBroadcasts
        case .production, .sandbox:
            production = try host(.production)
            sandbox = try host(.sandbox)
            productionChannels = APNsChannelClient(
                configuration: production.configuration, url: channelsURL, logger: logger)
            sandboxChannels = APNsChannelClient(configuration: sandbox.configuration, url: channelsURL, logger: logger)
            productionBroadcasts = APNsClient(
                configuration: production.configuration,
                url: broadcastURL ?? APNsClient.defaultBroadcastURL(for: .production), logger: logger)
            sandboxBroadcasts = APNsClient(
                configuration: sandbox.configuration,
                url: broadcastURL ?? APNsClient.defaultBroadcastURL(for: .sandbox),
                logger: logger)
        }
    }

    func client(_ environment: PushEnvironment) -> APNsClient {
        environment == .sandbox ? sandbox : production
    }

    /// The broadcast client of an environment.
    func broadcasts(_ environment: PushEnvironment) -> APNsClient {
        environment == .sandbox ? sandboxBroadcasts : productionBroadcasts
    }

    /// The channel management client of an environment.
    func channels(_ environment: PushEnvironment) -> APNsChannelClient {
        environment == .sandbox ? sandboxChannels : productionChannels
    }

    func shutdown() async {
        try? await production.shutdown()
        if sandbox !== production { try? await sandbox.shutdown() }
        await productionChannels.shutdown()
        if sandboxChannels !== productionChannels { await sandboxChannels.shutdown() }
        try? await productionBroadcasts.shutdown()
        if sandboxBroadcasts !== productionBroadcasts { try? await sandboxBroadcasts.shutdown() }
    }
}
