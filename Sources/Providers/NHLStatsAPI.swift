import Foundation
import ScoreDomain

/// The NHL's retired statsapi live feed (`statsapi.web.nhl.com/api/v1/game/{pk}/feed/live`, until 2023):
/// one document per game, its plays in `about.eventIdx` order, each with its wall clock `about.dateTime`
/// (docs/providers.md, "nhl-statsapi").
public enum NHLStatsAPI: ProviderFormat {
    public static let name = "nhl-statsapi"
    public static let sport = Sport.hockey
    public static let summary =
        "NHL statsapi live feed (statsapi.web.nhl.com/api/v1/game/{pk}/feed/live, retired 2023), one per game"
    public static let reads = JSONMemberFilter(
        words: """
            abbreviation about abstractGameState allPlays away dateTime datetime default eventId eventIdx
            eventTypeId fullName game gameData gamePk home id liveData name period periodTimeRemaining
            periodType player playerType players plays result status team teams triCode type
            """)

    /// A document with `gamePk`, `gameData.teams` and `liveData.plays.allPlays`.
    public static func detect(_ document: JSONValue) -> Bool {
        let root = DocumentNode(document, format: name)
        return (try? root.int("gamePk")) != nil && !root["gameData"]["teams"].isMissing
            && (try? root["liveData"]["plays"]["allPlays"].array()) != nil
    }

    /// The game's messages from its one live-feed document.
    /// - Throws: ``ConvertError`` naming the field it could not read, or for more than one document.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard documents.count == 1 else {
            throw ConvertError(format: name, reason: "takes one live-feed document per game, not \(documents.count)")
        }
        var writer = try NHLStatsAPIWriter(DocumentNode(documents[0], format: name))
        return try writer.messages()
    }
}

/// Reads the document and writes its messages in game order.
struct NHLStatsAPIWriter {
    private let root: DocumentNode
    private let number: Int
    private let gameId: String
    private let homeTeamId: Int
    private let awayTeamId: Int
    private var out: [FeedMessage] = []
    private var started = false
    private var period = 0
    private var periodEnded = false
    private var ended = false
    private var last: Date
    /// Whether the messages being written take a time the document does not state for them: a play's
    /// `about.dateTime` moved up to the play before it, or the end carried over from the last play.
    private var derived = false

    init(_ root: DocumentNode) throws(ConvertError) {
        self.root = root
        number = try root.int("gamePk")
        gameId = "nhl-\(number)"
        homeTeamId = try root["gameData"]["teams"]["home"]["id"].int()
        awayTeamId = try root["gameData"]["teams"]["away"]["id"].int()
        last = try root["gameData"]["datetime"]["dateTime"].instant()
    }

    private mutating func emit(_ suffix: String, _ at: Date, _ event: ScoreEvent) {
        out.append(
            FeedMessage(
                id: "\(NHLStatsAPI.name)-\(number)-\(suffix)", gameId: gameId, at: at, event: event, atDerived: derived)
        )
    }

    mutating func messages() throws(ConvertError) -> [FeedMessage] {
        let gameData = root["gameData"]
        let type = try gameData["game"]["type"].string()
        let competition: String
        switch type {
        case "PR", "R": competition = "nhl"
        case "P": competition = "nhl-playoffs"
        default:
            throw gameData["game"]["type"].failure("PR, R or P expected, found \"\(type)\"")
        }
        let startsAt = try gameData["datetime"]["dateTime"].instant()
        let setup = GameSetup(sport: .hockey, rules: GameRules.preset(competition)!.rules)
        emit(
            "scheduled", startsAt,
            .gameScheduled(
                home: try team(gameData["teams"]["home"]), away: try team(gameData["teams"]["away"]),
                startsAt: startsAt, setup: setup))
        var plays: [(index: Int, node: DocumentNode)] = []
        for node in try root["liveData"]["plays"]["allPlays"].array() {
            plays.append((try node["about"]["eventIdx"].int(), node))
        }
        // The array is in wall-clock order; eventIdx is the game's (a goal before its stoppage).
        for play in plays.enumerated().sorted(by: { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }) {
            try convert(play.element.node)
        }
        if !ended && started, try gameData["status"]["abstractGameState"].string() == "Final" {
            derived = true
            emit("ended", last, .gameEnded(.closed))
        }
        return out
    }

    /// A team: `abbreviation` (or `triCode`), `name`, no logo.
    private func team(_ node: DocumentNode) throws(ConvertError) -> Team {
        let codeNode = node["abbreviation"].present ?? node["triCode"]
        let code = try codeNode.string()
        guard code.isTeamCode else {
            throw codeNode.failure("1-8 letters or digits expected, found \"\(code)\"")
        }
        return Team(code: code, name: try node.string("name").clipped(to: 64), logo: "")
    }

    private mutating func convert(_ play: DocumentNode) throws(ConvertError) {
        let about = play["about"]
        let type = try play["result"]["eventTypeId"].string()
        let relevant = [
            "PERIOD_START", "FACEOFF", "STOP", "GOAL", "SHOT", "MISSED_SHOT", "FAILED_SHOT_ATTEMPT", "PERIOD_END",
            "GAME_END",
        ]
        guard relevant.contains(type) else { return }
        let id = String(try about.int("eventId"))
        // Wall clock, never before the play before it (the array and eventIdx orders differ by a second).
        let stated = try about["dateTime"].instant()
        derived = stated < last
        let at = max(last, stated)
        last = at
        let number = try about.int("period")
        guard (1...99).contains(number) else { throw about["period"].failure("a period 1-99 expected") }
        let periodType = try about.string("periodType")
        let kind: PeriodKind
        switch periodType {
        case "REGULAR": kind = .regulation
        case "OVERTIME": kind = .overtime
        case "SHOOTOUT": kind = .shootout
        default: throw about["periodType"].failure("REGULAR, OVERTIME or SHOOTOUT expected, found \"\(periodType)\"")
        }
        let timed = kind != .shootout
        func remaining() throws(ConvertError) -> Int { try about["periodTimeRemaining"].clock() }

        if type == "GAME_END" {
            guard started, !ended else { return }
            emit(id, at, .gameEnded(.closed))
            ended = true
            return
        }
        enter(number, kind: kind, id: id, at: at, periodStart: type == "PERIOD_START")
        switch type {
        case "FACEOFF" where timed && !periodEnded:
            emit(id, at, .clockStarted(ms: try remaining()))
        case "STOP" where timed && !periodEnded:
            emit(id, at, .clockStopped(ms: try remaining()))
        case "GOAL" where !timed:
            emit(id, at, .shootoutAttempt(team: try side(play), scored: true, player: try player(play, "Scorer")))
        case "SHOT", "MISSED_SHOT", "FAILED_SHOT_ATTEMPT":
            guard !timed else { return }
            emit(id, at, .shootoutAttempt(team: try side(play), scored: false, player: try player(play, "Shooter")))
        case "GOAL":
            let clock = try remaining()
            let scored = PointsScored(
                team: try side(play), points: 1, kind: .goal, player: try player(play, "Scorer"), clockMs: clock)
            emit(id, at, .pointsScored(scored))
            emit(id + "-clock", at, .clockStopped(ms: clock))
        case "PERIOD_END" where !periodEnded:
            if timed, try remaining() > 0 { emit(id + "-clock", at, .clockStopped(ms: try remaining())) }
            emit(id, at, .periodEnded(period: number))
            periodEnded = true
        default:
            return
        }
    }

    /// The game's and the period's start when not yet sent: a PERIOD_START play sends them under its id
    /// (`game.started` as `started`); another play sends what is missing under its id with `-game`, `-period`.
    private mutating func enter(_ number: Int, kind: PeriodKind, id: String, at: Date, periodStart: Bool) {
        if !started {
            emit(periodStart ? "started" : id + "-game", at, .gameStarted)
            started = true
            period = 1
            periodEnded = false
            if number == 1 {
                if periodStart { emit(id, at, .periodStarted(period: 1, kind: kind)) }
                return
            }
        }
        guard number > period else { return }
        emit(periodStart ? id : id + "-period", at, .periodStarted(period: number, kind: kind))
        period = number
        periodEnded = false
    }

    private func side(_ play: DocumentNode) throws(ConvertError) -> Side {
        let node = play["team"]["id"]
        let id = try node.int()
        if id == homeTeamId { return .home }
        if id == awayTeamId { return .away }
        throw node.failure("team \(id) is neither the home team (\(homeTeamId)) nor the away team (\(awayTeamId))")
    }

    /// The `fullName` of the play's player of `role` (`Scorer`, `Shooter`), when it names one.
    private func player(_ play: DocumentNode, _ role: String) throws(ConvertError) -> String? {
        for entry in try play["players"].present?.array() ?? [] where try entry.string("playerType") == role {
            return try entry["player"]["fullName"].string().clipped(to: 64)
        }
        return nil
    }
}
