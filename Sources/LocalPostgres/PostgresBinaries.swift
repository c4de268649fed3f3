import Foundation

/// Where the PostgreSQL server programs are: `SCOREFEED_PG_BIN`, Debian's newest
/// `/usr/lib/postgresql/N/bin`, or the `PATH`.
struct PostgresBinaries: Sendable {
    var initdb: String
    var pgCtl: String
    /// `pg_basebackup`, beside the others (copies a running server into a hot standby).
    var pgBasebackup: String { (pgCtl as NSString).deletingLastPathComponent + "/pg_basebackup" }

    static func locate(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> PostgresBinaries
    {
        var candidates: [String] = []
        if let dir = environment["SCOREFEED_PG_BIN"], !dir.isEmpty { candidates.append(dir) }
        let debian = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: debian)) ?? [])
            .compactMap { Int($0) }.sorted(by: >)
        candidates += versions.map { "\(debian)/\($0)/bin" }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for dir in candidates {
            let initdb = "\(dir)/initdb"
            let pgCtl = "\(dir)/pg_ctl"
            if FileManager.default.isExecutableFile(atPath: initdb), FileManager.default.isExecutableFile(atPath: pgCtl)
            {
                return PostgresBinaries(initdb: initdb, pgCtl: pgCtl)
            }
        }
        throw LocalClusterError(
            message: "PostgreSQL server programs (initdb, pg_ctl) not found; install them with "
                + "`apt-get install postgresql` (scripts/demo does), set SCOREFEED_PG_BIN, "
                + "or point SCOREFEED_DATABASE_URL at an existing server")
    }
}
