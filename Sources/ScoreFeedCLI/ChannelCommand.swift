import APNs
import ArgumentParser
import Foundation
import PushDelivery
import ScoreDomain
import ScoreStore

/// `scorefeed channel GAME` and `scorefeed channel list`: each game's broadcast channel (iOS 18+).
struct ChannelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel",
        abstract: "A game's broadcast channel id, created through Apple's channel management API on first use.",
        subcommands: [Get.self, List.self],
        defaultSubcommand: Get.self
    )

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract:
                "Print the game's channel id (base64, as the app passes it to ActivityKit), creating it if needed.",
            discussion: """
                A channel created now broadcasts the game's changes from now on; with --at TIME it is registered \
                as of TIME, so a past game replayed afterwards (replay --deliver) broadcasts to it. --at does \
                not change a channel the game already has.
                """
        )

        @Argument(help: "The game id.")
        var game: String

        @Flag(help: "The sandbox (development) environment instead of production.")
        var sandbox = false

        @Flag(help: "Print one JSON object.")
        var json = false

        @Option(
            help:
                "When the channel was registered, as RFC 3339 (default: now). For instant replays of past games.")
        var at: String?

        @OptionGroup var apns: APNsOptions

        @OptionGroup var app: AppOption

        func run() async throws {
            let registeredAt = try Runtime.time(at: at)
            guard apns.isConfigured else {
                throw CLIError(
                    "broadcast channels need the APNs settings (flags --apns-*, or SCOREFEED_APNS_* variables)")
            }
            let clients = try PushClients(
                try apns.configuration(), channelsURL: try apns.channelsURLSetting(), logger: Runtime.logger)
            let environment: PushEnvironment = sandbox ? .sandbox : .production
            let connection = try await Runtime.openDatabase()
            let result: Result<StoredChannel, any Error>
            do {
                result = .success(
                    try await ChannelKeeper.channel(
                        gameId: game, environment: environment, app: app.name, client: clients.channels(environment),
                        registeredAt: registeredAt, database: connection))
            } catch {
                result = .failure(error)
            }
            await connection.close()
            await clients.shutdown()
            let channel: StoredChannel
            switch result {
            case .success(let stored): channel = stored
            case .failure(let error as ChannelError): throw CLIError(error.description)
            case .failure(let error): throw error
            }
            if json {
                let object: [String: Any] = [
                    "gameId": channel.gameId, "environment": channel.environment.rawValue,
                    "channelId": channel.channelId, "storagePolicy": channel.storagePolicy,
                    "createdAt": rfc3339(channel.createdAt), "app": channel.app,
                ]
                let data = try JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                Output.line(String(decoding: data, as: UTF8.self))
            } else {
                Output.line(channel.channelId)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the channels: id, game, created, deleted.")

        @Flag(help: "Print one JSON array.")
        var json = false

        @OptionGroup var app: AppFilter

        func run() async throws {
            let app = self.app.name
            let connection = try await Runtime.openDatabase()
            let channels = try await connection.withSession { try Channels.list(app: app, in: $0) }
            await connection.close()
            if json {
                let objects: [[String: Any]] = channels.map { channel in
                    [
                        "gameId": channel.gameId, "environment": channel.environment.rawValue,
                        "channelId": channel.channelId, "createdAt": rfc3339(channel.createdAt),
                        "deletedAt": channel.deletedAt.map { rfc3339($0) as Any } ?? NSNull(),
                        "deletedReason": channel.deletedReason as Any? ?? NSNull(), "app": channel.app,
                    ]
                }
                let data = try JSONSerialization.data(
                    withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])
                Output.line(String(decoding: data, as: UTF8.self))
                return
            }
            guard !channels.isEmpty else {
                Output.line("no channels")
                return
            }
            let rows = channels.map { channel in
                [
                    channel.channelId, channel.gameId, channel.environment.rawValue, channel.app,
                    rfc3339(channel.createdAt),
                    channel.deletedAt.map { "\(rfc3339($0)) (\(channel.deletedReason ?? ""))" } ?? "",
                ]
            }
            Output.write(Table.render(header: ["CHANNEL", "GAME", "ENV", "APP", "CREATED", "DELETED"], rows: rows))
        }
    }
}
