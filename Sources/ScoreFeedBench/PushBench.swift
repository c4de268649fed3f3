import APNs
import APNsSandbox
import ArgumentParser
import Foundation
import PostgresClient
import PushDelivery
import ScoreDomain
import ScoreFeedCLI
import ScoreStore

/// `scorefeed bench push --json`: one run for many activities of one game, to the local APNs server.
struct PushBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Register N activities on one game, score one run, and deliver the N pushes to a local APNs server.",
        discussion: """
            Runs in a throw-away schema of the configured database with an in-process APNs-compatible \
            server over HTTP/2 + TLS. Measures from the append of the run to each push's acceptance.
            """
    )

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Number of activities on the game.")
    var activities = 10_000

    func validate() throws {
        guard activities > 0 else { throw ValidationError("--activities must be positive") }
    }

    func run() async throws {
        try printJSON(try await withBenchSchema { try await measure(url: $0) })
    }

    private func measure(url: String) async throws -> [String: Any] {
        let connection = try await PostgresConnection.connect(url)
        try await Migrator().migrate(connection, logger: Runtime.logger)
        let count = activities
        let numbers = try await withBenchAPNs { client, sandbox -> [String: Double] in
            guard let sandbox else { throw CLIError("bench push needs the local APNs server") }
            let ingestor = Ingestor(connection: connection)
            let projector = Projector(clock: .wall({ Date() }))
            let now = Date()
            let team = { (code: String) in Team(code: code, name: code, logo: "") }
            _ = try await ingestor.ingest([
                FeedMessage(
                    id: "bench-1", gameId: "bench", at: now.addingTimeInterval(-120),
                    event: .gameScheduled(home: team("HOM"), away: team("AWY"), startsAt: now.addingTimeInterval(-60))),
                FeedMessage(id: "bench-2", gameId: "bench", at: now.addingTimeInterval(-60), event: .gameStarted),
            ])
            try await projector.catchUp(connection)
            let tokens = (0..<count).map { String(format: "%064x", $0 + 1) }
            _ = try await connection.withSession { session in
                try Activities.registerMany(
                    gameId: "bench", tokens: tokens, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: now.addingTimeInterval(-30), in: session)
            }
            let worker = DeliveryWorker(connection: connection, client: { _ in client }, logger: Runtime.logger)

            let backend = try await connection.withSession {
                try $0.query("SELECT pg_backend_pid() AS pid")[0].int("pid")
            }
            let (cpuBefore, backendBefore) = (processCPUSeconds(), localBackendCPUSeconds(pid: backend))
            let appendedAt = Date()
            let began = ContinuousClock.now
            _ = try await ingestor.ingest(
                FeedMessage(id: "bench-3", gameId: "bench", at: appendedAt, event: .runScored(team: .home, runs: 1)))
            try await projector.catchUp(connection)
            let planned = ContinuousClock.now
            let (cpuPlanned, backendPlanned) = (processCPUSeconds(), localBackendCPUSeconds(pid: backend))
            let total = try await worker.run(untilEmpty: true)
            let done = ContinuousClock.now
            let (cpuDone, backendDone) = (processCPUSeconds(), localBackendCPUSeconds(pid: backend))
            func spent(_ from: Double?, _ to: Double?) -> Double {
                guard let from, let to else { return -1 }
                return rounded((to - from) * 1000, places: 0)
            }
            let latencies = await sandbox.delivered().map { $0.time.timeIntervalSince(appendedAt) * 1000 }.sorted()
            let seconds = (done - began) / .seconds(1)
            return [
                "activities": Double(count), "delivered": Double(total.sent), "retried": Double(total.retried),
                // End to end: from the append of the run to the last push accepted.
                "pushesPerSecond": rounded(Double(total.sent) / seconds, places: 0),
                "planMs": rounded((planned - began) / .milliseconds(1), places: 1),
                // The delivery phase alone: from the outbox rows committed to the last push accepted.
                "deliveryMs": rounded((done - planned) / .milliseconds(1), places: 1),
                "deliveryPushesPerSecond": rounded(Double(total.sent) / ((done - planned) / .seconds(1)), places: 0),
                "appendToLastPushMs": rounded(seconds * 1000, places: 1),
                "p50AppendToPushMs": rounded(nearestRank(latencies, 50), places: 1),
                "p99AppendToPushMs": rounded(nearestRank(latencies, 99), places: 1),
                "connections": Double(sandbox.connectionCount()),
                // CPU time of this process (client, local APNs server, worker) and of the PostgreSQL
                // backend serving its connection (-1 when it does not run on this machine): over the
                // whole span, and over the delivery phase alone.
                "cpuScorefeedMs": spent(cpuBefore, cpuDone),
                "cpuPostgresBackendMs": spent(backendBefore, backendDone),
                "cpuDeliveryScorefeedMs": spent(cpuPlanned, cpuDone),
                "cpuDeliveryPostgresBackendMs": spent(backendPlanned, backendDone),
            ]
        }
        await connection.close()
        var result: [String: Any] = ["benchmark": "push"]
        for (key, value) in numbers { result[key] = value.rounded() == value ? Int(value) as Any : value as Any }
        return result
    }
}

/// The CPU time (user + system) of a PostgreSQL backend process on this machine, `nil` when the
/// process is not here (a remote database) or not a PostgreSQL one.
func localBackendCPUSeconds(pid: Int) -> Double? {
    guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), comm.hasPrefix("postgres"),
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    // After the command name in parentheses: state is field 3, utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
