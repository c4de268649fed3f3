import Foundation
import ScoreDomain

/// Sportradar's NBA play-by-play (`/nba/trial/v7/en/games/{id}/pbp.json`, also the older `nba-t3`
/// `/games/{id}/pbp.json` of the same shape): one document per game, `periods[]` with their `events[]`
/// in game order (docs/providers.md, "sportradar-nba").
///
/// Scoring comes from the running score an event states (`home_points`, `away_points`, v7), or, in a
/// document without running scores (`nba-t3`), from the made shots and free throws (`twopointmade`,
/// `threepointmade`, `freethrowmade`) of the event's team. `at` is the event's `wall_clock`, or derived
/// from the scheduled start and the game clock where the document has none.
public enum SportradarNBA: ProviderFormat {
    public static let name = "sportradar-nba"
    public static let sport = Sport.basketball
    public static let summary =
        "Sportradar NBA play-by-play (/nba/trial/v7/en/games/{id}/pbp.json, also nba-t3), one per game"
    public static let reads = JSONMemberFilter(
        words: """
            alias attribution away away_points clock default event_type events full_name home home_points id
            made market name number periods player points quarter scheduled statistics status summary type
            wall_clock
            """)

    /// A document with `id`, `scheduled`, `home.id` and `away.id`, and `periods` of `events` (or no
    /// `periods` yet, before the game).
    public static func detect(_ document: JSONValue) -> Bool {
        let root = DocumentNode(document, format: name)
        guard (try? root.string("id")) != nil, (try? root.string("scheduled")) != nil,
            (try? root["home"]["id"].string()) != nil, (try? root["away"]["id"].string()) != nil,
            root["summary"].isMissing
        else { return false }
        guard let periods = try? root["periods"].array() else { return root["periods"].isMissing }
        return periods.allSatisfy { (try? $0["events"].array()) != nil }
    }

    /// The game's messages from its one play-by-play document.
    /// - Throws: ``ConvertError`` naming the field it could not read, or for more than one document.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard documents.count == 1 else {
            throw ConvertError(
                format: name, reason: "takes one play-by-play document per game, not \(documents.count)")
        }
        let game = try SportradarNBAGame(DocumentNode(documents[0], format: name))
        var writer = SportradarNBAWriter(game: game)
        return try writer.messages()
    }

    /// The kind of a rise of `points` (3, 2 or 1), else `nil`.
    public static func kind(points: Int) -> ScoringKind? {
        switch points {
        case 3: .three
        case 2: .two
        case 1: .freeThrow
        default: nil
        }
    }

    /// The points of a made shot's `event_type`, else `nil`.
    public static func points(eventType: String) -> Int? {
        switch eventType {
        case "threepointmade": 3
        case "twopointmade": 2
        case "freethrowmade": 1
        default: nil
        }
    }

    /// The break before period `period` (the derived times' rule): 15 minutes before the third
    /// quarter, 2 minutes before any other.
    static func breakMs(before period: Int) -> Int { period == 3 ? 15 * 60_000 : 2 * 60_000 }

    /// The length of period `period`: 12 minutes a quarter, 5 an overtime.
    static func lengthMs(_ period: Int) -> Int { period <= 4 ? 12 * 60_000 : 5 * 60_000 }

    /// The derived instant of game clock `clockMs` in period `period`: the start, the periods before
    /// and their breaks, and the time played in the period.
    static func derivedAt(start: Date, period: Int, clockMs: Int) -> Date {
        var ms = 0
        for earlier in 1..<max(1, period) { ms += lengthMs(earlier) + breakMs(before: earlier + 1) }
        ms += max(0, lengthMs(period) - clockMs)
        return start.addingTimeInterval(Double(ms) / 1000)
    }
}

/// One event of the document, with its period.
struct SportradarNBAItem {
    let node: DocumentNode
    /// The period through the game: quarters 1–4, then overtime 5, 6, ….
    let period: Int
    let kind: PeriodKind
}

/// The document's game: id, teams, start, status, items in game order.
struct SportradarNBAGame {
    let uuid: String
    let gameId: String
    let home: Team
    let away: Team
    let homeId: String
    let awayId: String
    let startsAt: Date
    let status: String
    /// `home.points` / `away.points`, when given.
    let official: (home: Int, away: Int)?
    let items: [SportradarNBAItem]

    init(_ root: DocumentNode) throws(ConvertError) {
        uuid = try root.string("id")
        guard (1...57).contains(uuid.count),
            uuid.isASCIIAlphanumeric(or: UInt8(ascii: "-"))
        else { throw root["id"].failure("1-57 letters, digits or '-' expected, found \"\(uuid)\"") }
        gameId = "sr-nba-" + uuid
        startsAt = try root["scheduled"].instant()
        status = try root.string("status")
        home = try Self.team(root["home"])
        away = try Self.team(root["away"])
        homeId = try root["home"]["id"].string()
        awayId = try root["away"]["id"].string()
        if let homePoints = try root["home"]["points"].present?.int() {
            official = (homePoints, try root["away"]["points"].int())
        } else {
            official = nil
        }
        var items: [SportradarNBAItem] = []
        for period in try root["periods"].present?.array() ?? [] {
            let type = try period.string("type")
            let number = try period.int("number")
            let through: Int
            let kind: PeriodKind
            switch type {
            case "quarter" where (1...4).contains(number):
                (through, kind) = (number, .regulation)
            case "overtime" where (1...95).contains(number):
                (through, kind) = (4 + number, .overtime)
            default:
                throw period["number"].failure("a quarter 1-4 or an overtime 1-95 expected, found \(type) \(number)")
            }
            for node in try period["events"].array() {
                items.append(SportradarNBAItem(node: node, period: through, kind: kind))
            }
        }
        self.items = items
    }

    /// A team: `alias` (or a code derived from the name), `market` and `name` (`"Charlotte"`
    /// `"Hornets"`; a `name` that already holds the market, `"Utah Jazz"`, alone).
    private static func team(_ node: DocumentNode) throws(ConvertError) -> Team {
        let nickname = try node.string("name")
        let market = try node.optionalString("market")
        let name = (market.map { $0 + " " + nickname } ?? nickname).clipped(to: 64)
        let code = try node.optionalString("alias") ?? TeamCode.derive(name)
        guard code.isTeamCode else {
            throw node["alias"].failure("1-8 letters or digits expected, found \"\(code)\"")
        }
        return Team(code: code, name: name, logo: "")
    }

    /// The side of a team object of the document (its `id`).
    func side(_ node: DocumentNode) throws(ConvertError) -> Side {
        let id = try node.string("id")
        if id == homeId { return .home }
        if id == awayId { return .away }
        throw node["id"].failure(
            "team \"\(id)\" is neither the home team (\(home.code)) nor the away team (\(away.code))")
    }
}
