import Foundation
import ScoreDomain

/// The league of a Sportradar football document: what differs between `sportradar-nfl` and
/// `sportradar-ncaafb` (their documents have the same shapes).
enum SportradarFootballLeague: Sendable {
    /// The members either league's play-by-play is read for (``ProviderFormat/reads``).
    static let reads = JSONMemberFilter(
        words: """
            actions alias away away_points away_team category clock complete default down end_situation event_type
            events home home_points home_team id int_touchdown location market name number participants pbp
            period_type periods play_type player points possession quarter quarters safety scheduled score season
            side start_situation stat_type statistics status summary{} team touchdown type wall_clock yard_line
            yardline yfd
            """)

    case nfl
    case ncaafb

    var format: String { self == .nfl ? SportradarNFL.name : SportradarNCAAFB.name }
    var gameIdPrefix: String { self == .nfl ? "sr-nfl-" : "sr-ncaafb-" }

    /// The competition of a document whose season type is `seasonType` (`nil`: none stated, the older
    /// shape): the NFL's `PRE`/`REG` `nfl`, `PST` `nfl-playoffs`; every NCAA football game `ncaa-football`.
    func competition(_ seasonType: String?, _ node: DocumentNode) throws(ConvertError) -> String {
        guard self == .nfl else { return "ncaa-football" }
        switch seasonType {
        case nil, "PRE", "REG": return "nfl"
        case "PST": return "nfl-playoffs"
        case let other?: throw node.failure("PRE, REG or PST expected, found \"\(other)\"")
        }
    }

    /// The converter's messages of one document.
    func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard documents.count == 1 else {
            throw ConvertError(
                format: format, reason: "takes one play-by-play document per game, not \(documents.count)")
        }
        let game = try SportradarFootballGame(DocumentNode(documents[0], format: format), league: self)
        var writer = SportradarFootballWriter(game: game)
        return try writer.messages()
    }
}

/// The two shapes of Sportradar's football play-by-play (docs/providers.md, "sportradar-nfl").
enum SportradarFootballShape: Sendable {
    /// v5–v7 and `nfl-ot1`: `summary.home`/`summary.away`, `periods[]` whose `pbp[]` holds drives with
    /// `events[]`; every play states the running score (`home_points`, `away_points`).
    case periods
    /// v1 (`nfl-t1`, `ncaafb-t1`): `home_team`/`away_team` (`id` is the alias), `quarters[]` whose `pbp[]`
    /// holds drives with `actions[]`; a scoring play carries `score` (`type`, `points`, `team`).
    case quarters

    /// The shape of `document` and its home and away aliases, when it is a football play-by-play.
    static func of(_ document: JSONValue) -> (shape: Self, home: String, away: String)? {
        let root = DocumentNode(document, format: "")
        guard (try? root.string("id")) != nil, (try? root.string("scheduled")) != nil else { return nil }
        if (try? root["periods"].array()) != nil, let home = try? root["summary"]["home"]["alias"].string(),
            let away = try? root["summary"]["away"]["alias"].string()
        {
            return (.periods, home, away)
        }
        if (try? root["quarters"].array()) != nil, let home = try? root["home_team"]["id"].string(),
            let away = try? root["away_team"]["id"].string()
        {
            return (.quarters, home, away)
        }
        return nil
    }
}

/// One play or event of the document, with its period and (older shape) its drive's team.
struct SportradarFootballItem {
    let node: DocumentNode
    /// The period through the game: quarters 1–4, then overtime 5, 6, ….
    let period: Int
    let kind: PeriodKind
    /// The older shape's drive `team` (the side with the ball), `nil` outside a drive and in v7.
    let driveTeam: DocumentNode?
}

/// The document's game: id, teams, start, rules, stated final, items in game order.
struct SportradarFootballGame {
    let league: SportradarFootballLeague
    let shape: SportradarFootballShape
    let uuid: String
    let gameId: String
    let home: Team
    let away: Team
    let startsAt: Date
    let setup: GameSetup
    let status: String
    /// The final the document states (`summary.home.points` / `home_team.points`), when it does.
    let final: (home: Int, away: Int)?
    let items: [SportradarFootballItem]

    init(_ root: DocumentNode, league: SportradarFootballLeague) throws(ConvertError) {
        self.league = league
        let shape: SportradarFootballShape = root.has("quarters") ? .quarters : .periods
        self.shape = shape
        uuid = try root.string("id")
        let longest = 64 - league.gameIdPrefix.count
        guard (1...longest).contains(uuid.count),
            uuid.isASCIIAlphanumeric(or: UInt8(ascii: "-"))
        else { throw root["id"].failure("1-\(longest) letters, digits or '-' expected, found \"\(uuid)\"") }
        gameId = league.gameIdPrefix + uuid
        startsAt = try root["scheduled"].instant()
        status = try root.string("status")
        let homeNode = shape == .periods ? root["summary"]["home"] : root["home_team"]
        let awayNode = shape == .periods ? root["summary"]["away"] : root["away_team"]
        let aliasKey = shape == .periods ? "alias" : "id"
        home = try Self.team(homeNode, aliasKey: aliasKey)
        away = try Self.team(awayNode, aliasKey: aliasKey)
        if let homePoints = try homeNode.optionalInt("points") {
            final = (homePoints, try awayNode.int("points"))
        } else {
            final = nil
        }
        let season = root["summary"]["season"].present ?? root["season"]
        let seasonType = try season.optionalString("type")
        let competition = try league.competition(seasonType, season["type"])
        setup = GameSetup(sport: .football, rules: GameRules.preset(competition)!.rules)
        items = try shape == .periods ? Self.periodItems(root) : Self.quarterItems(root)
    }

    /// v7: `periods[]` (`period_type` quarter 1–4 or overtime 1–95), drives' `events[]` and loose events.
    private static func periodItems(_ root: DocumentNode) throws(ConvertError) -> [SportradarFootballItem] {
        var items: [SportradarFootballItem] = []
        for period in try root["periods"].array() {
            let type = try period.string("period_type")
            let number = try period.int("number")
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
                let entries = try entry.string("type") == "drive" ? try entry["events"].array() : [entry]
                for node in entries {
                    items.append(SportradarFootballItem(node: node, period: through, kind: kind, driveTeam: nil))
                }
            }
        }
        return items
    }

    /// v1: `quarters[]` numbered 1–4, then 5, 6, … for overtime; drives' `actions[]` and loose events.
    private static func quarterItems(_ root: DocumentNode) throws(ConvertError) -> [SportradarFootballItem] {
        var items: [SportradarFootballItem] = []
        for quarter in try root["quarters"].array() {
            let number = try quarter.int("number")
            guard (1...99).contains(number) else {
                throw quarter["number"].failure("a quarter 1-99 expected, found \(number)")
            }
            let kind: PeriodKind = number > 4 ? .overtime : .regulation
            for entry in try quarter["pbp"].array() {
                if try entry.string("type") == "drive" {
                    for node in try entry["actions"].array() {
                        items.append(
                            SportradarFootballItem(node: node, period: number, kind: kind, driveTeam: entry["team"]))
                    }
                } else {
                    items.append(SportradarFootballItem(node: entry, period: number, kind: kind, driveTeam: nil))
                }
            }
        }
        return items
    }

    /// A team: its alias (`alias`, or `id` in v1; or a code derived from the name), `market` and `name`
    /// (`"New England"` `"Patriots"`).
    private static func team(_ node: DocumentNode, aliasKey: String) throws(ConvertError) -> Team {
        let nickname = try node.string("name")
        let market = try node.optionalString("market")
        let name = (market.map { $0 + " " + nickname } ?? nickname).clipped(to: 64)
        let code = try node[aliasKey].present?.string() ?? TeamCode.derive(name)
        guard code.isTeamCode else {
            throw node[aliasKey].failure("1-8 letters or digits expected, found \"\(code)\"")
        }
        return Team(code: code, name: name, logo: "")
    }

    /// The side of a team object of the document (its `alias`).
    func side(_ node: DocumentNode) throws(ConvertError) -> Side {
        try side(code: node["alias"])
    }

    /// The side of a team alias (a string field: v1's `team`, `side`, `score.team`).
    func side(code node: DocumentNode) throws(ConvertError) -> Side {
        let alias = try node.string()
        if alias == home.code { return .home }
        if alias == away.code { return .away }
        throw node.failure(
            "team \"\(alias)\" is neither the home team (\(home.code)) nor the away team (\(away.code))")
    }

    /// The older shape's clock: `"07:41"`, or `":41"` for under a minute, in milliseconds.
    static func clock(_ node: DocumentNode) throws(ConvertError) -> Int {
        let text = try node.string()
        guard let ms = GameClock.parse(text.hasPrefix(":") ? "0" + text : text) else {
            throw node.failure("a clock \"MM:SS\" or \":SS\" expected, found \"\(text)\"")
        }
        return ms
    }
}
