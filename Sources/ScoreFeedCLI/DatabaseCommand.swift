import ArgumentParser
import Foundation
import LocalPostgres
import ScoreStore

/// `scorefeed db start|stop|status|url`: the embedded cluster in `SCOREFEED_HOME`.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Manage the embedded PostgreSQL cluster in SCOREFEED_HOME (default ~/.local/share/scorefeed).",
        subcommands: [Start.self, Stop.self, Status.self, URLCommand.self]
    )

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the cluster if needed and start it (unix socket only unless --tcp-port).")

        @Option(help: "Also listen on 127.0.0.1 at this TCP port.")
        var tcpPort: Int?

        func validate() throws {
            if let tcpPort, !(1...65535).contains(tcpPort) {
                throw ValidationError("--tcp-port must be between 1 and 65535")
            }
        }

        func run() async throws {
            let cluster = LocalCluster.fromEnvironment()
            let started = try await cluster.start(tcpPort: tcpPort, logger: Runtime.logger)
            Output.line(
                started
                    ? "started PostgreSQL in \(cluster.home.path)"
                    : "PostgreSQL already running in \(cluster.home.path)")
            Output.line(cluster.url())
        }
    }

    struct Stop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop the cluster (fast shutdown).")

        func run() async throws {
            let cluster = LocalCluster.fromEnvironment()
            Output.line(
                try await cluster.stop() ? "stopped PostgreSQL in \(cluster.home.path)" : "PostgreSQL is not running")
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say whether the cluster runs (exit 0) or not (exit 3).")

        func run() async throws {
            let cluster = LocalCluster.fromEnvironment()
            switch try await cluster.status() {
            case .running(let pid, let port):
                Output.line("running in \(cluster.home.path) (pid \(pid), port \(port))")
            case .stopped:
                Output.line("stopped (\(cluster.home.path))")
                throw ExitCode(3)
            case .notInitialized:
                Output.line("not initialized (\(cluster.home.path)); `scorefeed db start` creates it")
                throw ExitCode(3)
            }
        }
    }

    struct URLCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "url",
            abstract: "Print the database URL commands use: SCOREFEED_DATABASE_URL, else the embedded cluster's.")

        func run() throws {
            if let url = Runtime.environment["SCOREFEED_DATABASE_URL"], !url.isEmpty {
                Output.line(url)
            } else {
                Output.line(LocalCluster.fromEnvironment().url())
            }
        }
    }
}

/// `scorefeed migrate`: apply pending schema migrations.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply the schema/NNNN_name.sql migrations not yet applied.")

    func run() async throws {
        let connection = try await Runtime.openDatabase()
        let versions = try await connection.query("SELECT version, name FROM schema_migrations ORDER BY version")
        for row in versions.rows {
            let version = try row.int("version")
            Output.line("applied \(String(format: "%04d", version))_\(try row.string("name")).sql")
        }
        await connection.close()
    }
}
