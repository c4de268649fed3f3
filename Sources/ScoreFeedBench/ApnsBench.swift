import APNs
import APNsSandbox
import ArgumentParser
import Foundation
import ScoreFeedCLI

/// `scorefeed bench apns --json`: the HTTP/2 client alone, without the database: how many pushes per
/// second the APNs client sends and what each one costs this process in CPU time.
struct ApnsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns",
        abstract: "Send N pushes through the APNs client alone (no database), 1,000 in flight at a time.",
        discussion: """
            By default the server is the in-process local APNs server, so the CPU time counts both \
            ends. With --url (and --ca-file) it is any HTTP/2 server, e.g. one in another process, \
            and the CPU time is the client's alone (its answers need not be 200).
            """
    )

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Number of pushes.")
    var pushes = 10_000

    @Option(help: "Pushes in flight at once (the delivery worker's round).")
    var inFlight = 1000

    @Option(help: "Send to this server instead of an in-process local APNs server.")
    var url: String?

    @Option(help: "A CA certificate (PEM) to trust for --url.")
    var caFile: String?

    @Option(help: "Send as the client an env file describes (SCOREFEED_APNS_* lines, e.g. apns-sandbox's DIR/env).")
    var envFile: String?

    @Option(help: "HTTP/2 connections of the client.")
    var connections = 1

    @Option(help: "Send every push to this device token (default: one token per push).")
    var token: String?

    @Option(help: "The body of every push (default: a typical score update, 170 bytes).")
    var payloadFile: String?

    func validate() throws {
        guard pushes > 0, inFlight > 0, connections > 0 else {
            throw ValidationError("--pushes, --in-flight and --connections must be positive")
        }
        if envFile != nil, url != nil || caFile != nil {
            throw ValidationError("--env-file names the server and its CA: leave out --url and --ca-file")
        }
        if caFile != nil, url == nil {
            throw ValidationError("--ca-file is for --url; the local server's CA is trusted")
        }
    }

    func run() async throws {
        let (pushes, inFlight, url) = (self.pushes, self.inFlight, self.url)
        let payload =
            try payloadFile.map { path in
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CLIError("cannot read \(path)")
                }
                return [UInt8](data)
            }
            ?? Array(
                #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"home":1,"away":0,"inning":"Top 1st","outs":0,"status":"live"},"stale-date":1700000900,"relevance-score":50}}"#
                    .utf8)
        // Made before the clock starts.
        let token = self.token
        let requests = (0..<pushes).map {
            APNsRequest(deviceToken: token ?? String(format: "%064x", $0 + 1), payload: payload)
        }
        let run = try await withBenchAPNs(url: url, caFile: caFile, envFile: envFile, connections: connections) {
            client, _ -> Run in
            // The connection and the JWT are made before the clock starts.
            let first = await client.send(requests[0])
            if let error = first.error {
                throw CLIError("no answer from \(url ?? "the local APNs server"): \(error)")
            }
            let cpuBefore = processCPUSeconds()
            let began = ContinuousClock.now
            var statuses: [Int: Int] = [:]
            var failed = 0
            for start in stride(from: 0, to: pushes, by: inFlight) {
                // As the delivery worker sends a round: one batch, written and flushed together.
                for result in await client.send(Array(requests[start..<min(pushes, start + inFlight)])) {
                    if let status = result.status { statuses[status, default: 0] += 1 } else { failed += 1 }
                }
            }
            let seconds = (ContinuousClock.now - began) / .seconds(1)
            return Run(
                firstStatus: first.status ?? 0, statuses: statuses, noAnswer: failed, seconds: seconds,
                cpu: processCPUSeconds() - cpuBefore)
        }
        try printJSON([
            "benchmark": "apns", "pushes": pushes, "inFlight": inFlight, "connections": connections,
            "server": url ?? envFile.map { "as in \($0)" } ?? "in-process local APNs server",
            "firstStatus": run.firstStatus,
            "noAnswer": run.noAnswer,
            "statuses": Dictionary(uniqueKeysWithValues: run.statuses.map { ("\($0.key)", $0.value) }),
            "seconds": rounded(run.seconds, places: 3),
            "pushesPerSecond": Int(rounded(Double(pushes) / run.seconds, places: 0)),
            // Both ends with the in-process server; the client alone with --url.
            "cpuMicrosecondsPerPush": rounded(run.cpu / Double(pushes) * 1_000_000, places: 1),
            "cpuCoresBusy": rounded(run.cpu / run.seconds, places: 2),
        ])
    }

    private struct Run: Sendable {
        var firstStatus: Int
        var statuses: [Int: Int]
        var noAnswer: Int
        var seconds: Double
        var cpu: Double
    }
}

/// User + system CPU time of this process so far, in seconds.
/// The peak resident set of this process so far, in MB (10^6 bytes; `ru_maxrss` is in KiB on Linux).
func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) * 1024 / 1_000_000
}

func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
