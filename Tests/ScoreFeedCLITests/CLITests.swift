import ChildProcess
import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("the scorefeed command line")
struct CLITests {
    @Test("replay prints the golden pushes of an activity registered before the game; a second replay none")
    func replay() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let first = try await cli.run("replay", fixture("extra-innings-walkoff.jsonl"))
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stdout == (try audienceGolden("extra-innings-walkoff")))
            #expect(first.stderr.contains("accepted"))
            let second = try await cli.run("replay", fixture("extra-innings-walkoff.jsonl"))
            #expect(second.status == 0)
            #expect(second.stdout.isEmpty)
            #expect(second.stderr.contains("0 accepted"))
        }
    }

    @Test("replay --out writes the pushes to a file instead of stdout")
    func replayOut() async throws {
        try await TestDatabase.withSchema { url in
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString).jsonl")
                .path
            let run = try await CLI(databaseURL: url).run("replay", "--out", out, fixture("plain-nine.jsonl"))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(
                try String(contentsOfFile: out, encoding: .utf8) == audienceGolden("plain-nine"))
        }
    }

    @Test("a bad line exits non-zero naming the file and line, and stores nothing")
    func badLine() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).jsonl").path
        let first = try String(contentsOfFile: fixture("plain-nine.jsonl"), encoding: .utf8).split(separator: "\n")[0]
        try "\(first)\n{\"id\":\"b\",\"gameId\":\"x\",\"at\":\"nope\",\"type\":\"game.started\"}\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let run = try await cli.run("replay", path)
            #expect(run.status != 0)
            #expect(run.stderr.contains("\(path):2:"))
            #expect(run.stderr.contains("at"))
            let games = try await cli.run("games", "--json")
            #expect(games.stdout == "[]\n")
        }
    }

    @Test("game and games print the projection, as text and as JSON with the documented keys")
    func games() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let replay = try await cli.run("replay", "--out", "/dev/null", fixture("plain-nine.jsonl"))
            #expect(replay.status == 0, "\(replay.stderr)")
            let one = try await cli.run("game", "2026-04-01-NYY-BOS", "--json")
            #expect(one.status == 0, "\(one.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as! [String: Any]
            for key in [
                "gameId", "home", "away", "homeScore", "awayScore", "inning", "inningNumber", "half", "outs",
                "status", "version", "updatedAt",
            ] {
                #expect(object[key] != nil, "missing \(key)")
            }
            #expect(object["status"] as? String == "closed")
            let all = try await cli.run("games", "--json")
            let array = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as! [[String: Any]]
            #expect(array.count == 1)
            let text = try await cli.run("games")
            #expect(text.stdout.contains("2026-04-01-NYY-BOS"))
            #expect(text.stdout.contains("closed"))
            // No activity was registered: nothing was planned for this game.
            let pushes = try await cli.run("pushes", "2026-04-01-NYY-BOS", "--json")
            #expect(pushes.status == 0, "\(pushes.stderr)")
            #expect(pushes.stdout == "[]\n")
        }
    }

    @Test(
        "bad arguments are clear errors with a non-zero exit",
        arguments: [
            (["game", "no-such-game"], "no game \"no-such-game\""),
            (["pushes", "no-such-game"], "no game \"no-such-game\""),
            (["games", "--status", "finished"], "unknown status"),
            (["replay", "--speed", "0", "x.jsonl"], "--speed must be a positive number"),
            (["replay", "--speed", "-1", "x.jsonl"], "--speed must be a positive number"),
            (["replay", "/no/such/file.jsonl"], "/no/such/file.jsonl: no such file or folder"),
            (["replay", "--format", "mlb", "x"], "--format"),
        ])
    func badArguments(_ arguments: [String], _ expected: String) async throws {
        try await TestDatabase.withSchema { url in
            let run = try await CLI(databaseURL: url).run(arguments)
            #expect(run.status != 0)
            #expect(run.stderr.contains(expected), "\(run.stderr)")
        }
    }

    @Test("--version prints the version; a busy port is named as such by serve and apns-sandbox")
    func versionAndBusyPort() async throws {
        let version = try await CLI(databaseURL: "postgresql://unused").run("--version")
        #expect(version.status == 0)
        #expect(
            version.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(version.stdout)")
        // Hold a port, then ask both servers for it.
        let socket = try BusyPort()
        defer { socket.close() }
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let serve = try await cli.run("serve", "--port", "\(socket.port)")
            #expect(serve.status == 1)
            #expect(serve.stderr.contains("port \(socket.port) is already in use"), "\(serve.stderr)")
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID().uuidString)").path
            let sandbox = try await cli.run("apns-sandbox", "--port", "\(socket.port)", "--dir", dir)
            #expect(sandbox.status == 1)
            #expect(sandbox.stderr.contains("port \(socket.port) is already in use"), "\(sandbox.stderr)")
        }
    }

    @Test("serve stops at once when its port is taken while it is still migrating the database")
    func busyPortWhileMigrating() async throws {
        let socket = try BusyPort()
        defer { socket.close() }
        try await TestDatabase.withSchema { url in
            // Another migrator of the same schema holds the lock: serve's migration waits on it.
            let holder = try await PostgresConnection.connect(url)
            try await holder.execute(script: "BEGIN")
            try await holder.query(
                "SELECT pg_advisory_xact_lock(hashtextextended('scorefeed-migrations.' || current_schema(), 0))")
            let serve = try await CLI(databaseURL: url).run("serve", "--port", "\(socket.port)")
            try await holder.execute(script: "ROLLBACK")
            await holder.close()
            // Not 132 (the service group's fatal error when a service outlives its cancellation).
            #expect(serve.status == 1, "\(serve.stderr)")
            #expect(serve.stderr.contains("port \(socket.port) is already in use"), "\(serve.stderr)")
        }
    }

    @Test("a child process inherits only standard input, output and error, not the parent's other descriptors")
    func childDescriptors() async throws {
        let held = open("/dev/null", O_RDONLY)  // not close-on-exec, as NIO's accepted sockets are not
        defer { close(held) }
        #expect(held > 2)
        let listing = try await ChildProcess.run(["/bin/ls", "/proc/self/fd"])
        let descriptors = listing.stdout.split(separator: "\n").compactMap { Int32($0) }
        #expect(descriptors.contains(2) && !descriptors.contains(held), "\(descriptors)")
    }

    @Test("SCOREFEED_LOG_LEVEL: trace and any case are levels; a misspelt level is refused, not read as info")
    func logLevels() async throws {
        var cli = CLI(databaseURL: "postgresql://unused")
        for (level, status) in [("trace", 0), ("Debug", 0), ("verbose", 64), ("warn", 64)] {
            cli.environment["SCOREFEED_LOG_LEVEL"] = level
            let run = try await cli.run("--version")
            #expect(run.status == Int32(status), "\(level): \(run.stderr)")
            if status != 0 {
                #expect(run.stderr.contains("SCOREFEED_LOG_LEVEL must be one of trace, debug, info"), "\(run.stderr)")
                #expect(run.stdout.isEmpty)
            }
        }
    }

    @Test("a copied binary migrates a database from any folder; the embedded cluster's place does not depend on it")
    func runsAnywhere() async throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-\(UUID().uuidString)").path
        // Copied by another process: a child that another test forks while this process wrote the copy
        // would inherit the open file, and running the copy would then fail with "Text file busy" (126).
        let copied = try await ChildProcess.run(["/bin/cp", try CLI.executable.path, copy])
        try #require(copied.status == 0, "\(copied.stderr)")
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let migrate = try await ChildProcess.run(
                ["/bin/sh", "-c", #"cd / && exec "$0" migrate"#, copy], environment: cli.environment)
            #expect(migrate.status == 0, "\(migrate.stderr)")
            let games = try await ChildProcess.run(
                ["/bin/sh", "-c", #"cd / && exec "$0" games --json"#, copy], environment: cli.environment)
            #expect(games.stdout == "[]\n", "\(games.stderr)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["SCOREFEED_DATABASE_URL"] = nil
        environment["SCOREFEED_HOME"] = nil
        var urls: [String] = []
        for folder in ["/", FileManager.default.temporaryDirectory.path] {
            let run = try await ChildProcess.run(
                ["/bin/sh", "-c", #"cd "$1" && exec "$0" db url"#, copy, folder], environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            urls.append(run.stdout)
        }
        #expect(urls[0] == urls[1])
        #expect(urls[0].contains("/scorefeed&") || urls[0].contains("%2Fscorefeed&"), "\(urls[0])")
    }

    @Test("rebuild folds the log into the same projection")
    func rebuild() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            _ = try await cli.run("replay", "--out", "/dev/null", fixture("plain-nine.jsonl"))
            let before = try await cli.run("games", "--json")
            let run = try await cli.run("rebuild")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("rebuilt score_states: 1 game(s) from 76 event(s)"))
            let after = try await cli.run("games", "--json")
            #expect(after.stdout == before.stdout)
        }
    }

    @Test("the benchmarks print the documented JSON fields")
    func benchmarks() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let append = try await cli.bench("append", "--json", "--plan", "1:5,10:30")
            #expect(append.status == 0, "\(append.stderr)")
            let rows = try JSONSerialization.jsonObject(with: Data(append.stdout.utf8)) as! [[String: Any]]
            #expect(rows.map { $0["batch"] as? Int } == [1, 10])
            for row in rows {
                for key in ["events", "eventsPerSecond", "p50Ms", "p99Ms", "referenceEventsPerSecond", "ratio"] {
                    #expect(row[key] != nil, "missing \(key)")
                }
            }
            let fold = try await cli.bench(
                "fold", "--json", "--events", "1000", "--files", fixture("plain-nine.jsonl"))
            #expect(fold.status == 0, "\(fold.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(fold.stdout.utf8)) as! [String: Any]
            #expect((object["events"] as? Int ?? 0) >= 1000)
            #expect(object["eventsPerSecond"] != nil)
            let ingest = try await cli.bench("ingest", "--json", "--writers", "3", "--messages", "20")
            #expect(ingest.status == 0, "\(ingest.stderr)")
            let row = try JSONSerialization.jsonObject(with: Data(ingest.stdout.utf8)) as! [String: Any]
            for key in [
                "eventsPerSecond", "p99Ms", "transactions", "referenceEventsPerSecond", "ratio", "oneWriterP99Ms",
            ] {
                #expect(row[key] != nil, "missing \(key)")
            }
            #expect((row["transactions"] as? Int ?? 0) <= 60)
        }
    }

    @Test("db url prints SCOREFEED_DATABASE_URL when it is set")
    func databaseURL() async throws {
        let run = try await CLI(databaseURL: "postgresql://example@db.invalid/scorefeed").run("db", "url")
        #expect(run.stdout == "postgresql://example@db.invalid/scorefeed\n")
    }

    @Test("the embedded cluster: created and started on demand, socket only, status, url, stop")
    func embeddedCluster() async throws {
        let home = "/tmp/sf-\(UUID().uuidString.prefix(8))"
        let cli = CLI(databaseURL: nil, home: home)
        do {
            try await checkEmbeddedCluster(cli, home: home)
        } catch {
            _ = try? await cli.run("db", "stop")
            try? FileManager.default.removeItem(atPath: home)
            throw error
        }
        _ = try? await cli.run("db", "stop")
        try? FileManager.default.removeItem(atPath: home)
    }

    private func checkEmbeddedCluster(_ cli: CLI, home: String) async throws {
        let before = try await cli.run("db", "status")
        #expect(before.status == 3)
        // A command that needs the database starts the cluster by itself.
        let games = try await cli.run("games")
        #expect(games.status == 0, "\(games.stderr)")
        #expect(games.stdout.contains("no games yet"))
        #expect(FileManager.default.fileExists(atPath: "\(home)/pg/PG_VERSION"))
        #expect(FileManager.default.fileExists(atPath: "\(home)/.s.PGSQL.5432"))
        let status = try await cli.run("db", "status")
        #expect(status.status == 0)
        #expect(status.stdout.hasPrefix("running in \(home)"))
        let url = try await cli.run("db", "url")
        #expect(url.stdout == "postgresql://postgres@/scorefeed?host=\(home)&port=5432\n")
        let start = try await cli.run("db", "start")
        #expect(start.stdout.hasPrefix("PostgreSQL already running"))
        // No TCP unless asked: the server listens on no address (line 6 of postmaster.pid is empty).
        let conf = try String(contentsOfFile: "\(home)/pg/postgresql.conf", encoding: .utf8)
        #expect(conf.contains("listen_addresses = ''"))
        let pid = try String(contentsOfFile: "\(home)/pg/postmaster.pid", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        #expect(pid.count > 5 && pid[5].trimmingCharacters(in: .whitespaces).isEmpty)
        let stop = try await cli.run("db", "stop")
        #expect(stop.stdout.hasPrefix("stopped PostgreSQL"))
        let after = try await cli.run("db", "status")
        #expect(after.status == 3)
    }
}

/// A TCP port held open on 127.0.0.1 for the life of the value.
struct BusyPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 1) == 0 else { throw TestDatabaseError("cannot hold a port") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
