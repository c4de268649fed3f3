import ArgumentParser
import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedCLI
import ScoreStore

/// `scorefeed-bench seasons --json`: a synthetic season per sport (``SportSeasons``), folded in
/// memory and replayed end to end, each per event as a ratio to baseball's in the same run.
struct SeasonsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seasons",
        abstract: "A synthetic season per sport: fold and end-to-end replay per event, as ratios to baseball's.",
        discussion: """
            Generates each league's season (MLB 2,430 games, NBA 1,230, NHL 1,312, NFL 272, league soccer \
            380; seeded, every message checked by ScoreFold while it is written). Fold: ScoreFold.apply over \
            the whole season in memory, repeated, rounds interleaved across the sports, median ns per event. \
            End to end: the season through ingest, event log, projector and the audience's pushes into a \
            throw-away schema of the configured database, as `retrosheet` does, µs per event. Live: a few \
            games per sport one message at a time (each ingested and projected on its own). Target: every \
            ratio to baseball at most 1.2.
            """
    )

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Sports (or leagues) to run; baseball is always run first, as the reference.")
    var sports: [String] = ["baseball", "basketball", "hockey", "football", "soccer"]

    @Option(help: "Fraction of each season's games (e.g. 0.02 for a quick debug run).")
    var scale = 1.0

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 26

    @Option(help: "Fold rounds (interleaved across the sports); the median is reported.")
    var foldRounds = 5

    @Option(help: "Events folded per sport per round, at least (whole seasons, repeated).")
    var foldEvents = 2_000_000

    @Option(help: "End-to-end rounds (interleaved across the sports, each in a fresh schema); the median is reported.")
    var endToEndRounds = 3

    @Option(
        help:
            "Games per sport also replayed live: one message per ingest and projection, as a provider sends them (0: none)."
    )
    var liveGames = 8

    @Flag(help: "Only the in-memory part.")
    var memoryOnly = false

    func validate() throws {
        guard foldRounds >= 1, endToEndRounds >= 1, foldEvents >= 1, liveGames >= 0, scale > 0 else {
            throw ValidationError(
                "--fold-rounds, --end-to-end-rounds and --fold-events must be at least 1, --scale above 0")
        }
    }

    func run() async throws {
        var leagues = [League.mlb]
        for name in sports {
            guard let league = League(name: name) else { throw ValidationError("unknown sport \(name)") }
            if !leagues.contains(league) { leagues.append(league) }
        }
        var seasons: [(League, [[FeedMessage]])] = []
        let generating = ContinuousClock.now
        for league in leagues {
            let games = max(2, Int((Double(league.seasonGames) * scale).rounded()))
            seasons.append((league, try SportSeasons.season(league, games: games, seed: seed)))
        }
        let generatingSeconds = (ContinuousClock.now - generating) / .seconds(1)
        var reports = seasons.map { SeasonReport(league: $0.0, games: $0.1) }

        for _ in 0..<foldRounds {
            for index in seasons.indices {
                reports[index].foldNs.append(Self.fold(seasons[index].1, atLeast: foldEvents))
            }
        }
        if !memoryOnly {
            for _ in 0..<endToEndRounds {
                for index in seasons.indices {
                    reports[index].endToEnd.append(try await Self.endToEnd(seasons[index]))
                }
            }
            if liveGames > 0 {
                for index in seasons.indices {
                    let (league, games) = seasons[index]
                    reports[index].liveGames = min(liveGames, games.count)
                    reports[index].live = try await Self.endToEnd((league, Array(games.prefix(liveGames))), live: true)
                }
            }
        }
        let reference = reports[0]
        var sportsJSON: [String: Any] = [:]
        for report in reports { sportsJSON[report.league.sport.rawValue] = report.json(reference: reference) }
        try printJSON([
            "benchmark": "seasons", "seed": seed, "scale": scale, "foldRounds": foldRounds,
            "endToEndRounds": memoryOnly ? 0 : endToEndRounds,
            "generatingSeconds": rounded(generatingSeconds, places: 3),
            "reference": "baseball (synthetic MLB season)",
            "target": "foldRatio and endToEndRatio <= 1.2 (ns per event over baseball's)",
            "sports": sportsJSON,
        ])
    }

    /// Folds the whole season with ``ScoreFold`` until at least `events` events; ns per event.
    static func fold(_ games: [[FeedMessage]], atLeast events: Int) -> Double {
        var folded = 0
        var checksum = 0
        let began = ContinuousClock.now
        repeat {
            for game in games {
                var state: ScoreState?
                for message in game { state = try? ScoreFold.apply(message, to: state) }
                folded += game.count
                checksum &+= state?.homeScore ?? 0
            }
        } while folded < events
        let seconds = (ContinuousClock.now - began) / .seconds(1)
        precondition(checksum != -1)  // keeps the fold's result alive
        return seconds * 1e9 / Double(folded)
    }

    /// The season through ingest, log, projector and the audience's pushes, in a fresh schema: each
    /// game in one transaction and pages of projection (as `retrosheet`), or `live`, one message at a
    /// time, each appended and projected in transactions of its own (as the webhook and the running
    /// projector do while a game is played).
    static func endToEnd(_ season: (League, [[FeedMessage]]), live: Bool = false) async throws -> EndToEnd {
        let sourced = season.1.map { game in
            game.enumerated().map { SourcedMessage(message: $1, file: "synthetic-\(season.0.rawValue)", line: $0 + 1) }
        }
        return try await withBenchSchema { url in
            let connection = try await PostgresConnection.connect(url)
            try await Migrator().migrate(connection, logger: Runtime.logger)
            let began = ContinuousClock.now
            let replayer = Replayer(ingestor: Ingestor(connection: connection), batchSize: 1)
            let summary =
                live
                ? try await replayer.replay(messages: sourced.flatMap { $0 }) { _, _ in }
                : try await replayer.replay(games: sourced) { _, _ in }
            let seconds = (ContinuousClock.now - began) / .seconds(1)
            let bytes = try await connection.query(
                "SELECT pg_total_relation_size('events') + pg_total_relation_size('score_states') AS n")[0].int("n")
            await connection.close()
            return EndToEnd(seconds: seconds, events: summary.accepted, pushes: summary.pushes, bytes: bytes)
        }
    }

    struct EndToEnd {
        var seconds: Double
        var events: Int
        var pushes: Int
        var bytes: Int
        var usPerEvent: Double { seconds * 1e6 / Double(max(1, events)) }
    }
}

/// What one sport's season is made of and how fast it went.
struct SeasonReport {
    let league: League
    let games: Int
    let events: Int
    let mix: [String: Int]
    let scoringPlays: Int
    let points: Int
    let overtimeGames: Int
    var foldNs: [Double] = []
    var endToEnd: [SeasonsBench.EndToEnd] = []
    var live: SeasonsBench.EndToEnd?
    var liveGames = 0

    init(league: League, games: [[FeedMessage]]) {
        self.league = league
        self.games = games.count
        events = games.reduce(0) { $0 + $1.count }
        var mix: [String: Int] = [:]
        var scoringPlays = 0
        var points = 0
        var overtime = 0
        for game in games {
            var state: ScoreState?
            for message in game {
                mix[message.event.type, default: 0] += 1
                state = try? ScoreFold.apply(message, to: state)
            }
            guard let state else { continue }
            scoringPlays += state.scoring.count
            points += state.homeScore + state.awayScore
            let regulation = state.rules.periods
            overtime += (league.sport == .baseball ? state.inningNumber : state.periodNumber) > regulation ? 1 : 0
        }
        self.mix = mix
        self.scoringPlays = scoringPlays
        self.points = points
        self.overtimeGames = overtime
    }

    var foldMedian: Double { median(foldNs) }
    var endToEndMedian: Double { median(endToEnd.map(\.usPerEvent)) }

    func json(reference: SeasonReport) -> [String: Any] {
        let perGame = { (count: Int) in rounded(Double(count) / Double(max(1, games)), places: 1) }
        var result: [String: Any] = [
            "competition": league.competition, "games": games, "events": events, "eventsPerGame": perGame(events),
            "scoringPlaysPerGame": perGame(scoringPlays), "pointsPerGame": perGame(points),
            "overtimeGames": overtimeGames, "eventsPerGameByType": mix.mapValues { perGame($0) },
            "foldNsPerEvent": rounded(foldMedian, places: 1),
            "foldNsPerEventRounds": foldNs.map { rounded($0, places: 1) },
            "foldRatio": rounded(foldMedian / reference.foldMedian, places: 2),
        ]
        if !endToEnd.isEmpty {
            result["endToEndUsPerEvent"] = rounded(endToEndMedian, places: 2)
            result["endToEndUsPerEventRounds"] = endToEnd.map { rounded($0.usPerEvent, places: 2) }
            result["endToEndSeconds"] = endToEnd.map { rounded($0.seconds, places: 3) }
            result["endToEndRatio"] = rounded(endToEndMedian / reference.endToEndMedian, places: 2)
            result["pushesPerGame"] = perGame(endToEnd[0].pushes)
            result["storedBytesPerEvent"] = endToEnd[0].bytes / max(1, endToEnd[0].events)
        }
        if let live, let base = reference.live {
            result["live"] = [
                "games": liveGames,
                "events": live.events, "seconds": rounded(live.seconds, places: 3),
                "usPerEvent": rounded(live.usPerEvent, places: 1),
                "ratio": rounded(live.usPerEvent / base.usPerEvent, places: 2),
                "storedBytesPerEvent": live.bytes / max(1, live.events),
            ]
        }
        return result
    }
}

/// The median of `values` (0 when empty).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
