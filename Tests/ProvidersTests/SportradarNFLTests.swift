import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// The official figures a game's document states, read with Foundation's JSON reader (not the converter's).
struct SportradarNFLOfficial {
    let id: String
    let home: (alias: String, points: Int)
    let away: (alias: String, points: Int)
    /// `periods[].scoring`: each period's points per side.
    let periods: [(home: Int, away: Int)]
    /// Every play whose stated running score (`home_points`, `away_points`) differs from the play before.
    let scoringPlays: [(id: String, home: Int, away: Int)]
    /// Every play that states a running score, in game order, with it.
    let statedScores: [(id: String, home: Int, away: Int)]
    /// The last play of every drive that ended in an interception, a fumble or on downs: not a drive's
    /// part that ends with its period (`period_end` its last item; the drive goes on in the next period),
    /// nor a play whose stated score rose (a turnover returned for a touchdown is that touchdown).
    let turnoverPlays: [String]

    init(_ path: String) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        id = try #require(root["id"] as? String)
        let summary = try #require(root["summary"] as? [String: Any])
        let home = try #require(summary["home"] as? [String: Any])
        let away = try #require(summary["away"] as? [String: Any])
        self.home = (try #require(home["alias"] as? String), try #require(home["points"] as? Int))
        self.away = (try #require(away["alias"] as? String), try #require(away["points"] as? Int))
        var periods: [(Int, Int)] = []
        var scoring: [(String, Int, Int)] = []
        var stated: [(String, Int, Int)] = []
        var turnovers: [String] = []
        var running = (0, 0)
        for period in try #require(root["periods"] as? [[String: Any]]) {
            let line = try #require(period["scoring"] as? [String: Any])
            periods.append(
                (
                    try #require((line["home"] as? [String: Any])?["points"] as? Int),
                    try #require((line["away"] as? [String: Any])?["points"] as? Int)
                ))
            for entry in try #require(period["pbp"] as? [[String: Any]]) {
                let events = entry["type"] as? String == "drive" ? entry["events"] as? [[String: Any]] ?? [] : [entry]
                let plays = events.filter { $0["type"] as? String == "play" }
                var scored = false
                for play in plays {
                    scored = false
                    guard let homePoints = play["home_points"] as? Int, let awayPoints = play["away_points"] as? Int
                    else { continue }
                    let id = try #require(play["id"] as? String)
                    scored = (homePoints, awayPoints) != running
                    if scored { scoring.append((id, homePoints, awayPoints)) }
                    stated.append((id, homePoints, awayPoints))
                    running = (homePoints, awayPoints)
                }
                if ["Interception", "Fumble", "Downs"].contains(entry["end_reason"] as? String ?? ""),
                    events.last?["type"] as? String == "play", !scored, let last = plays.last?["id"] as? String
                {
                    turnovers.append(last)
                }
            }
        }
        self.periods = periods.map { (home: $0.0, away: $0.1) }
        scoringPlays = scoring.map { (id: $0.0, home: $0.1, away: $0.2) }
        statedScores = stated.map { (id: $0.0, home: $0.1, away: $0.2) }
        turnoverPlays = turnovers
    }
}

/// The official figures of an older-shape (v1: `nfl-t1`, `ncaafb-t1`) document, read with Foundation's
/// JSON reader: the final (`home_team.points`, `away_team.points`) and every scoring play's `score`, with
/// the running score and the line score they add up to.
struct SportradarV1Official {
    struct Score {
        let id: String
        let quarter: Int
        let clock: String
        let team: String
        let type: String
        let points: Int
        /// The drive's `team`: the side with the ball, not always the side that scored.
        let driveTeam: String
        /// The running score after it (home, away).
        let home: Int
        let away: Int
    }

    let id: String
    let home: (alias: String, points: Int)
    let away: (alias: String, points: Int)
    let scores: [Score]
    /// The points per quarter the scores add up to (home, away).
    let periods: [(home: Int, away: Int)]

    init(_ path: String) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        id = try #require(root["id"] as? String)
        let home = try #require(root["home_team"] as? [String: Any])
        let away = try #require(root["away_team"] as? [String: Any])
        self.home = (try #require(home["id"] as? String), try #require(home["points"] as? Int))
        self.away = (try #require(away["id"] as? String), try #require(away["points"] as? Int))
        var scores: [Score] = []
        var periods: [(home: Int, away: Int)] = []
        var running = (0, 0)
        for quarter in try #require(root["quarters"] as? [[String: Any]]) {
            let number = try #require(quarter["number"] as? Int)
            var line = (home: 0, away: 0)
            for drive in try #require(quarter["pbp"] as? [[String: Any]]) {
                for action in drive["actions"] as? [[String: Any]] ?? [] {
                    guard let score = action["score"] as? [String: Any] else { continue }
                    let team = try #require(score["team"] as? String)
                    let points = try #require(score["points"] as? Int)
                    if team == self.home.alias {
                        running.0 += points
                        line.home += points
                    } else {
                        running.1 += points
                        line.away += points
                    }
                    scores.append(
                        Score(
                            id: try #require(action["id"] as? String), quarter: number,
                            clock: try #require(action["clock"] as? String), team: team,
                            type: try #require(score["type"] as? String), points: points,
                            driveTeam: try #require(drive["team"] as? String), home: running.0, away: running.1))
                }
            }
            periods.append(line)
        }
        self.scores = scores
        self.periods = periods
    }

    /// The clock as the canonical feed writes it (`"07:41"` → `"7:41"`, `":41"` → `"0:41.0"`).
    static func display(_ clock: String) -> String? {
        GameClock.parse(clock.hasPrefix(":") ? "0" + clock : clock).map { GameClock.display($0, countsDown: true) }
    }

    /// The canonical kind of a `score.type`.
    static let kinds: [String: ScoringKind] = [
        "touchdown": .touchdown, "extrapoint": .extraPoint, "fieldgoal": .fieldGoal, "safety": .safety,
    ]

    /// Checks a folded state against these figures: final, line score, every scoring entry (id, quarter,
    /// clock, side, kind, points) and the running score after each.
    func check(_ state: ScoreState, format: String) {
        #expect(state.home.code == home.alias && state.away.code == away.alias)
        #expect(state.status == .closed && state.periodLabel == "Final")
        #expect(state.homeScore == home.points && state.awayScore == away.points)
        #expect(scores.last.map { [$0.home, $0.away] } == [home.points, away.points])
        #expect(state.periods.map { [$0.home, $0.away] } == periods.map { [$0.home, $0.away] })
        let scoring = state.scoring.elements
        #expect(scoring.count == scores.count)
        for (entry, score) in zip(scoring, scores) {
            #expect(entry.id == "\(format)-\(id)-\(score.id)")
            #expect(entry.period == score.quarter && entry.clock == Self.display(score.clock))
            #expect(entry.side == (score.team == home.alias ? .home : .away))
            #expect(entry.kind == Self.kinds[score.type] && entry.points == score.points)
            #expect("\(score.id) \(entry.homeScore)-\(entry.awayScore)" == "\(score.id) \(score.home)-\(score.away)")
        }
    }
}

@Suite("sportradar-nfl: Sportradar NFL play-by-play")
struct SportradarNFLTests {
    static let game = "sea-at-ne-2016-11-13"
    static func path(_ game: String) -> String { fixture("providers/sportradar-nfl/\(game).json") }

    static func convert(_ game: String) throws -> [FeedMessage] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(game)))
        return try ProviderFormats.convert([data], format: SportradarNFL.self).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    @Test func foldsToTheDocumentsOwnFigures() throws {
        let official = try SportradarNFLOfficial(Self.path(Self.game))
        let messages = try Self.convert(Self.game)
        let state = try Self.fold(messages)
        #expect(state.gameId == "sr-nfl-0cb301fa-629d-4209-a8a6-9f76dfc695be")
        #expect(state.gameId == "sr-nfl-" + official.id)
        #expect(state.home.code == "NE" && state.home.name == "New England Patriots")
        #expect(state.away.code == "SEA" && state.away.name == "Seattle Seahawks")
        #expect(state.home.code == official.home.alias && state.away.code == official.away.alias)
        #expect(state.sport == .football && state.rules.competition == "nfl")
        #expect(state.status == .closed && state.periodLabel == "Final")
        // The final: summary.home.points / summary.away.points.
        #expect(state.homeScore == 24 && state.awayScore == 31)
        #expect(state.homeScore == official.home.points && state.awayScore == official.away.points)
        // The line score: literal, and periods[].scoring.
        #expect(state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["Q1 7-6", "Q2 7-13", "Q3 7-3", "Q4 3-9"])
        #expect(state.periods.map { [$0.home, $0.away] } == official.periods.map { [$0.home, $0.away] })
        // The scoring list: kinds, sides, scorers and clocks (literal), and every stated running score.
        let scoring = state.scoring.elements
        #expect(
            scoring.map { "\($0.period) \($0.clock ?? "-") \($0.side?.rawValue ?? "-") \($0.kind) \($0.player ?? "-")" }
                == [
                    "1 10:30 home touchdown LeGarrette Blount", "1 10:19 home extraPoint Stephen Gostkowski",
                    "1 7:14 away fieldGoal Steven Hauschka", "1 1:37 away fieldGoal Steven Hauschka",
                    "2 10:56 away touchdown Doug Baldwin", "2 1:14 home touchdown LeGarrette Blount",
                    "2 1:05 home extraPoint Stephen Gostkowski", "2 0:13.0 away touchdown Doug Baldwin",
                    "2 0:06.0 away extraPoint Steven Hauschka", "3 7:58 home touchdown LeGarrette Blount",
                    "3 7:52 home extraPoint Stephen Gostkowski", "3 2:57 away fieldGoal Steven Hauschka",
                    "4 13:05 home fieldGoal Stephen Gostkowski", "4 8:59 away fieldGoal Steven Hauschka",
                    "4 4:30 away touchdown Doug Baldwin",
                ])
        Self.scoringIsOfficial(scoring, official)
        #expect(try Self.statedScoresAreFolded(messages, official) == 168)
        // Turnovers: the drives that ended in an interception, a fumble or on downs.
        let turnovers = Self.turnovers(messages)
        #expect(turnovers.count == 3)
        #expect(turnovers == official.turnoverPlays.map { "sportradar-nfl-\(official.id)-\($0)-situation" })
        let situation = try #require(state.situation)
        #expect(situation.possession == .away)
    }

    /// Checks the scoring list against the document's scoring plays: one entry each, its id and score.
    static func scoringIsOfficial(_ scoring: [ScoringPlay], _ official: SportradarNFLOfficial) {
        #expect(scoring.count == official.scoringPlays.count)
        for (entry, play) in zip(scoring, official.scoringPlays) {
            #expect(entry.id == "sportradar-nfl-\(official.id)-\(play.id)")
            #expect("\(play.id) \(entry.homeScore)-\(entry.awayScore)" == "\(play.id) \(play.home)-\(play.away)")
        }
    }

    /// The ids of the messages that say possession changed on a turnover.
    static func turnovers(_ messages: [FeedMessage]) -> [String] {
        messages.compactMap { message -> String? in
            guard case .situationChanged(_, turnover: true, _) = message.event else { return nil }
            return message.id
        }
    }

    /// Checks that every running score a play states is the fold's at that play; the number of plays.
    static func statedScoresAreFolded(_ messages: [FeedMessage], _ official: SportradarNFLOfficial) throws -> Int {
        let folded = try sportradarFoldedScores(
            messages, prefix: "sportradar-nfl-\(official.id)-", items: official.statedScores.map(\.id))
        for (at, play) in zip(folded, official.statedScores) {
            #expect("\(play.id) \(at.home)-\(at.away)" == "\(play.id) \(play.home)-\(play.away)")
        }
        #expect(official.statedScores.last.map { [$0.home, $0.away] } == [official.home.points, official.away.points])
        return folded.count
    }

    /// Super Bowl LIX, KC 22 at PHI 40 (2025-02-09, New Orleans): a second real v7 document, an excerpt
    /// (NOTICE.md): its scoring plays, each drive's last play, each period's first item and ends.
    static let superBowl = "kc-at-phi-2025-02-09"

    @Test func superBowlLIXFoldsToTheDocumentsOwnFigures() throws {
        let official = try SportradarNFLOfficial(Self.path(Self.superBowl))
        let messages = try Self.convert(Self.superBowl)
        let state = try Self.fold(messages)
        #expect(state.gameId == "sr-nfl-ca9d8f84-8e7b-4ee7-a310-54c2e3ca4edc")
        #expect(state.gameId == "sr-nfl-" + official.id)
        #expect(state.home.code == "PHI" && state.home.name == "Philadelphia Eagles")
        #expect(state.away.code == "KC" && state.away.name == "Kansas City Chiefs")
        #expect(state.home.code == official.home.alias && state.away.code == official.away.alias)
        // summary.season.type PST: the playoffs' rules.
        #expect(state.sport == .football && state.rules.competition == "nfl-playoffs")
        #expect(state.status == .closed && state.periodLabel == "Final")
        // The final: summary.home.points / summary.away.points, with no correction needed.
        #expect(state.homeScore == 40 && state.awayScore == 22)
        #expect(state.homeScore == official.home.points && state.awayScore == official.away.points)
        #expect(!messages.contains { $0.event.type == "score.corrected" })
        // The line score: literal, and periods[].scoring.
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["Q1 7-0", "Q2 17-0", "Q3 10-6", "Q4 6-16"])
        #expect(state.periods.map { [$0.home, $0.away] } == official.periods.map { [$0.home, $0.away] })
        // The scoring list: kinds, sides, scorers and clocks (literal): Cooper DeJean's interception
        // return (`int_touchdown`), the two-point conversions' receivers (not the passer).
        let scoring = state.scoring.elements
        #expect(
            scoring.map { "\($0.period) \($0.clock ?? "-") \($0.side?.rawValue ?? "-") \($0.kind) \($0.player ?? "-")" }
                == [
                    "1 6:18 home touchdown Jalen Hurts", "1 6:15 home extraPoint Jake Elliott",
                    "2 8:42 home fieldGoal Jake Elliott", "2 7:16 home touchdown Cooper DeJean",
                    "2 7:03 home extraPoint Jake Elliott", "2 1:40 home touchdown A.J. Brown",
                    "2 1:35 home extraPoint Jake Elliott", "3 5:22 home fieldGoal Jake Elliott",
                    "3 2:47 home touchdown DeVonta Smith", "3 2:40 home extraPoint Jake Elliott",
                    "3 0:43.0 away touchdown Xavier Worthy", "4 9:56 home fieldGoal Jake Elliott",
                    "4 8:05 home fieldGoal Jake Elliott", "4 2:58 away touchdown DeAndre Hopkins",
                    "4 2:54 away twoPointConversion Justin Watson", "4 1:56 away touchdown Xavier Worthy",
                    "4 1:48 away twoPointConversion DeAndre Hopkins",
                ])
        Self.scoringIsOfficial(scoring, official)
        // Every running score a kept play states.
        #expect(try Self.statedScoresAreFolded(messages, official) == 35)
        // Turnovers: two interceptions, a fumble, two turnovers on downs (the pick-six is its touchdown).
        let turnovers = Self.turnovers(messages)
        #expect(turnovers.count == 5)
        #expect(turnovers == official.turnoverPlays.map { "sportradar-nfl-\(official.id)-\($0)-situation" })
        #expect(
            messages.filter { $0.event.type == "period.ended" }.map(\.event) == (1...4).map { .periodEnded(period: $0) }
        )
        #expect(messages.last?.event == .gameEnded(.closed))
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
        // Every kept play and event states its wall clock, never going back: no message is derived; the
        // game starts at the opening kickoff's and ends at the game_over's.
        let prefix = "sportradar-nfl-\(official.id)-"
        let counts = try Self.timesAreStatedOrDerived(messages, game: Self.superBowl, prefix: prefix)
        #expect(counts.stated == counts.items && counts.items == 39)
        #expect(!messages.contains { $0.atDerived })
        #expect(messages.first { $0.event == .gameStarted }?.at == parseRFC3339("2025-02-09T23:41:27Z"))
        #expect(messages.last?.at == parseRFC3339("2025-02-10T03:17:29Z"))
    }

    /// The older shape (v1, `nfl-t1`): NE 23 at ARI 21, 2016-09-11.
    static let olderGame = "ne-at-ari-2016-09-11"

    @Test func theOlderShapeFoldsToItsOwnFigures() throws {
        let official = try SportradarV1Official(Self.path(Self.olderGame))
        let messages = try Self.convert(Self.olderGame)
        let state = try Self.fold(messages)
        official.check(state, format: SportradarNFL.name)
        #expect(state.gameId == "sr-nfl-568d84eb-874f-49f4-b77d-dc23412fb87c")
        #expect(state.home.name == "Arizona Cardinals" && state.away.name == "New England Patriots")
        #expect(state.rules.competition == "nfl" && state.homeScore == 21 && state.awayScore == 23)
        #expect(state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == ["Q1 0-10", "Q2 7-0", "Q3 7-7", "Q4 7-6"])
        #expect(
            state.scoring.elements.map { "\($0.period) \($0.clock ?? "-") \($0.kind) \($0.player ?? "-")" } == [
                "1 7:41 touchdown Chris Hogan", "1 7:34 extraPoint Stephen Gostkowski",
                "1 1:05 fieldGoal Stephen Gostkowski", "2 4:10 touchdown Larry Fitzgerald",
                "2 4:06 extraPoint Chandler Catanzaro", "3 10:10 touchdown LeGarrette Blount",
                "3 10:10 extraPoint Stephen Gostkowski", "3 4:33 touchdown David Johnson",
                "3 4:29 extraPoint Chandler Catanzaro", "4 12:40 fieldGoal Stephen Gostkowski",
                "4 9:52 touchdown Larry Fitzgerald", "4 9:46 extraPoint Chandler Catanzaro",
                "4 3:48 fieldGoal Stephen Gostkowski",
            ])
        // Time is derived (no wall clock): the scheduled start plus the game time at the play's clock.
        let first = try #require(messages.first { $0.event.type == "points.scored" })
        #expect(first.at == parseRFC3339("2016-09-12T00:37:19Z"))
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
        #expect(messages.suffix(2).map(\.event) == [.periodEnded(period: 4), .gameEnded(.closed)])
        // The situation at a snap: ARI's first play, 1st and 10 at its own 25.
        #expect(
            messages.first { $0.event.type == "situation.changed" }?.event
                == .situationChanged(
                    Situation(possession: .home, down: 1, distance: 10, yardLine: 25), turnover: false,
                    clockMs: 15 * 60_000))
        #expect(try Self.convert(Self.olderGame) == messages)
    }

    @Test func gameOrderAndTimes() throws {
        let messages = try Self.convert(Self.game)
        let prefix = "sportradar-nfl-0cb301fa-629d-4209-a8a6-9f76dfc695be-"
        #expect(messages.prefix(2).map(\.id) == [prefix + "scheduled", prefix + "started"])
        #expect(messages.first?.at == parseRFC3339("2016-11-14T01:30:00Z"))
        // The first situation: after the opening kickoff (wall clock 01:31:54), NE 1st and 10 at its own 25.
        let first = try #require(messages.first { $0.event.type == "situation.changed" })
        #expect(first.at == parseRFC3339("2016-11-14T01:31:54Z"))
        #expect(
            first.event
                == .situationChanged(
                    Situation(possession: .home, down: 1, distance: 10, yardLine: 25), turnover: false,
                    clockMs: 15 * 60_000))
        // At the SEA 35, NE's 65.
        #expect(
            messages.contains {
                $0.event
                    == .situationChanged(
                        Situation(possession: .home, down: 1, distance: 10, yardLine: 65), turnover: false,
                        clockMs: 13 * 60_000 + 6000)
            })
        #expect(messages.suffix(2).map(\.event) == [.periodEnded(period: 4), .gameEnded(.closed)])
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(messages.map(\.id)).count == messages.count)
    }

    @Test func convertingTwiceGivesTheSameMessagesWhichReadBack() throws {
        for game in [Self.game, Self.superBowl] {
            let first = try Self.convert(game)
            #expect(first == (try Self.convert(game)))
            for message in first {
                #expect(try FeedParser.parse(message.canonicalJSON()) == message)
            }
        }
    }

    /// The v7 document's items in game order with the wall clock each gives `at` (read with Foundation's
    /// JSON reader): `nil` for an item without one or with one earlier than the time before (not taken).
    static func statedTimes(_ path: String) throws -> (scheduled: Date, items: [(id: String, at: Date?)]) {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let text = try #require(root["scheduled"] as? String)
        let scheduled = try #require(parseRFC3339(text))
        var last = scheduled
        var items: [(String, Date?)] = []
        for period in try #require(root["periods"] as? [[String: Any]]) {
            for entry in try #require(period["pbp"] as? [[String: Any]]) {
                let events = entry["type"] as? String == "drive" ? entry["events"] as? [[String: Any]] ?? [] : [entry]
                for event in events {
                    let id = try #require(event["id"] as? String)
                    if let text = event["wall_clock"] as? String, let wall = parseRFC3339(text), wall >= last {
                        items.append((id, wall))
                        last = wall
                    } else {
                        items.append((id, nil))
                    }
                }
            }
        }
        return (scheduled, items.map { (id: $0.0, at: $0.1) })
    }

    /// Checks that each message of a play or event of a v7 document is at the wall clock the item
    /// states, unmarked, or marked derived where none is taken (``statedTimes(_:)``), and that
    /// `game.scheduled` is at `scheduled`, unmarked (the game's other messages, `started`, `ended`, …,
    /// are the caller's to check). The items with a wall clock taken, and all items.
    static func timesAreStatedOrDerived(
        _ messages: [FeedMessage], game: String, prefix: String
    ) throws -> (stated: Int, items: Int) {
        let (scheduled, items) = try Self.statedTimes(Self.path(game))
        let stated = Dictionary(uniqueKeysWithValues: items.compactMap { item in item.at.map { (item.id, $0) } })
        let all = Set(items.map(\.id))
        for message in messages {
            var item = String(message.id.dropFirst(prefix.count))
            for tail in ["-situation", "-period", "-corrected"] where item.hasSuffix(tail) {
                item = String(item.dropLast(tail.count))
            }
            if item == "scheduled" {
                #expect(!message.atDerived && message.at == scheduled)
            } else if let wall = stated[item] {
                #expect(!message.atDerived && message.at == wall, "\(message.id)")
            } else if all.contains(item) {
                #expect(message.atDerived, "\(message.id)")
            }
        }
        return (stated.count, items.count)
    }

    /// Issue 27 point 1: a message is marked `atDerived` exactly when its `at` is not a wall clock the
    /// document states for it.
    @Test func theTimesNotStatedByAWallClockAreMarkedDerived() throws {
        // v7: every message of a play with a wall clock is at that wall clock, unmarked; the setup (the
        // start), the period ends, a penalty without a wall clock, the play whose wall clock goes back
        // five hours (20:55:59 after 01:55:00: kept at 01:55:00) and the game's end are derived.
        let messages = try Self.convert(Self.game)
        let prefix = "sportradar-nfl-0cb301fa-629d-4209-a8a6-9f76dfc695be-"
        let counts = try Self.timesAreStatedOrDerived(messages, game: Self.game, prefix: prefix)
        #expect(counts.stated == 176 && counts.items == 183)
        #expect(
            messages.filter { $0.atDerived }.map { $0.id.dropFirst(prefix.count) } == [
                "started", "b1ee1975-01bc-4264-a1b2-e2f204e9cad4-situation", "f41a6b3a-95fc-41a9-b0bf-88ade641643b",
                "36888bef-45b7-4040-9726-0c73dd600963", "f17e417b-8ddd-4dd9-a9bb-80328ce950eb",
                "2b3a0fe3-06a9-4014-977f-00ed4d4e139b-situation", "period-4-ended", "ended",
            ])
        let back = try #require(messages.first { $0.id == prefix + "b1ee1975-01bc-4264-a1b2-e2f204e9cad4-situation" })
        #expect(back.at == parseRFC3339("2016-11-14T01:55:00Z"))
        #expect(back.canonicalJSON().contains(#""atDerived":true"#))
        // v1 (no wall clock): every message but game.scheduled (at the stated `scheduled`) is derived.
        let older = try Self.convert(Self.olderGame)
        #expect(older.first?.event.type == "game.scheduled" && older.first?.atDerived == false)
        #expect(older.first?.at == parseRFC3339("2016-09-12T00:30:00Z"))
        #expect(older.count == 165 && older.dropFirst().allSatisfy { $0.atDerived })
        // Converting twice marks the same messages, in the same canonical lines.
        for (game, first) in [(Self.game, messages), (Self.olderGame, older)] {
            let again = try Self.convert(game)
            #expect(again == first)
            #expect(again.map { $0.canonicalJSON() } == first.map { $0.canonicalJSON() })
        }
    }

    /// The written document: plays p1 and p7 state wall clocks; the others, the period end and the game
    /// over keep the time before them (derived).
    @Test func aWrittenV7DocumentMarksThePlaysWithoutAWallClock() throws {
        let messages = try ProviderFormats.convert([Data(Self.overtime.utf8)], format: SportradarNFL.self).messages
        let prefix = "sportradar-nfl-test-game-"
        #expect(
            messages.filter { !$0.atDerived }.map { $0.id.dropFirst(prefix.count) } == [
                "scheduled", "started", "p1", "p7-period", "p7",
            ])
        #expect(messages.first { $0.id == prefix + "p7" }?.at == parseRFC3339("2024-01-14T21:00:00Z"))
        #expect(messages.suffix(2).allSatisfy { $0.atDerived && $0.at == parseRFC3339("2024-01-14T21:00:00Z") })
    }

    @Test func detectsItsDocumentsOnly() throws {
        for game in [Self.game, Self.superBowl] {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(game)))
            #expect(ProviderFormats.detect(try JSONValue.parse(data))?.name == SportradarNFL.name)
        }
        let older = try Data(contentsOf: URL(fileURLWithPath: Self.path(Self.olderGame)))
        #expect(ProviderFormats.detect(try JSONValue.parse(older))?.name == SportradarNFL.name)
        #expect(!SportradarNFL.detect(.object(["plays": .array([])])))
    }

    @Test(arguments: [
        (6, "pass", true, ScoringKind.touchdown), (6, "punt", false, .touchdown), (3, "field_goal", true, .fieldGoal),
        (1, "extra_point", true, .extraPoint), (2, "conversion", true, .twoPointConversion),
        (2, "conversion", false, .defensiveConversion), (2, "rush", false, .safety),
    ])
    func kindOfARise(_ points: Int, _ playType: String, _ byOffense: Bool, _ kind: ScoringKind) {
        #expect(SportradarNFL.kind(points: points, playType: playType, byOffense: byOffense) == kind)
    }

    /// A small playoff document written for the test (no real overtime document was found): a safety, a
    /// touchdown with a two-point conversion, a defensive conversion, a tie after four quarters and an
    /// overtime field goal.
    static let overtime = """
        {"id":"test-game","status":"closed","scheduled":"2024-01-14T18:00:00+00:00",
         "summary":{"season":{"type":"PST"},"home":{"alias":"KC","name":"Chiefs","market":"Kansas City","points":10},
                    "away":{"alias":"MIA","name":"Dolphins","market":"Miami","points":13}},
         "periods":[
          {"period_type":"quarter","number":1,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p1","play_type":"rush","clock":"10:00","home_points":2,"away_points":0,
             "wall_clock":"2024-01-14T18:10:00+00:00",
             "start_situation":{"possession":{"alias":"MIA"}},
             "statistics":[{"stat_type":"defense","safety":1,"player":{"name":"Chris Jones"}}]}]}]},
          {"period_type":"quarter","number":2,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p2","play_type":"pass","clock":"5:00","home_points":2,"away_points":6,
             "start_situation":{"possession":{"alias":"MIA"}},
             "end_situation":{"clock":"4:55","down":0,"yfd":0,"possession":{"alias":"MIA"},
                              "location":{"alias":"KC","yardline":2}}},
            {"type":"play","id":"p3","play_type":"conversion","clock":"4:55","home_points":2,"away_points":8,
             "start_situation":{"possession":{"alias":"MIA"}}}]}]},
          {"period_type":"quarter","number":3,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p4","play_type":"pass","clock":"9:00","home_points":8,"away_points":8,
             "start_situation":{"possession":{"alias":"KC"}}},
            {"type":"play","id":"p5","play_type":"conversion","clock":"9:00","home_points":8,"away_points":10,
             "start_situation":{"possession":{"alias":"KC"}}}]}]},
          {"period_type":"quarter","number":4,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p6","play_type":"rush","clock":"0:30","home_points":10,"away_points":10,
             "start_situation":{"possession":{"alias":"MIA"}}}]},
            {"type":"event","id":"e1","event_type":"period_end","clock":"00:00"}]},
          {"period_type":"overtime","number":1,"pbp":[{"type":"drive","events":[
            {"type":"play","id":"p7","play_type":"field_goal","clock":"3:00","home_points":10,"away_points":13,
             "wall_clock":"2024-01-14T21:00:00+00:00","start_situation":{"possession":{"alias":"MIA"}}}]},
            {"type":"event","id":"e2","event_type":"game_over","clock":"03:00"}]}]}
        """

    @Test func overtimeConversionsAndSafetiesOnAWrittenDocument() throws {
        let messages = try ProviderFormats.convert([Data(Self.overtime.utf8)], format: nil).messages
        let state = try Self.fold(messages)
        #expect(state.rules.competition == "nfl-playoffs")
        #expect(state.status == .closed && state.periodLabel == "Final/OT")
        #expect(state.homeScore == 10 && state.awayScore == 13)
        #expect(
            state.scoring.elements.map { "\($0.side?.rawValue ?? "-") \($0.kind) \($0.points) \($0.player ?? "-")" }
                == [
                    "home safety 2 Chris Jones", "away touchdown 6 -", "away twoPointConversion 2 -",
                    "home touchdown 6 -",
                    "away defensiveConversion 2 -", "home safety 2 -", "away fieldGoal 3 -",
                ])
        #expect(
            state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == [
                "Q1 2-0", "Q2 0-8", "Q3 6-2", "Q4 2-0", "OT 0-3",
            ])
        #expect(messages.contains { $0.event == .periodStarted(period: 5, kind: .overtime) })
        #expect(messages.suffix(2).map(\.event) == [.periodEnded(period: 5), .gameEnded(.closed)])
        #expect(messages.last?.at == parseRFC3339("2024-01-14T21:00:00Z"))
        // A stated score no one play makes (four points at once) becomes score.corrected.
        let four = Self.overtime.replacingOccurrences(
            of: "\"home_points\":10,\"away_points\":13", with: "\"home_points\":10,\"away_points\":14"
        ).replacingOccurrences(of: "\"Miami\",\"points\":13", with: "\"Miami\",\"points\":14")
        let corrected = try ProviderFormats.convert([Data(four.utf8)], format: SportradarNFL.self).messages
        #expect(corrected.contains { $0.event == .scoreCorrected(homeScore: 10, awayScore: 14) })
        #expect(try Self.fold(corrected).awayScore == 14)
    }

    static func failure(_ text: String) -> ConvertError? {
        do {
            _ = try ProviderFormats.convert([Data(text.utf8)], format: SportradarNFL.self)
            return nil
        } catch { return error }
    }

    @Test func aWrongOrTruncatedDocumentNamesTheFormatAndTheField() throws {
        let noPlayType = Self.overtime.replacingOccurrences(of: "\"play_type\":\"rush\",", with: "")
        #expect(
            Self.failure(noPlayType)?.description
                == "sportradar-nfl: field \"periods[0].pbp[0].events[0].play_type\": missing (a string expected)")
        let strangeTeam = Self.overtime.replacingOccurrences(of: "{\"alias\":\"MIA\"}}", with: "{\"alias\":\"NYJ\"}}")
        #expect(Self.failure(strangeTeam)?.field == "periods[0].pbp[0].events[0].start_situation.possession.alias")
        let preseasonTypo = Self.overtime.replacingOccurrences(of: "\"PST\"", with: "\"POST\"")
        #expect(Self.failure(preseasonTypo)?.field == "summary.season.type")
        let badClock = Self.overtime.replacingOccurrences(of: "\"clock\":\"10:00\"", with: "\"clock\":\"ten\"")
        #expect(Self.failure(badClock)?.field == "periods[0].pbp[0].events[0].clock")
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(Self.game)))
        let truncated = try #require(Self.failure(String(decoding: data.prefix(data.count / 2), as: UTF8.self)))
        #expect(truncated.format == "sportradar-nfl" && truncated.reason.contains("not JSON"))
    }
}
