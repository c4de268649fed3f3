import ArgumentParser
import Foundation
import PostgresClient
import ScoreFeedCLI

/// `scorefeed-bench …`: speed measurements with JSON output (numbers in docs/performance.md). A
/// target and executable of its own: the shipped `scorefeed` does not carry the benchmarks.
public struct BenchCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scorefeed-bench",
        abstract: "Measure throughput and latency; prints JSON. Build with -c release for real numbers.",
        subcommands: [
            AppendBench.self, IngestBench.self, FoldBench.self, RetrosheetBench.self, PushBench.self, ApnsBench.self,
            JwtBench.self, BroadcastBench.self, SeasonsBench.self, ConvertBench.self,
        ]
    )

    public init() {}

    /// Parses the arguments and runs the benchmark, logging as `scorefeed` does.
    public static func runMain() async { await ScoreFeedCommand.runRoot(Self.self) }
}

/// Percentiles and rates over a list of durations.
struct Timings {
    private(set) var seconds: [Double] = []

    mutating func record(_ duration: Duration) { seconds.append(duration / .seconds(1)) }

    mutating func merge(_ other: Timings) { seconds += other.seconds }

    /// The `p`-th percentile (nearest rank) in milliseconds.
    func percentileMs(_ p: Double) -> Double { nearestRank(seconds.sorted(), p) * 1000 }
}

/// The `p`-th percentile (nearest rank) of sorted values; 0 when there are none.
func nearestRank(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[max(0, min(sorted.count - 1, rank))]
}

/// Rounds for JSON output: rates to integers, milliseconds to microseconds.
func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}

/// Prints a JSON value (array or object) with sorted keys.
func printJSON(_ value: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted])
    Output.line(String(decoding: data, as: UTF8.self))
}

/// Runs `body` with the URL of a new schema of the configured database, dropped afterwards, so a
/// benchmark never touches the service's own tables.
func withBenchSchema<T>(_ body: (String) async throws -> T) async throws -> T {
    let base = try await Runtime.databaseURL()
    let schema = "bench_\(UUID().uuidString.prefix(8).lowercased())"
    let admin = try await PostgresConnection.connect(base)
    try await admin.execute(script: "CREATE SCHEMA \(schema)")
    do {
        let result = try await body(SearchPath.scoped(base, schema: schema))
        try await admin.execute(script: "DROP SCHEMA \(schema) CASCADE")
        await admin.close()
        return result
    } catch {
        try? await admin.execute(script: "DROP SCHEMA \(schema) CASCADE")
        await admin.close()
        throw error
    }
}
