import ArgumentParser
import Foundation
import ScoreDomain
import ScoreStore

/// `scorefeed device add|list`: push-to-start devices and what they follow.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Register devices for push-to-start: a followed team's game starts the Live Activity.",
        subcommands: [Add.self, List.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a device's push-to-start token and the teams (or game ids) the fan follows.")

        @Argument(help: "The push-to-start token (hex) ActivityKit gave the app.")
        var startToken: String

        @Option(help: "Team codes or game ids, comma-separated (e.g. BOS,NYY).")
        var follow: String

        @Flag(help: "The sandbox (development) environment.")
        var sandbox = false

        @Option(help: "The app's bundle id (default: SCOREFEED_APNS_BUNDLE_ID).")
        var bundleId: String?

        @Flag(
            help:
                "iOS 18+: starts carry the game's broadcast channel (input-push-channel) instead of asking for a token."
        )
        var channels = false

        @Option(help: "Registered at this time (RFC 3339), e.g. before a past game a replay plays again.")
        var at: String?

        @OptionGroup var fcm: FCMAddressOptions

        @OptionGroup var app: AppOption

        func run() async throws {
            guard let bundle = bundleId ?? Runtime.environment["SCOREFEED_APNS_BUNDLE_ID"], !bundle.isEmpty else {
                throw CLIError("give --bundle-id or set SCOREFEED_APNS_BUNDLE_ID")
            }
            let fcm = try self.fcm.address()
            let registeredAt = try Runtime.time(at: at)
            let follows = follow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let (token, environment, channels) = (
                startToken, sandbox ? PushEnvironment.sandbox : .production, self.channels
            )
            let (at, app) = (registeredAt, app.name)
            let connection = try await Runtime.openDatabase()
            let device: Device
            do {
                device = try await connection.withSession { session in
                    try Devices.register(
                        startToken: token, follows: follows, environment: environment, bundleId: bundle,
                        channels: channels, fcm: fcm, app: app, at: at, in: session)
                }
            } catch let error as ActivityError {
                await connection.close()
                throw CLIError("\(error)")
            } catch let refusal as RegistrationRefusal {
                await connection.close()
                throw CLIError(refusal.description)
            }
            await connection.close()
            Output.line(
                "registered device \(device.id): start token \(device.startToken.prefix(8))…, "
                    + "\(device.environment.rawValue), follows \(device.follows.joined(separator: ","))"
                    + (device.fcm.map(\.throughFCM) ?? ""))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the push-to-start devices.")

        @OptionGroup var app: AppFilter

        func run() async throws {
            let app = self.app.name
            let connection = try await Runtime.openDatabase()
            let devices = try await connection.withSession { try Devices.list(app: app, in: $0) }
            await connection.close()
            guard !devices.isEmpty else {
                Output.line("no devices registered")
                return
            }
            Output.write(
                Table.render(
                    header: ["ID", "TOKEN", "ENV", "APP", "FOLLOWS", "CHANNELS", "ROUTE", "STATE"],
                    rows: devices.map {
                        [
                            String($0.id), String($0.startToken.prefix(12)) + "…", $0.environment.rawValue, $0.app,
                            $0.follows.joined(separator: ","), $0.channels ? "yes" : "no",
                            $0.fcm == nil ? "apns" : "fcm",
                            $0.active ? "active" : "inactive",
                        ]
                    }))
        }
    }
}
