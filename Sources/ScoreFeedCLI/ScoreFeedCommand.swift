import ArgumentParser
import Logging
import ScoreStore

/// `scorefeed`: the root command. The executable's `main` only calls ``main()``.
public struct ScoreFeedCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scorefeed",
        abstract: "Live sports scores to iPhone Live Activities, event-sourced on PostgreSQL.",
        discussion: """
            Every command that needs the database uses SCOREFEED_DATABASE_URL when it is set, and \
            otherwise starts the embedded cluster in SCOREFEED_HOME on demand (default: \
            ~/.local/share/scorefeed, or /var/lib/scorefeed for root; see docs/configuration.md). \
            Every such command applies the schema migrations built into the binary first.

            --json: a command that lists things (games, pushes, activity list) prints one JSON \
            array; a command that shows one thing (game) prints one JSON object.
            """,
        version: ScoreFeedVersion.current,
        subcommands: [
            DatabaseCommand.self, MigrateCommand.self, ReplayCommand.self, GamesCommand.self,
            GameCommand.self, PushesCommand.self, RebuildCommand.self, ActivityCommand.self,
            DeliverCommand.self, ApnsSandboxCommand.self, ServeCommand.self, FollowCommand.self, ChannelCommand.self,
            DeviceCommand.self, FollowerCommand.self, FcmSandboxCommand.self, AppCommand.self, ConvertCommand.self,
        ]
    )

    public init() {}

    /// Parses the process arguments, runs the chosen command and exits with its status.
    public static func runMain() async { await runRoot(Self.self) }

    /// Parses the arguments as `root` and runs the command, logging to stderr (also the root of
    /// `scorefeed-bench`).
    package static func runRoot(_ root: any ParsableCommand.Type) async {
        do {
            try bootstrapLogging()
            var command = try root.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            root.exit(withError: error)
        }
    }

    /// Sets up logging on stderr (level from `SCOREFEED_LOG_LEVEL`, default `info`).
    /// - Throws: `ValidationError` naming the levels when `SCOREFEED_LOG_LEVEL` is none of them.
    static func bootstrapLogging() throws {
        let level = try logLevel(Runtime.environment["SCOREFEED_LOG_LEVEL"])
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// The level `text` names (`trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`, in
    /// any case); `info` when unset or empty. A misspelt level is refused, never read as `info`.
    static func logLevel(_ text: String?) throws -> Logger.Level {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .info }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("SCOREFEED_LOG_LEVEL must be one of \(levels), not \"\(text.prefix(40))\"")
        }
        return level
    }
}
