import ArgumentParser
import ScoreStore

/// `scorefeed app rename OLD NEW`: the apps registrations belong to (SCOREFEED_APP_KEYS).
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "The apps registrations belong to (the APP of SCOREFEED_APP_KEYS=APP:KEY).",
        subcommands: [Rename.self]
    )

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Give everything app OLD registered (activities, followers, devices, channels) to app NEW, "
                + "in one transaction: e.g. `app rename default ios` after a bare KEY became ios:KEY."
        )

        @Argument(help: "The app that owns the registrations now (e.g. default, the app of bare keys).")
        var old: String

        @Argument(help: "The app they are to belong to.")
        var new: String

        @Flag(help: "Also when NEW already owns registrations: NEW gets OLD's as well.")
        var merge = false

        func run() async throws {
            let connection = try await Runtime.openDatabase()
            let result: Result<AppName.Renamed, any Error>
            do {
                result = .success(
                    try await connection.transaction { [old, new, merge] in
                        try AppName.rename(old, to: new, merge: merge, in: $0)
                    })
            } catch {
                result = .failure(error)
            }
            await connection.close()
            switch result {
            case .success(let moved):
                Output.line(
                    "app \"\(old)\" renamed \"\(new)\": \(moved.activities) activities and followers, "
                        + "\(moved.devices) devices, \(moved.channels) channels")
            case .failure(let error as AppRenameError): throw CLIError(error.description)
            case .failure(let error): throw error
            }
        }
    }
}
