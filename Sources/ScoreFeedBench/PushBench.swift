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
            server over HTTP/2 + TLS (or the one --env-file names). Measures from the append of the run \
            to each push's acceptance; the projector plans while the worker delivers, as in `serve`.
            """
    )

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Number of activities on the game.")
    var activities = 10_000

    @Option(help: "Activities planned in the page's own transaction (the projector's default).")
    var inlineTargets = Projector().inlineTargets

    @Option(help: "Activities planned per fan-out transaction after the page (the projector's default).")
    var fanOutChunk = Projector().fanOutChunk

    @Option(help: "HTTP/2 connections of the APNs client.")
    var connections = 1

    @Option(
        help:
            "Play a whole game instead, with this fraction of the activities registered at random moments during it (0: the one run)."
    )
    var registeredDuringGame = 0.0

    @Option(help: "Deliver to the server an env file describes (SCOREFEED_APNS_* lines) instead of an in-process one.")
    var envFile: String?

    func validate() throws {
        guard (0...1).contains(registeredDuringGame) else {
            throw ValidationError("--registered-during-game must be a fraction from 0 to 1")
        }
        guard activities > 0, inlineTargets > 0, fanOutChunk > 0, connections > 0 else {
            throw ValidationError("--activities, --inline-targets, --fan-out-chunk and --connections must be positive")
        }
    }

    func run() async throws {
        let fraction = registeredDuringGame
        try printJSON(
            try await withBenchSchema { url in
                fraction > 0 ? try await measureGame(url: url, fraction: fraction) : try await measure(url: url)
            })
    }

    private func measure(url: String) async throws -> [String: Any] {
        let connection = try await PostgresConnection.connect(url)
        // Delivery on a connection of its own, as in `serve`: it claims while the projector plans.
        let deliveryConnection = try await PostgresConnection.connect(url)
        try await Migrator().migrate(connection, logger: Runtime.logger)
        let (count, inline, chunk) = (activities, inlineTargets, fanOutChunk)
        let numbers = try await withBenchAPNs(envFile: envFile, connections: connections) {
            client, sandbox -> [String: Double] in
            let ingestor = Ingestor(connection: connection)
            var projector = Projector(clock: .wall({ Date() }))
            projector.inlineTargets = inline
            projector.fanOutChunk = chunk
            let now = Date()
            let team = { (code: String) in Team(code: code, name: code, logo: "") }
            _ = try await ingestor.ingest([
                FeedMessage(
                    id: "bench-1", gameId: "bench", at: now.addingTimeInterval(-120),
                    event: .gameScheduled(home: team("HOM"), away: team("AWY"), startsAt: now.addingTimeInterval(-60))),
                FeedMessage(id: "bench-2", gameId: "bench", at: now.addingTimeInterval(-60), event: .gameStarted),
            ])
            try await projector.catchUp(connection)
            // Row writes from here on: the registration, then everything the fan-out writes.
            let writesBefore = try await rowWrites([connection, deliveryConnection])
            _ = try await connection.withSession { session in
                // The tokens exist only for the registration (the apps' requests, not the server's memory).
                try Activities.registerMany(
                    gameId: "bench", tokens: (0..<count).map { String(format: "%064x", $0 + 1) },
                    environment: .production, bundleId: "com.example.scores", frequentUpdates: false,
                    at: now.addingTimeInterval(-30), in: session)
            }
            trimMalloc()  // the registration's freed memory handed back, as a server's would be by now
            // The statistics a running database has: autovacuum analyzes a table after a bulk insert,
            // but not within the second before the append; a fresh table's first plans assume it empty.
            _ = try await connection.query("ANALYZE activities")
            let worker = DeliveryWorker(connection: deliveryConnection, client: { _ in client }, logger: Runtime.logger)
            // The connection and the JWT exist before the clock starts, as in a running server.
            _ = await client.send(
                APNsRequest(deviceToken: String(repeating: "f", count: 64), payload: Array(#"{"aps":{}}"#.utf8)))
            await sandbox?.removeAllDeliveries()

            var backends: [Int] = []
            for session in [connection, deliveryConnection] {
                backends.append(
                    try await session.withSession { try $0.query("SELECT pg_backend_pid() AS pid")[0].int("pid") })
            }
            func backendCPU() -> Double? {
                let each = backends.map(localBackendCPUSeconds(pid:))
                return each.contains { $0 == nil } ? nil : each.reduce(0) { $0 + $1! }
            }
            let wakeup = DeliveryWakeup()
            let follower = LogFollower(url: url, channel: TargetPushes.channel, logger: Runtime.logger)
            let listening = Task {
                try await follower.run { _ in
                    wakeup.signal()
                    return false
                }
            }
            // Listening before the clock starts.
            await wakeup.wait(upTo: 5)
            // The resident set during the fan-out, sampled every 20 ms (from before the append to the
            // last push recorded).
            let sampler = ResidentSampler()
            let sampling = Task {
                while !Task.isCancelled {
                    sampler.sample()
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
            let (cpuBefore, backendBefore) = (processCPUSeconds(), backendCPU())
            let appendedAt = Date()
            let began = ContinuousClock.now
            _ = try await ingestor.ingest(
                FeedMessage(id: "bench-3", gameId: "bench", at: appendedAt, event: .runScored(team: .home, runs: 1)))
            let committedAt = Date()
            let committed = ContinuousClock.now
            // The projector plans (the first activities in the page, the rest in chunks) while the
            // worker delivers what is committed, woken by the outbox's notifications as in `serve`.
            let planning = Task { () throws -> ContinuousClock.Instant in
                try await projector.catchUp(connection)
                return ContinuousClock.now
            }
            let finished = DoneFlag()
            Task {
                _ = try? await planning.value
                finished.set()
                wakeup.signal()
            }
            var total = DeliveryRound()
            while true {
                let plannedBefore = finished.isSet
                let round = try await worker.run(untilEmpty: true, wakeup: wakeup)
                total.add(round)
                if plannedBefore && round.claimed == 0 { break }
                if round.claimed == 0 { await wakeup.wait(upTo: 0.5) }
            }
            listening.cancel()
            sampling.cancel()
            sampler.sample()
            let planned = try await planning.value
            let writes = try await rowWrites([connection, deliveryConnection]) - writesBefore
            let done = ContinuousClock.now
            let (cpuDone, backendDone) = (processCPUSeconds(), backendCPU())
            func spent(_ from: Double?, _ to: Double?) -> Double {
                guard let from, let to else { return -1 }
                return rounded((to - from) * 1000, places: 0)
            }
            let seconds = (done - began) / .seconds(1)
            var numbers: [String: Double] = [
                "activities": Double(count), "delivered": Double(total.sent), "retried": Double(total.retried),
                "inlineTargets": Double(inline), "fanOutChunk": Double(chunk),
                // End to end: from the append of the run to the last push accepted.
                "pushesPerSecond": rounded(Double(total.sent) / seconds, places: 0),
                "appendMs": rounded((committed - began) / .milliseconds(1), places: 1),
                // From the append committed to the last activity planned (delivery runs meanwhile).
                "planMs": rounded((planned - committed) / .milliseconds(1), places: 1),
                "appendToLastPushMs": rounded(seconds * 1000, places: 1),
                "connections": Double(connections),
                // CPU time of this process (client, worker, projector, and the local APNs server
                // when in-process) and of the PostgreSQL backends of its two connections (-1 when
                // they do not run on this machine).
                "cpuScorefeedMs": spent(cpuBefore, cpuDone),
                "cpuPostgresBackendMs": spent(backendBefore, backendDone),
                // Rows inserted, updated and deleted in the bench's schema, from the registration of
                // the activities to the last push recorded (issue 28: per added activity, the
                // difference of two runs divided by the difference of their activities).
                "rowWrites": Double(writes),
                // The peak resident set of this process (with an in-process local APNs server, that
                // server's record of every delivery too: use --env-file for the worker's alone).
                "peakRSSMegabytes": rounded(peakResidentMegabytes(), places: 1),
                // The largest resident set sampled during the fan-out (issue 28: < 300 MB for 1,000,000).
                "fanOutPeakRSSMegabytes": rounded(sampler.peakMegabytes, places: 1),
            ]
            if let sandbox {
                // Acceptance times as the local APNs server recorded them.
                let accepted = await sandbox.delivered().map(\.time)
                let fromCommit = accepted.map { $0.timeIntervalSince(committedAt) * 1000 }.sorted()
                let fromAppend = accepted.map { $0.timeIntervalSince(appendedAt) * 1000 }.sorted()
                numbers["commitToFirstPushMs"] = rounded(fromCommit.first ?? -1, places: 1)
                numbers["p50AppendToPushMs"] = rounded(nearestRank(fromAppend, 50), places: 1)
                numbers["p99AppendToPushMs"] = rounded(nearestRank(fromAppend, 99), places: 1)
                // Where the server waited for the next round: gaps of more than 2 ms between two
                // acceptances in a row, their count and their sum.
                let gaps = zip(fromAppend.dropFirst(), fromAppend).map { $0 - $1 }.filter { $0 > 2 }
                numbers["idleGaps"] = Double(gaps.count)
                numbers["idleGapsMs"] = rounded(gaps.reduce(0, +), places: 1)
            }
            return numbers
        }
        await connection.close()
        await deliveryConnection.close()
        var result: [String: Any] = [
            "benchmark": "push", "server": envFile.map { "as in \($0)" } ?? "in-process local APNs server",
        ]
        for (key, value) in numbers { result[key] = value.rounded() == value ? Int(value) as Any : value as Any }
        return result
    }
}

/// Rows inserted, updated and deleted so far in the connections' schema (`pg_stat_user_tables`),
/// after each connection flushed its pending statistics.
func rowWrites(_ connections: [PostgresConnection]) async throws -> Int {
    for connection in connections {
        try await connection.withSession { session in
            try session.query("SELECT pg_stat_force_next_flush()")
            // The flush happens when the backend is next idle: after this statement's transaction.
            try session.query("SELECT 1")
        }
    }
    return try await connections[0].withSession { session in
        try session.query(
            """
            SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint AS n FROM pg_stat_user_tables
            WHERE schemaname = current_schema()
            """)[0].int("n")
    }
}

/// A flag set once, read from any task.
/// glibc's `malloc_trim(0)` (not in the `Glibc` module's headers), when the C library has it.
private func trimMalloc() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}

/// The largest resident set of this process seen by ``sample()`` (`/proc/self/statm`).
private final class ResidentSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0

    var peakMegabytes: Double { lock.withLock { Double(peak) / 1_000_000 } }

    func sample() {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return }
        let bytes = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        lock.withLock { peak = max(peak, bytes) }
    }
}

private final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
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
