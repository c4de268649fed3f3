import Foundation
import ScoreDomain

/// A league whose season `scorefeed-bench seasons` generates: its sport, preset and number of games.
enum League: String, CaseIterable, Sendable {
    case mlb
    case nba
    case nhl
    case nfl
    case soccer

    var sport: Sport {
        switch self {
        case .mlb: .baseball
        case .nba: .basketball
        case .nhl: .hockey
        case .nfl: .football
        case .soccer: .soccer
        }
    }

    /// The preset of `docs/sports.md` the games are scheduled with.
    var competition: String {
        switch self {
        case .mlb: "mlb"
        case .nba: "nba"
        case .nhl: "nhl"
        case .nfl: "nfl"
        case .soccer: "league-soccer"
        }
    }

    /// Games in a regular season: MLB 2,430, NBA 1,230, NHL 1,312, NFL 272, a 20-team soccer league 380.
    var seasonGames: Int {
        switch self {
        case .mlb: 2430
        case .nba: 1230
        case .nhl: 1312
        case .nfl: 272
        case .soccer: 380
        }
    }

    /// The league by its sport's name (`baseball`, `basketball`, …) or its own (`nba`, …).
    init?(name: String) {
        if let league = League(rawValue: name) {
            self = league
        } else if let league = League.allCases.first(where: { $0.sport.rawValue == name }) {
            self = league
        } else {
            return nil
        }
    }
}

/// SplitMix64: a small, fast, seeded generator, so a season is the same bytes on every run.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Whether an event of probability `p` happens.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// A whole number of seconds in `range`, in milliseconds.
    mutating func seconds(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) * 1000 }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

/// A generated game the fold refused: a bug of the generator, never of the fold's input.
struct SeasonError: Error, CustomStringConvertible {
    var description: String
}

/// Writes one game's messages in order, folding each with ``ScoreFold`` as it goes: a message the
/// fold refuses stops the generator (``SeasonError``), so every generated game is one ScoreFeed
/// accepts. Keeps the wall clock and the game clock (exact to the millisecond, so a play's clock
/// agrees with the running clock's anchor, as a good provider's does).
struct GameWriter {
    let gameId: String
    private(set) var messages: [FeedMessage] = []
    private(set) var state: ScoreState?
    var random: SeededRandom
    /// Milliseconds since 1970 of the next message.
    var wallMs: Int
    /// The game clock (remaining counting down, elapsed for soccer) and whether it runs.
    var clockMs = 0
    var running = false
    var countsDown = true

    init(gameId: String, startsAtMs: Int, random: SeededRandom) {
        self.gameId = gameId
        self.wallMs = startsAtMs
        self.random = random
    }

    var homeScore: Int { state?.homeScore ?? 0 }
    var awayScore: Int { state?.awayScore ?? 0 }
    var tied: Bool { homeScore == awayScore }

    /// Appends the message of `event` at the current wall time after folding it; returns its id.
    @discardableResult
    mutating func emit(_ event: ScoreEvent) throws -> String {
        let id = gameId + "-" + String(messages.count + 1)
        let message = FeedMessage(
            id: id, gameId: gameId, at: Date(timeIntervalSince1970: Double(wallMs) / 1000), event: event)
        do {
            state = try ScoreFold.apply(message, to: state)
        } catch {
            throw SeasonError(description: "generated \(id) (\(event.type)) refused: \(error)")
        }
        messages.append(message)
        return id
    }

    /// Time passes: `ms` on the wall, and on the game clock while it runs (a countdown stops at 0).
    mutating func advance(_ ms: Int) {
        wallMs += ms
        guard running else { return }
        clockMs = countsDown ? max(0, clockMs - ms) : clockMs + ms
    }

    /// Advances the running clock by `ms` at most, stopping at 0; returns whether it reached 0.
    mutating func run(_ ms: Int) -> Bool {
        guard countsDown else {
            advance(ms)
            return false
        }
        advance(min(ms, clockMs))
        return clockMs == 0
    }

    mutating func startClock() throws {
        running = true
        try emit(.clockStarted(ms: clockMs))
    }

    mutating func stopClock() throws {
        running = false
        try emit(.clockStopped(ms: clockMs))
    }

    /// A scoring play at the current clock; returns its message id.
    @discardableResult
    mutating func score(_ team: Side, _ kind: ScoringKind, player: String? = nil) throws -> String {
        try emit(
            .pointsScored(PointsScored(team: team, points: kind.points, kind: kind, player: player, clockMs: clockMs)))
    }

    /// The next period begins, its clock at the rules' start, stopped.
    mutating func beginPeriod(_ period: Int, kind: PeriodKind?, rules: GameRules, sport: Sport) throws {
        try emit(.periodStarted(period: period, kind: kind))
        running = false
        clockMs = rules.clockStart(ofPeriod: period, sport: sport) ?? 0
    }

    mutating func endPeriod(_ period: Int) throws {
        running = false
        if countsDown { clockMs = 0 }
        try emit(.periodEnded(period: period))
    }

    /// A side, the home side a little more often.
    mutating func side(home: Double = 0.52) -> Side { random.chance(home) ? .home : .away }

    /// One of a side's invented players (short names: what providers send).
    mutating func player(_ team: Side) -> String {
        (team == .home ? "H. Player " : "A. Player ") + String(random.int(1...12))
    }
}

/// Generates a league's season: deterministic for a seed, every game accepted by ``ScoreFold``.
enum SportSeasons {
    /// `games` games of `league` (its season's number unless given), seeded by `seed`.
    static func season(_ league: League, games count: Int? = nil, seed: UInt64) throws -> [[FeedMessage]] {
        let preset = GameRules.preset(league.competition)!
        let setup = GameSetup(sport: preset.sport, rules: preset.rules)
        var seeds = SeededRandom(seed: seed &+ UInt64(League.allCases.firstIndex(of: league)!) &* 1_000_003)
        let opening = 1_790_000_000_000  // 2026-09-21, in milliseconds since 1970
        return try (0..<(count ?? league.seasonGames)).map { index in
            // About a tenth of the league plays each day, at 18:00 to 20:00 UTC.
            let day = index / max(1, league.seasonGames / 160)
            let startsAt = opening + day * 86_400_000 + (18 * 3600 + (index % 5) * 1800) * 1000
            let gameId = league.rawValue.uppercased() + "2026" + String(format: "%05d", index + 1)
            var writer = GameWriter(gameId: gameId, startsAtMs: startsAt, random: SeededRandom(seed: seeds.next()))
            writer.wallMs = startsAt - 2 * 86_400_000
            try writer.emit(
                .gameScheduled(
                    home: Team(code: "H\(index % 30)", name: "Home Club \(index % 30)", logo: ""),
                    away: Team(code: "A\(index % 29)", name: "Away Club \(index % 29)", logo: ""),
                    startsAt: Date(timeIntervalSince1970: Double(startsAt) / 1000), setup: setup))
            writer.wallMs = startsAt + writer.random.seconds(30...300)
            try writer.emit(.gameStarted)
            switch league.sport {
            case .baseball: try baseball(&writer)
            case .basketball: try basketball(&writer, rules: setup.rules)
            case .hockey: try hockey(&writer, rules: setup.rules)
            case .football: try football(&writer, rules: setup.rules)
            case .soccer: try soccer(&writer, rules: setup.rules)
            }
            writer.advance(writer.random.seconds(5...60))
            try writer.emit(.gameEnded(.closed))
            return writer.messages
        }
    }

    /// Nine innings (more while tied, none of the bottom 9th when the home side leads), plate
    /// appearances ending in outs, walks and hits, as the Retrosheet conversion writes them.
    private static func baseball(_ game: inout GameWriter) throws {
        var inning = 1
        while true {
            for half in [Half.top, .bottom] {
                if half == .bottom && inning >= 9 && game.homeScore > game.awayScore { return }
                try game.emit(.inningChanged(inning: inning, half: half))
                let batting: Side = half == .top ? .away : .home
                var outs = 0
                var bases = [false, false, false]
                while outs < 3 {
                    game.advance(game.random.seconds(60...240))
                    let roll = Double.random(in: 0..<1, using: &game.random)
                    if roll < 0.67 {
                        let double = bases[0] && outs < 2 && game.random.chance(0.1)
                        let made = double ? 2 : 1
                        outs += made
                        try game.emit(.outRecorded(outs: made))
                        if double || (outs < 3 && bases.contains(true) && game.random.chance(0.3)) {
                            // A runner out or moved up on the play.
                            bases = double ? [false, bases[1], bases[2]] : [false, bases[0], bases[1] || bases[2]]
                            try game.emit(.basesChanged(Bases(first: bases[0], second: bases[1], third: bases[2])))
                        }
                        continue
                    }
                    // Walk (forces), single, double, triple or home run: runners move up that many bases.
                    let moved = roll < 0.76 ? 0 : roll < 0.91 ? 1 : roll < 0.96 ? 2 : roll < 0.965 ? 3 : 4
                    var runs = 0
                    if moved == 0 {
                        if bases[0] && bases[1] && bases[2] { runs = 1 }
                        bases = [true, bases[0] || bases[1], bases[2] || (bases[0] && bases[1])]
                    } else {
                        var next = [false, false, false]
                        for base in (0..<3).reversed() where bases[base] {
                            if base + moved >= 3 { runs += 1 } else { next[base + moved] = true }
                        }
                        if moved >= 4 { runs += 1 } else { next[moved - 1] = true }
                        bases = next
                    }
                    if runs > 0 { try game.emit(.runScored(team: batting, runs: runs)) }
                    try game.emit(.basesChanged(Bases(first: bases[0], second: bases[1], third: bases[2])))
                    if half == .bottom && inning >= 9 && game.homeScore > game.awayScore { return }  // walk-off
                }
            }
            if inning >= 9 && !game.tied { return }
            inning += 1
        }
    }
}
