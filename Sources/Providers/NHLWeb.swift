import Foundation
import ScoreDomain

/// The NHL's gamecenter play-by-play of `api-web.nhle.com` (`/v1/gamecenter/{id}/play-by-play`): one
/// document per game, its plays in `sortOrder` (docs/providers.md, "nhl-web").
///
/// The document has no wall clock per play, so every `at` is derived: the scheduled start plus the game
/// time played before the play plus the intermissions (``intermission(before:playoffs:)``); a shoot-out's
/// plays a minute apart.
public enum NHLWeb: ProviderFormat {
    public static let name = "nhl-web"
    public static let sport = Sport.hockey
    public static let summary =
        "NHL api-web gamecenter play-by-play (api-web.nhle.com/v1/gamecenter/{id}/play-by-play), one per game"
    public static let reads = JSONMemberFilter(
        words: """
            abbrev awayTeam commonName default details eventId eventOwnerTeamId firstName gameScheduleState
            gameState gameType homeTeam id lastName logo name number periodDescriptor periodType placeName
            playerId plays rosterSpots scoringPlayerId shootingPlayerId sortOrder startTimeUTC timeInPeriod
            timeRemaining typeDescKey
            """)

    /// A document with `id`, `startTimeUTC`, `homeTeam.abbrev` and a `plays` array.
    public static func detect(_ document: JSONValue) -> Bool {
        let root = DocumentNode(document, format: name)
        return (try? root["plays"].array()) != nil && (try? root["homeTeam"]["abbrev"].string()) != nil
            && (try? root.int("id")) != nil && (try? root.string("startTimeUTC")) != nil
    }

    /// The game's messages from its one play-by-play document.
    /// - Throws: ``ConvertError`` naming the field it could not read, or for more than one document.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard documents.count == 1 else {
            throw ConvertError(
                format: name, reason: "takes one play-by-play document per game, not \(documents.count)")
        }
        let game = try NHLWebGame(DocumentNode(documents[0], format: name))
        var writer = NHLWebWriter(game: game)
        return try writer.messages()
    }

    /// The break before a period of `periodType` (the derived times' rule): 18 minutes before a
    /// regulation period and before a playoff overtime, 2 minutes before a regular-season overtime and
    /// before the shoot-out.
    public static func intermission(before periodType: String, playoffs: Bool) -> TimeInterval {
        switch periodType {
        case "REG": 18 * 60
        case "OT": playoffs ? 18 * 60 : 2 * 60
        default: 2 * 60
        }
    }

    /// The time between two plays of a shoot-out (the derived times' rule).
    public static let shootoutPlaySpacing: TimeInterval = 60
}

/// One play of the document, read.
struct NHLWebPlay {
    let node: DocumentNode
    let eventId: Int
    let sortOrder: Int
    let period: Int
    let periodType: String
    let type: String
    /// `timeInPeriod`, in milliseconds (0 in a shoot-out).
    let elapsedMs: Int

    init(_ node: DocumentNode) throws(ConvertError) {
        self.node = node
        eventId = try node.int("eventId")
        sortOrder = try node.int("sortOrder")
        let descriptor = node["periodDescriptor"]
        period = try descriptor.int("number")
        guard (1...99).contains(period) else { throw descriptor["number"].failure("a period 1-99 expected") }
        periodType = try descriptor.string("periodType")
        guard periodType == "REG" || periodType == "OT" || periodType == "SO" else {
            throw descriptor["periodType"].failure("REG, OT or SO expected, found \"\(periodType)\"")
        }
        type = try node.string("typeDescKey")
        elapsedMs = periodType == "SO" ? 0 : try node["timeInPeriod"].clock()
    }

    var kind: PeriodKind {
        switch periodType {
        case "REG": .regulation
        case "OT": .overtime
        default: .shootout
        }
    }

    var isShootout: Bool { periodType == "SO" }
}

/// The document's game: teams, start, rules, roster, plays in game order.
struct NHLWebGame {
    let number: Int
    let gameId: String
    let home: Team
    let away: Team
    let homeTeamId: Int
    let awayTeamId: Int
    let startsAt: Date
    let setup: GameSetup
    let playoffs: Bool
    let gameState: String
    let scheduleState: String?
    /// Player id to "First Last".
    let roster: [Int: String]
    let plays: [NHLWebPlay]

    init(_ root: DocumentNode) throws(ConvertError) {
        number = try root.int("id")
        gameId = "nhl-\(number)"
        let gameType = try root.int("gameType")
        switch gameType {
        case 1, 2: playoffs = false
        case 3: playoffs = true
        default:
            throw root["gameType"].failure(
                "1 (preseason), 2 (regular season) or 3 (playoffs) expected, found \(gameType)")
        }
        setup = GameSetup(
            sport: .hockey, rules: GameRules.preset(playoffs ? "nhl-playoffs" : "nhl")!.rules)
        startsAt = try root["startTimeUTC"].instant()
        gameState = try root.string("gameState")
        scheduleState = try root.optionalString("gameScheduleState")
        (home, homeTeamId) = try Self.team(root["homeTeam"])
        (away, awayTeamId) = try Self.team(root["awayTeam"])
        var roster: [Int: String] = [:]
        for spot in try root["rosterSpots"].present?.array() ?? [] {
            let first = try spot["firstName"].text()
            let last = try spot["lastName"].text()
            roster[try spot.int("playerId")] = (first + " " + last).clipped(to: 64)
        }
        self.roster = roster
        let nodes = try root["plays"].array()
        var plays: [NHLWebPlay] = []
        plays.reserveCapacity(nodes.count)
        for node in nodes { plays.append(try NHLWebPlay(node)) }
        // Ids are not in game order; sortOrder is (stable for equal sortOrders). Sorted only when not
        // already: the sort's numbered copies were 25 MB of a 50 MB document's peak memory.
        if zip(plays, plays.dropFirst()).contains(where: { $0.sortOrder > $1.sortOrder }) {
            plays = plays.enumerated().sorted { ($0.element.sortOrder, $0.offset) < ($1.element.sortOrder, $1.offset) }
                .map(\.element)
        }
        self.plays = plays
    }

    /// A team: `abbrev`, the place and the common name (`"Seattle"` `"Kraken"`), the light logo.
    private static func team(_ node: DocumentNode) throws(ConvertError) -> (Team, Int) {
        let code = try node.string("abbrev")
        guard code.isTeamCode else {
            throw node["abbrev"].failure("1-8 letters or digits expected, found \"\(code)\"")
        }
        let common = try (node["commonName"].present ?? node["name"]).text()
        let place = try node["placeName"].present?.text()
        let name = (place.map { $0 + " " + common } ?? common).clipped(to: 64)
        let logo = String((try node.optionalString("logo") ?? "").prefix(512))
        return (Team(code: code, name: name, logo: logo), try node.int("id"))
    }

    /// The side of a team id of the document.
    func side(_ node: DocumentNode) throws(ConvertError) -> Side {
        let id = try node.int()
        if id == homeTeamId { return .home }
        if id == awayTeamId { return .away }
        throw node.failure("team \(id) is neither the home team (\(homeTeamId)) nor the away team (\(awayTeamId))")
    }

    /// The instant each period starts at, derived: the scheduled start, then each period's start plus
    /// the game time played in it (its latest `timeInPeriod`; a shoot-out: a minute per play) plus the
    /// intermission before the next.
    func periodStarts() -> [Int: Date] {
        var lengths: [Int: TimeInterval] = [:]
        var order: [(period: Int, type: String)] = []
        for play in plays {
            if lengths[play.period] == nil { order.append((play.period, play.periodType)) }
            // A shoot-out's plays are a minute apart: its length grows by one per play.
            let length =
                play.isShootout
                ? (lengths[play.period] ?? 0) + NHLWeb.shootoutPlaySpacing
                : max(lengths[play.period] ?? 0, TimeInterval(play.elapsedMs) / 1000)
            lengths[play.period] = length
        }
        var starts: [Int: Date] = [:]
        var next = startsAt
        for (index, entry) in order.enumerated() {
            if index > 0 { next += NHLWeb.intermission(before: entry.type, playoffs: playoffs) }
            starts[entry.period] = next
            next += lengths[entry.period] ?? 0
        }
        return starts
    }
}

/// Turns the game's plays into messages, in game order.
struct NHLWebWriter {
    let game: NHLWebGame
    private var out: [FeedMessage] = []
    private var started = false
    private var period = 0
    private var periodEnded = false
    private var ended = false

    init(game: NHLWebGame) {
        self.game = game
    }

    /// A message; every `at` but the schedule's (`startTimeUTC`) is derived (`atDerived`).
    private mutating func emit(_ suffix: String, _ at: Date, _ event: ScoreEvent, derived: Bool = true) {
        out.append(
            FeedMessage(
                id: "\(NHLWeb.name)-\(game.number)-\(suffix)", gameId: game.gameId, at: at, event: event,
                atDerived: derived))
    }

    mutating func messages() throws(ConvertError) -> [FeedMessage] {
        emit(
            "scheduled", game.startsAt,
            .gameScheduled(home: game.home, away: game.away, startsAt: game.startsAt, setup: game.setup),
            derived: false)
        let starts = game.periodStarts()
        var indexInPeriod: [Int: Int] = [:]
        var last = game.startsAt
        for play in game.plays {
            let index = indexInPeriod[play.period, default: 0]
            indexInPeriod[play.period] = index + 1
            let periodStart = starts[play.period] ?? game.startsAt
            let at =
                play.isShootout
                ? periodStart + TimeInterval(index) * NHLWeb.shootoutPlaySpacing
                : periodStart + TimeInterval(play.elapsedMs) / 1000
            last = max(last, at)
            try convert(play, at: at)
        }
        if !ended {
            switch (game.scheduleState, game.gameState) {
            case ("PPD"?, _) where !started: emit("ended", last, .gameEnded(.postponed))
            case ("CNCL"?, _) where !started: emit("ended", last, .gameEnded(.cancelled))
            case (_, "OFF"), (_, "FINAL"): if started { emit("ended", last, .gameEnded(.closed)) }
            default: break
            }
        }
        return out
    }

    private mutating func convert(_ play: NHLWebPlay, at: Date) throws(ConvertError) {
        switch play.type {
        case "period-start", "goal", "shot-on-goal", "missed-shot", "failed-shot-attempt", "period-end", "game-end":
            break
        default:
            return  // most plays (faceoffs, hits, stoppages) say nothing of the score
        }
        let id = String(play.eventId)
        let details = play.node["details"]
        switch play.type {
        case "period-start":
            enter(play, at: at, periodStart: true)
        case "goal" where play.isShootout:
            enter(play, at: at, periodStart: false)
            let side = try game.side(details["eventOwnerTeamId"])
            emit(id, at, .shootoutAttempt(team: side, scored: true, player: try player(details["scoringPlayerId"])))
        case "shot-on-goal", "missed-shot", "failed-shot-attempt":
            guard play.isShootout else { return }
            enter(play, at: at, periodStart: false)
            let side = try game.side(details["eventOwnerTeamId"])
            emit(id, at, .shootoutAttempt(team: side, scored: false, player: try player(details["shootingPlayerId"])))
        case "goal":
            enter(play, at: at, periodStart: false)
            let side = try game.side(details["eventOwnerTeamId"])
            let scored = PointsScored(
                team: side, points: 1, kind: .goal, player: try player(details["scoringPlayerId"]),
                clockMs: try play.node["timeRemaining"].clock())
            emit(id, at, .pointsScored(scored))
        case "period-end":
            enter(play, at: at, periodStart: false)
            guard !periodEnded else { return }
            if !play.isShootout {
                let remaining = try play.node["timeRemaining"].clock()
                // An overtime ended by a goal: the clock stopped where the goal left it.
                if remaining > 0 { emit(id + "-clock", at, .clockStopped(ms: remaining)) }
            }
            emit(id, at, .periodEnded(period: play.period))
            periodEnded = true
        case "game-end":
            guard started, !ended else { return }
            emit(id, at, .gameEnded(.closed))
            ended = true
        default:
            return
        }
    }

    /// Before a play of period `play.period`: the game's start and the period's start when they have not
    /// been sent. A period-start play sends them under its id (`game.started` as `started`), with the clock
    /// started; any other play sends what is missing, without a clock start, under its id with `-game`
    /// and `-period`.
    private mutating func enter(_ play: NHLWebPlay, at: Date, periodStart: Bool) {
        let id = String(play.eventId)
        if !started {
            emit(periodStart ? "started" : id + "-game", at, .gameStarted)
            started = true
            period = 1
            periodEnded = false
            // game.started begins period 1; its period-start play confirms it and starts the clock.
            if play.period == 1 {
                if periodStart { begin(play, at: at) }
                return
            }
        }
        guard play.period > period else { return }
        if periodStart {
            begin(play, at: at)
        } else {
            emit(id + "-period", at, .periodStarted(period: play.period, kind: play.kind))
        }
        period = play.period
        periodEnded = false
    }

    /// A period-start play: `period.started` and, in a timed period, `clock.started` (`-clock`).
    private mutating func begin(_ play: NHLWebPlay, at: Date) {
        let id = String(play.eventId)
        emit(id, at, .periodStarted(period: play.period, kind: play.kind))
        if !play.isShootout, let remaining = try? play.node["timeRemaining"].clock() {
            emit(id + "-clock", at, .clockStarted(ms: remaining))
        }
    }

    /// The name of a player id from the roster, when the field and the player are there.
    private func player(_ node: DocumentNode) throws(ConvertError) -> String? {
        guard let node = node.present else { return nil }
        return game.roster[try node.int()]
    }
}
