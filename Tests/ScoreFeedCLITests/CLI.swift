import ChildProcess
import Foundation
import ScoreFeedTesting

/// Runs the built `scorefeed` binary as a user would, capturing its output and exit code.
struct CLI {
    /// The `scorefeed` executable next to the test bundle (scripts/test builds both).
    static var executable: URL {
        get throws { try scorefeedExecutable() }
    }

    var environment: [String: String]

    /// A CLI whose database is `url` (a schema of the test server).
    init(databaseURL: String?, home: String? = nil) {
        var env = ProcessInfo.processInfo.environment
        env["SCOREFEED_DATABASE_URL"] = databaseURL
        if let home { env["SCOREFEED_HOME"] = home }
        env["SCOREFEED_LOG_LEVEL"] = "warning"
        environment = env
    }

    func run(_ arguments: String...) async throws -> ChildProcess.Output { try await run(arguments) }

    func run(_ arguments: [String]) async throws -> ChildProcess.Output {
        try await ChildProcess.run([try Self.executable.path] + arguments, environment: environment)
    }

    /// Runs `scorefeed-bench ARGUMENTS` (the benchmarks are an executable of their own).
    func bench(_ arguments: String...) async throws -> ChildProcess.Output {
        try await ChildProcess.run(
            [try scorefeedExecutable("scorefeed-bench").path] + arguments, environment: environment)
    }
}
