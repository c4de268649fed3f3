import ArgumentParser
import ScoreStore

/// `--app NAME`: the app a registration made from the command line belongs to, as if its key had
/// made it (default: `default`, the app of bare keys in SCOREFEED_APP_KEYS).
struct AppOption: ParsableArguments {
    @Option(name: .customLong("app"), help: "The app it belongs to (default: default, the app of bare keys).")
    var name = AppName.default

    func validate() throws {
        guard AppName.isValid(name) else { throw ValidationError("--app must be \(AppName.rule)") }
    }
}

/// `--app NAME` of a command that looks registrations up: only that app's (default: every app's).
struct AppFilter: ParsableArguments {
    @Option(name: .customLong("app"), help: "Only this app's (default: every app's).")
    var name: String?

    func validate() throws {
        if let name, !AppName.isValid(name) { throw ValidationError("--app must be \(AppName.rule)") }
    }
}
