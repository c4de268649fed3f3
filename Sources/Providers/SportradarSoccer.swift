import Foundation
import ScoreDomain

/// Sportradar Soccer's match timeline (`/soccer/trial/v4/en/sport_events/{id}/timeline.json`, and the
/// older v3 `/soccer-xt3/…/matches/{id}/timeline.json` of the same shape): `sport_event`,
/// `sport_event_status` and `timeline[]`, optionally with the match's summary (`summary.json`) as a
/// second document (docs/providers.md, "sportradar-soccer").
///
/// Goals come from the running score every `score_change` states (`home_score`, `away_score`), the
/// shoot-out from the `penalty_shootout` events and their own tally; each event's `time` is its `at`.
public enum SportradarSoccer: ProviderFormat {
    public static let name = "sportradar-soccer"
    public static let sport = Sport.soccer
    public static let summary =
        "Sportradar Soccer timeline (/soccer/trial/v4/en/sport_events/{id}/timeline.json, also v3), "
        + "optionally with the match's summary.json"
    public static let reads = JSONMemberFilter(
        words: """
            abbreviation aggregate_away_score aggregate_home_score away away_score competitor competitors
            cup_round_match_number cup_round_matches cup_round_number_of_sport_events
            cup_round_sport_event_number default goal_scorer home home_score id match_clock match_time method
            name outcome period period_scores period_type player players qualifier round scheduled sport_event
            sport_event_context sport_event_status status stoppage_time team time timeline tournament_round type
            """)

    /// A document with `sport_event.id` (`sr:…`), `sport_event.competitors` and a `timeline` array.
    public static func detect(_ document: JSONValue) -> Bool {
        let root = DocumentNode(document, format: name)
        guard let id = try? root["sport_event"]["id"].string(), id.hasPrefix("sr:") else { return false }
        return (try? root["timeline"].array()) != nil && (try? root["sport_event"]["competitors"].array()) != nil
    }

    /// The game's messages from its timeline and, optionally, its summary (in either order).
    /// - Throws: ``ConvertError`` naming the field it could not read, or for other documents.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard (1...2).contains(documents.count) else {
            throw ConvertError(
                format: name, reason: "takes a timeline and optionally its summary, not \(documents.count) documents")
        }
        let nodes = documents.map { DocumentNode($0, format: name) }
        guard let timelineIndex = nodes.firstIndex(where: { $0["timeline"].present != nil }) else {
            throw nodes[0]["timeline"].failure("missing (a timeline document expected)")
        }
        var summary: DocumentNode?
        if documents.count == 2 {
            summary = DocumentNode(documents[1 - timelineIndex], path: "summary", format: name)
        }
        let game = try SportradarSoccerGame(nodes[timelineIndex], summary: summary)
        var writer = SportradarSoccerWriter(game: game)
        return try writer.messages()
    }

    /// The card of a timeline event type: `yellow_card`, `yellow_red_card` (a second yellow), `red_card`.
    public static func card(_ type: String) -> Card? {
        switch type {
        case "yellow_card": .yellow
        case "yellow_red_card": .secondYellow
        case "red_card": .red
        default: nil
        }
    }

    /// The scoring kind of a goal's `method`: `own_goal`, `penalty`, anything else (or none) a goal.
    public static func kind(method: String?) -> ScoringKind {
        switch method {
        case "own_goal": .ownGoal
        case "penalty": .penalty
        default: .goal
        }
    }

    /// The match time of an event in milliseconds, shown as the document's minute: `match_time` 19 →
    /// 18:00 (`19'`); with `stoppage_time` 2 at `match_time` 45 → 46:00 (`45+2'`); v4's `match_clock`
    /// (`"18:35"`) when there is no stoppage time. `nil` without a `match_time`.
    public static func clockMs(matchTime: Int?, stoppage: Int?, matchClock: String?) -> Int? {
        guard let matchTime else { return nil }
        if let stoppage, stoppage > 0 { return max(0, matchTime + stoppage - 1) * 60_000 }
        if let matchClock, let ms = GameClock.parse(matchClock), ms / 60_000 + 1 == max(1, matchTime) { return ms }
        return max(0, matchTime - 1) * 60_000
    }
}

/// The document's match: id, teams, start, rules, status and timeline.
struct SportradarSoccerGame {
    let gameId: String
    let home: Team
    let away: Team
    let startsAt: Date
    /// Whether `startsAt` is the stated `sport_event.scheduled` (else the first event's time).
    let startsAtStated: Bool
    let setup: GameSetup
    /// The number of the shoot-out's period under `setup.rules`.
    let shootoutPeriod: Int
    /// `sport_event_status` (the timeline's, else the summary's).
    let status: DocumentNode?
    let events: [DocumentNode]
    /// Each event's `type`, read once (the rules' pass below reads it first).
    let types: [String]

    init(_ root: DocumentNode, summary: DocumentNode?) throws(ConvertError) {
        let event = root["sport_event"]
        gameId = try event.string("id")
        guard GameIdRule.isValid(gameId) else { throw event["id"].failure(GameIdRule.text) }
        if let summary {
            let other = try summary["sport_event"]["id"].string()
            guard other == gameId else {
                throw summary["sport_event"]["id"].failure("the summary is of \(other), the timeline of \(gameId)")
            }
        }
        events = try root["timeline"].array()
        let firstTime = try events.first?.optionalInstant("time")
        if let scheduled = event["scheduled"].present {
            startsAt = try scheduled.instant()
            startsAtStated = true
        } else if let firstTime {
            startsAt = firstTime
            startsAtStated = false
        } else {
            throw event["scheduled"].failure("missing, and the timeline has no time")
        }
        var sides: [String: Team] = [:]
        for competitor in try event["competitors"].array() {
            let qualifier = try competitor.string("qualifier")
            guard qualifier == "home" || qualifier == "away", sides[qualifier] == nil else {
                throw competitor["qualifier"].failure("one home and one away expected, found another \"\(qualifier)\"")
            }
            sides[qualifier] = try Self.team(competitor)
        }
        guard let home = sides["home"], let away = sides["away"] else {
            throw event["competitors"].failure("a home and an away competitor expected")
        }
        (self.home, self.away) = (home, away)
        status = root["sport_event_status"].present ?? summary?["sport_event_status"].present
        // The rules: extra time and a shoot-out when the match has them or is a cup round.
        var types: Set<String> = []
        var eventTypes: [String] = []
        eventTypes.reserveCapacity(events.count)
        for item in events {
            if let type = try item.optionalString("period_type") { types.insert(type) }
            let type = try item.string("type")
            if type == "penalty_shootout" { types.insert("penalties") }
            eventTypes.append(type)
        }
        self.types = eventTypes
        for score in try status?["period_scores"].present?.array() ?? [] {
            types.insert(try score.string("type"))
        }
        let round = event["tournament_round"].present ?? root["sport_event_context"]["round"]
        let legs = try (round["cup_round_matches"].present ?? round["cup_round_number_of_sport_events"].present)?.int()
        let leg = try (round["cup_round_match_number"].present ?? round["cup_round_sport_event_number"].present)?.int()
        let twoLegs = legs == 2 || status?["aggregate_home_score"].present != nil
        let knockout = legs != nil || twoLegs || types.contains("overtime") || types.contains("penalties")
        var rules = GameRules.preset(knockout ? "knockout-soccer" : "league-soccer")!.rules
        // A second leg is decided on aggregate when the document tells the first leg exactly; any
        // other leg of a two-legged tie may end tied. A shoot-out straight after the second half has
        // no extra time before it.
        if twoLegs {
            let firstLeg = leg == 1 ? nil : try Self.firstLeg(status, shootout: types.contains("penalties"))
            if let firstLeg { rules.firstLeg = firstLeg } else { rules.tieStands = true }
        }
        if types.contains("penalties") && !types.contains("overtime") { rules.overtimes = 0 }
        setup = GameSetup(sport: .soccer, rules: rules)
        shootoutPeriod = rules.periods + (rules.overtimes ?? 0) + 1
    }

    /// A competitor: `abbreviation` (or a code derived from `name`) and `name`; no logo.
    private static func team(_ node: DocumentNode) throws(ConvertError) -> Team {
        let name = try node.string("name").clipped(to: 64)
        let code = try node.optionalString("abbreviation") ?? TeamCode.derive(name)
        guard code.isTeamCode else {
            throw node["abbreviation"].failure("1-8 letters or digits expected, found \"\(code)\"")
        }
        return Team(code: code, name: name, logo: "")
    }

    /// The side of an event: v4's `competitor`, v3's `team` (`"home"`, `"away"`).
    func side(_ node: DocumentNode) throws(ConvertError) -> Side {
        let key = node.has("competitor") ? "competitor" : "team"
        switch try node.string(key) {
        case "home": return .home
        case "away": return .away
        case let other: throw node[key].failure("home or away expected, found \"\(other)\"")
        }
    }

    /// The player an event names: v4's `players[]` (the one of `role`, else the first), v3's `key`
    /// object (`goal_scorer`, `player`). Names are the document's (`"Kasa, Filip"`).
    func player(_ node: DocumentNode, role: String, key: String) throws(ConvertError) -> String? {
        if let players = try node["players"].present?.array() {
            var chosen = players.first
            for player in players where try player.optionalString("type") == role {
                chosen = player
                break
            }
            return try chosen?.optionalString("name")?.clipped(to: 64)
        }
        return try node[key].optionalString("name")?.clipped(to: 64)
    }

    /// An event's match time in milliseconds (``SportradarSoccer/clockMs(matchTime:stoppage:matchClock:)``).
    func clockMs(_ node: DocumentNode) throws(ConvertError) -> Int? {
        let stoppage: Int?
        switch node["stoppage_time"].value {
        case .string(let text)?:
            guard let number = Int(text) else {
                throw node["stoppage_time"].failure("a number of minutes expected, found \"\(text)\"")
            }
            stoppage = number
        default:
            stoppage = try node.optionalInt("stoppage_time")
        }
        return SportradarSoccer.clockMs(
            matchTime: try node.optionalInt("match_time"), stoppage: stoppage,
            matchClock: try node.optionalString("match_clock"))
    }

    /// The canonical period and kind of a `period_type` and `period`: `regular_period` 1–2, `overtime`
    /// 3–4 (extra time), `penalties` the shoot-out.
    func period(_ node: DocumentNode) throws(ConvertError) -> (number: Int, kind: PeriodKind) {
        let type = try node.string("period_type")
        let number = try node.int("period")
        switch type {
        case "regular_period" where (1...setup.rules.periods).contains(number):
            return (number, .regulation)
        case "overtime" where setup.rules.kind(ofPeriod: number, sport: .soccer) == .extraTime:
            return (number, .extraTime)
        case "penalties":
            return (shootoutPeriod, .shootout)
        default:
            throw node["period"].failure("period \(number) of type \"\(type)\" is not a half, extra time or penalties")
        }
    }
}
