import APNs
import ArgumentParser
import ScoreFeedCLI

/// `scorefeed-bench jwt --env-file DIR/env`: prints a provider token (JWT) for the key an env file
/// names, so a C client (`h2load`) can send the same authenticated pushes as ScoreFeed's client.
struct JwtBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jwt",
        abstract: "Print an APNs provider token (JWT) for the key of an env file (valid for an hour)."
    )

    @Option(help: "An env file with SCOREFEED_APNS_* lines (e.g. apns-sandbox's DIR/env).")
    var envFile: String

    func run() async throws {
        let configuration = try envFileConfiguration(envFile)
        print(try APNsTokenProvider(configuration: configuration).token())
    }
}
