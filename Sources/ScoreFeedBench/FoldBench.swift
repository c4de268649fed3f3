import ArgumentParser
import Foundation
import ScoreDomain
import ScoreFeedCLI
import ScoreStore

/// `scorefeed bench fold --json`: the pure fold alone, in memory.
struct FoldBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fold", abstract: "Fold the fixture games over and over in memory; report events/s.")

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Events to fold in total.")
    var events = 10_000_000

    @Option(help: "Feed files whose games are folded (default: the three fixtures).")
    var files: [String] = [
        "fixtures/plain-nine.jsonl", "fixtures/extra-innings-walkoff.jsonl",
        "fixtures/delayed-postponed.jsonl",
    ]

    func run() throws {
        var seen = Set<String>()
        let games = Dictionary(
            grouping: try files.flatMap { try FeedFile.read($0) }.map(\.message).filter { seen.insert($0.id).inserted },
            by: \.gameId
        ).values.map { Array($0) }
        guard !games.isEmpty else { throw ValidationError("no messages in the feed files") }
        var folded = 0
        var checksum = 0
        let began = ContinuousClock.now
        while folded < events {
            for game in games {
                var state: ScoreState?
                for message in game { state = try ScoreFold.apply(message, to: state) }
                folded += game.count
                checksum &+= state?.homeScore ?? 0
            }
        }
        let seconds = (ContinuousClock.now - began) / .seconds(1)
        try printJSON([
            "benchmark": "fold", "events": folded, "seconds": rounded(seconds, places: 3),
            "eventsPerSecond": rounded(Double(folded) / seconds, places: 0), "checksum": checksum,
        ])
    }
}
