import ChildProcess
import Foundation
import Logging
import PostgresClient

/// Errors of the embedded cluster, each with the step that failed and what to do about it.
public struct LocalClusterError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A private PostgreSQL cluster in one folder (``fromEnvironment(_:)`` says which).
///
/// The data lives in `<home>/pg`, the server listens only on a unix socket inside `<home>` (no TCP
/// unless asked), and when this process runs as root the server runs as the `postgres` user, since
/// PostgreSQL refuses to run as root.
public struct LocalCluster: Sendable {
    /// The folder holding the cluster, its socket and its log.
    public let home: URL
    /// The database the service uses inside the cluster.
    public let database = "scorefeed"
    /// The port named in the socket file (and used for TCP when asked).
    public static let defaultPort = 5432

    /// Creates a handle on the cluster in `home` (nothing is started).
    public init(home: URL) {
        self.home = home.standardizedFileURL
    }

    /// The cluster in `SCOREFEED_HOME`; else, for root, `/var/lib/scorefeed` (the server runs as
    /// the `postgres` user, which cannot enter root's home); else `$XDG_DATA_HOME/scorefeed`, by
    /// default `~/.local/share/scorefeed`. Never the current folder: a command run from another
    /// folder finds the same database instead of creating an empty one.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment, isRoot: Bool = geteuid() == 0
    ) -> LocalCluster {
        LocalCluster(home: URL(fileURLWithPath: defaultHome(environment, isRoot: isRoot)))
    }

    /// The folder of ``fromEnvironment(_:isRoot:)``.
    public static func defaultHome(_ environment: [String: String], isRoot: Bool) -> String {
        if let home = environment["SCOREFEED_HOME"], !home.isEmpty { return home }
        if isRoot { return "/var/lib/scorefeed" }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/scorefeed" }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return user + "/.local/share/scorefeed"
    }

    var dataDirectory: URL { home.appendingPathComponent("pg") }
    var logFile: URL { home.appendingPathComponent("postgres.log") }
    private var runsAsRoot: Bool { geteuid() == 0 }

    /// What the cluster is doing right now.
    public enum Status: Sendable, Equatable {
        case notInitialized
        case stopped
        case running(pid: Int, port: Int)
    }

    /// Reads the cluster's state from its data folder and `pg_ctl status`.
    public func status() async throws -> Status {
        guard FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) else {
            return .notInitialized
        }
        let binaries = try PostgresBinaries.locate()
        let result = try await run(binaries.pgCtl, ["status", "-D", dataDirectory.path], asPostgres: runsAsRoot)
        guard result.status == 0, let pid = postmasterLine(0).flatMap({ Int($0) }) else { return .stopped }
        return .running(pid: pid, port: postmasterLine(3).flatMap { Int($0) } ?? Self.defaultPort)
    }

    /// The connection URL of the service database (the port of the running server, or the default).
    public func url() -> String {
        let port = postmasterLine(3).flatMap { Int($0) } ?? Self.defaultPort
        return "postgresql://postgres@/\(database)?host=\(Self.escape(home.path))&port=\(port)"
    }

    /// Starts the cluster if it is not running, creating it first if needed, and makes sure the
    /// service database exists. Returns `true` when it had to start the server.
    ///
    /// - Parameter tcpPort: also listen on 127.0.0.1 at this port (no TCP when `nil`).
    @discardableResult
    public func start(tcpPort: Int? = nil, logger: Logger) async throws -> Bool {
        if case .running = try await status() {
            try await createDatabaseIfNeeded()
            return false
        }
        try await prepareHome()
        let binaries = try PostgresBinaries.locate()
        if try await status() == .notInitialized {
            try await initialize(binaries, logger: logger)
        }
        logger.info("starting embedded PostgreSQL", metadata: ["db.home": "\(home.path)"])
        try await startServer(binaries, tcpPort: tcpPort, what: "PostgreSQL")
        try await createDatabaseIfNeeded()
        return true
    }

    /// Makes this (new, empty) cluster a streaming hot standby of `primary` and starts it: a base
    /// backup of the running primary (`pg_basebackup -R`, so it follows the primary's WAL and answers
    /// read-only queries), its own socket in ``home``.
    /// - Parameters:
    ///   - primaryHost: the primary's host or unix socket folder; `primaryPort` its port.
    /// - Throws: ``LocalClusterError`` naming the step that failed (the primary must allow replication
    ///   connections: the embedded cluster does).
    public func startStandby(primaryHost: String, primaryPort: Int, logger: Logger) async throws {
        guard try await status() == .notInitialized else {
            throw LocalClusterError(
                message: "\(home.path) already holds a cluster; a standby starts from an empty folder")
        }
        try await prepareHome()
        let binaries = try PostgresBinaries.locate()
        logger.info("copying the primary into a hot standby", metadata: ["db.home": "\(home.path)"])
        let backup = try await run(
            binaries.pgBasebackup,
            [
                "-h", primaryHost, "-p", String(primaryPort), "-U", "postgres", "-D", dataDirectory.path, "-R",
                "-X", "stream", "-c", "fast",
            ],
            asPostgres: runsAsRoot)
        guard backup.status == 0 else {
            throw LocalClusterError(
                message: "pg_basebackup from \(primaryHost):\(primaryPort) failed: \(backup.stdout.trimmed)")
        }
        // The copied configuration names the primary's socket folder: this one listens in its own.
        try appendSettings("hot standby", "unix_socket_directories = '\(quotedHome)'")
        try await startServer(binaries, tcpPort: nil, what: "the standby")
    }

    /// Stops the server (fast shutdown). Returns `false` when it was not running.
    /// - Parameter immediately: stop as a crash does (`-m immediate`: no checkpoint, clients cut off).
    @discardableResult
    public func stop(immediately: Bool = false) async throws -> Bool {
        guard case .running = try await status() else { return false }
        let binaries = try PostgresBinaries.locate()
        let result = try await run(
            binaries.pgCtl, ["stop", "-w", "-m", immediately ? "immediate" : "fast", "-D", dataDirectory.path],
            asPostgres: runsAsRoot)
        guard result.status == 0 else {
            throw LocalClusterError(message: "could not stop PostgreSQL: \(result.stdout.trimmed)")
        }
        return true
    }

    /// Promotes this hot standby to a primary (`pg_ctl promote`): it stops following and accepts writes.
    public func promote() async throws {
        let binaries = try PostgresBinaries.locate()
        let result = try await run(
            binaries.pgCtl, ["promote", "-w", "-t", "60", "-D", dataDirectory.path], asPostgres: runsAsRoot)
        guard result.status == 0 else {
            throw LocalClusterError(message: "could not promote the standby: \(result.stdout.trimmed)")
        }
    }

    private func prepareHome() async throws {
        // The socket lives in `home`: keep its path inside the 107-byte unix socket limit.
        let socketPath = home.appendingPathComponent(".s.PGSQL.65535").path
        guard socketPath.utf8.count < 100 else {
            throw LocalClusterError(
                message: "the folder \(home.path) is too deep for a unix socket path; "
                    + "set SCOREFEED_HOME to a shorter folder")
        }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        guard runsAsRoot else {
            chmod(home.path, 0o700)
            return
        }
        // As root the server runs as `postgres`, which must own the folder and reach it.
        let chown = try await run("/bin/chown", ["-R", "postgres:postgres", home.path], asPostgres: false)
        guard chown.status == 0 else {
            throw LocalClusterError(
                message: "could not give \(home.path) to the postgres user: \(chown.stdout.trimmed)")
        }
        chmod(home.path, 0o700)
        let reach = try await run("/usr/bin/test", ["-w", home.path], asPostgres: true)
        guard reach.status == 0 else {
            throw LocalClusterError(
                message: "the postgres user cannot reach \(home.path): make its parent folders traversable "
                    + "(chmod o+x) or set SCOREFEED_HOME to a folder it can reach, such as /tmp/scorefeed")
        }
    }

    private func initialize(_ binaries: PostgresBinaries, logger: Logger) async throws {
        logger.info("creating embedded PostgreSQL cluster", metadata: ["db.data": "\(dataDirectory.path)"])
        let result = try await run(
            binaries.initdb,
            [
                "-D", dataDirectory.path, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale",
                "--no-instructions",
            ],
            asPostgres: runsAsRoot)
        guard result.status == 0 else {
            throw LocalClusterError(message: "initdb failed in \(dataDirectory.path): \(result.stdout.trimmed)")
        }
        try appendSettings(
            "private cluster, unix socket only unless started with TCP",
            "unix_socket_directories = '\(quotedHome)'\nlisten_addresses = ''")
    }

    /// The home folder as a quoted string literal of `postgresql.conf`.
    private var quotedHome: String { home.path.replacingOccurrences(of: "'", with: "''") }

    /// Appends `settings` (lines) to `postgresql.conf` under a `# scorefeed: <why>` comment.
    private func appendSettings(_ why: String, _ settings: String) throws {
        let handle = try FileHandle(forWritingTo: dataDirectory.appendingPathComponent("postgresql.conf"))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n# scorefeed: \(why)\n\(settings)\n".utf8))
    }

    /// `pg_ctl start`, waiting until it accepts connections: on its socket only, or also on
    /// 127.0.0.1:`tcpPort` (then the socket's port too).
    private func startServer(_ binaries: PostgresBinaries, tcpPort: Int?, what: String) async throws {
        // Room for a test suite's parallel connections and a server's pools.
        let listen = tcpPort == nil ? "''" : "127.0.0.1"
        let options = "-c max_connections=300 -c listen_addresses=\(listen) -p \(tcpPort ?? Self.defaultPort)"
        let result = try await run(
            binaries.pgCtl, ["start", "-w", "-t", "60", "-D", dataDirectory.path, "-l", logFile.path, "-o", options],
            asPostgres: runsAsRoot)
        guard result.status == 0 else {
            throw LocalClusterError(
                message: "could not start \(what) in \(dataDirectory.path): \(result.stdout.trimmed)\n"
                    + "server log \(logFile.path):\n\(tail(of: logFile))")
        }
    }

    private func createDatabaseIfNeeded() async throws {
        let adminURL = url().replacingOccurrences(of: "@/\(database)?", with: "@/postgres?")
        let connection = try await PostgresConnection.connect(adminURL)
        let exists = try await connection.query("SELECT 1 FROM pg_database WHERE datname = $1", [database])
        if exists.count == 0 {
            do {
                try await connection.execute(script: "CREATE DATABASE \(database)")
            } catch let error as PostgresError where error.sqlState == "42P04" {
                // Created concurrently by another command: fine.
            }
        }
        await connection.close()  // on an error path, deinit closes it
    }

    /// Line `index` (0-based) of `postmaster.pid`: 0 = pid, 3 = port.
    private func postmasterLine(_ index: Int) -> String? {
        let file = dataDirectory.appendingPathComponent("postmaster.pid")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard index < lines.count else { return nil }
        return lines[index].trimmingCharacters(in: .whitespaces)
    }

    private func tail(of file: URL) -> String {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return "(no log)" }
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    /// Runs a program, as the `postgres` user when `asPostgres` is set, with stdout and stderr merged.
    private func run(_ executable: String, _ arguments: [String], asPostgres: Bool) async throws -> ChildProcess.Output
    {
        let argv =
            asPostgres
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments
            : [executable] + arguments
        return try await ChildProcess.run(argv, mergeOutput: true)
    }

    static func escape(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/-._~")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
