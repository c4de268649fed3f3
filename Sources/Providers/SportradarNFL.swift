import Foundation
import ScoreDomain

/// Sportradar's NFL play-by-play (`/nfl/official/trial/v7/en/games/{id}/pbp.json`, also the older
/// `nfl-ot1` feed of the same shape): one document per game, `periods[]` with their `pbp[]` of drives
/// (each with its `events[]`) and loose events, in game order (docs/providers.md, "sportradar-nfl").
///
/// Scoring comes from the running score every play states (`home_points`, `away_points`): the side whose
/// score went up, the kind from the rise and the play type. Each play's `wall_clock` is its `at` (a play
/// without one keeps the time before it); `clock` is the game clock at the snap.
public enum SportradarNFL: ProviderFormat {
    public static let name = "sportradar-nfl"
    public static let sport = Sport.football
    public static let summary =
        "Sportradar NFL play-by-play (/nfl/official/trial/v7/en/games/{id}/pbp.json), one per game"

    /// A document with `id`, `scheduled`, `summary.home.alias` and a `periods` array.
    public static func detect(_ document: JSONValue) -> Bool {
        let root = DocumentNode(document, format: name)
        return (try? root["periods"].array()) != nil && (try? root["summary"]["home"]["alias"].string()) != nil
            && (try? root["id"].string()) != nil && (try? root["scheduled"].string()) != nil
    }

    /// The game's messages from its one play-by-play document.
    /// - Throws: ``ConvertError`` naming the field it could not read, or for more than one document.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard documents.count == 1 else {
            throw ConvertError(
                format: name, reason: "takes one play-by-play document per game, not \(documents.count)")
        }
        let game = try SportradarNFLGame(DocumentNode(documents[0], format: name))
        var writer = SportradarNFLWriter(game: game)
        return try writer.messages()
    }

    /// The kind of a rise of `points` on a play of `playType` by the side with (`byOffense`) or without
    /// the ball: 6 a touchdown, 3 a field goal, 1 an extra point, 2 a two-point conversion (a defensive
    /// one for the side without the ball) on a conversion play and a safety on any other; else `nil`.
    public static func kind(points: Int, playType: String, byOffense: Bool) -> ScoringKind? {
        switch points {
        case 6: .touchdown
        case 3: .fieldGoal
        case 1: .extraPoint
        case 2 where playType == "conversion": byOffense ? .twoPointConversion : .defensiveConversion
        case 2: .safety
        default: nil
        }
    }
}

/// One play or event of the document, with its period.
struct SportradarNFLItem {
    let node: DocumentNode
    /// The period through the game: quarters 1–4, then overtime 5, 6, ….
    let period: Int
    let kind: PeriodKind
}

/// The document's game: id, teams, start, rules, items in game order.
struct SportradarNFLGame {
    let uuid: String
    let gameId: String
    let home: Team
    let away: Team
    let startsAt: Date
    let setup: GameSetup
    let status: String
    let items: [SportradarNFLItem]

    init(_ root: DocumentNode) throws(ConvertError) {
        uuid = try root["id"].string()
        guard (1...57).contains(uuid.count),
            uuid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { throw root["id"].failure("1-57 letters, digits or '-' expected, found \"\(uuid)\"") }
        gameId = "sr-nfl-" + uuid
        startsAt = try root["scheduled"].instant()
        status = try root["status"].string()
        let season = root["summary"]["season"].present ?? root["season"]
        let seasonType = try season["type"].string()
        guard ["PRE", "REG", "PST"].contains(seasonType) else {
            throw season["type"].failure("PRE, REG or PST expected, found \"\(seasonType)\"")
        }
        let competition = seasonType == "PST" ? "nfl-playoffs" : "nfl"
        setup = GameSetup(sport: .football, rules: GameRules.preset(competition)!.rules)
        home = try Self.team(root["summary"]["home"])
        away = try Self.team(root["summary"]["away"])
        var items: [SportradarNFLItem] = []
        for period in try root["periods"].array() {
            let type = try period["period_type"].string()
            let number = try period["number"].int()
            let through: Int
            let kind: PeriodKind
            switch type {
            case "quarter":
                (through, kind) = (number, .regulation)
            case "overtime":
                (through, kind) = (4 + number, .overtime)
            default:
                throw period["period_type"].failure("quarter or overtime expected, found \"\(type)\"")
            }
            guard (1...99).contains(through), type == "overtime" || number <= 4 else {
                throw period["number"].failure("a quarter 1-4 or an overtime 1-95 expected, found \(number)")
            }
            for entry in try period["pbp"].array() {
                let entries = try entry["type"].string() == "drive" ? try entry["events"].array() : [entry]
                for node in entries { items.append(SportradarNFLItem(node: node, period: through, kind: kind)) }
            }
        }
        self.items = items
    }

    /// A team: `alias` (or a code derived from the name), `market` and `name` (`"New England"`
    /// `"Patriots"`).
    private static func team(_ node: DocumentNode) throws(ConvertError) -> Team {
        let nickname = try node["name"].string()
        let market = try node["market"].present?.string()
        let name = String((market.map { $0 + " " + nickname } ?? nickname).prefix(64))
        let code = try node["alias"].present?.string() ?? TeamCode.derive(name)
        guard (1...8).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw node["alias"].failure("1-8 letters or digits expected, found \"\(code)\"")
        }
        return Team(code: code, name: name, logo: "")
    }

    /// The side of a team object of the document (its `alias`).
    func side(_ node: DocumentNode) throws(ConvertError) -> Side {
        let alias = try node["alias"].string()
        if alias == home.code { return .home }
        if alias == away.code { return .away }
        throw node["alias"].failure(
            "team \"\(alias)\" is neither the home team (\(home.code)) nor the away team (\(away.code))")
    }
}
