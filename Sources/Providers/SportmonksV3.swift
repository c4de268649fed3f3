import Foundation
import ScoreDomain

/// Sportmonks Football API 3.0: a fixture by id with its participants, scores and events
/// (`GET /v3/football/fixtures/{id}?include=participants;scores;events`), one document per game, with or
/// without the `data` envelope (docs/providers.md, "sportmonks-v3").
///
/// The events come in no game order (neither by id nor in the array): the converter orders them by the
/// period their minute falls in, the minute, the stoppage minute and the id. A goal's `result` is the
/// running score the provider states. The document has no wall clock per event: `at` is derived from
/// `starting_at` and the match minute.
public enum SportmonksV3: ProviderFormat {
    public static let name = "sportmonks-v3"
    public static let sport = Sport.soccer
    public static let summary =
        "Sportmonks Football API 3.0: /v3/football/fixtures/{id}?include=participants;scores;events, one per game"
    public static let reads = JSONMemberFilter(
        words: """
            CURRENT PENALTY_SHOOTOUT aggregate aggregate_id away data default description ended events
            extra_minute fixtures goals home id image_path leg location meta minute name participant
            participant_id participants player_name rescinded result score scores short_code started starting_at
            state_id type_id
            """)

    /// A fixture object (or `{"data": fixture}`) with `id`, `starting_at`, a `participants` array whose
    /// first entry has `meta.location`, and an `events` or `scores` array.
    public static func detect(_ document: JSONValue) -> Bool {
        let root = SportmonksV3Fixture.root(DocumentNode(document, format: name))
        guard (try? root.int("id")) != nil, (try? root.string("starting_at")) != nil,
            let participants = try? root["participants"].array(),
            (try? participants.first?["meta"]["location"].string()) != nil
        else { return false }
        return (try? root["events"].array()) != nil || (try? root["scores"].array()) != nil
    }

    /// The game's messages from its one fixture document.
    /// - Throws: ``ConvertError`` naming the field it could not read, or for more than one document.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard documents.count == 1 else {
            throw ConvertError(format: name, reason: "takes one fixture document per game, not \(documents.count)")
        }
        let fixture = try SportmonksV3Fixture(DocumentNode(documents[0], format: name))
        var writer = SportmonksV3Writer(fixture: fixture)
        return try writer.messages()
    }

    /// The period a match minute falls in: 1–45 the first half, 46–90 the second, 91–105 and 106–120
    /// the halves of extra time (Sportmonks keeps `minute` at the period's last minute in stoppage time
    /// and counts the rest in `extra_minute`: `45` + `1` is in the first half).
    public static func period(ofMinute minute: Int) -> Int {
        switch minute {
        case ...45: 1
        case 46...90: 2
        case 91...105: 3
        default: 4
        }
    }
}

/// One event of the document the converter reads, with its place in the game.
struct SportmonksV3Event {
    let node: DocumentNode
    let id: Int
    let typeId: Int
    let side: Side
    /// 1–4 by the minute; 5 for the shoot-out's kicks.
    let period: Int
    let minute: Int
    let extraMinute: Int
    let player: String?
    /// The running score the event states (`"2-0"`, home first), if it states one.
    let result: (home: Int, away: Int)?
    let rescinded: Bool

    /// The match time the event's minute stands for, in milliseconds: minute `m` with `e` stoppage
    /// minutes is the clock's minute `m + e` (`45` + `1` shows `45+1'`).
    var clockMs: Int { max(0, minute + extraMinute - 1) * 60_000 }

    /// The shoot-out's kicks (`pen_shootout_miss` 22, `pen_shootout_goal` 23).
    static let shootoutTypes: Set<Int> = [22, 23]
}

extension SportmonksV3Event {
    /// The event of `node` (v3, or API 2.0 read as v3): its `id`, `minute` (0–130) with `extra_minute`
    /// (0–30), `player_name`, and the period its minute (or a shoot-out kick) stands for.
    init(
        _ node: DocumentNode, typeId: Int, side: Side, result: (home: Int, away: Int)?, rescinded: Bool
    ) throws(ConvertError) {
        let minute = try node.int("minute")
        let extra = try node.optionalInt("extra_minute") ?? 0
        guard (0...130).contains(minute), (0...30).contains(extra) else {
            throw node["minute"].failure("a minute 0-130 with 0-30 stoppage minutes expected")
        }
        self.init(
            node: node, id: try node.int("id"), typeId: typeId, side: side,
            period: Self.shootoutTypes.contains(typeId) ? 5 : SportmonksV3.period(ofMinute: minute), minute: minute,
            extraMinute: extra, player: try node.optionalString("player_name"), result: result, rescinded: rescinded)
    }
}

/// The fixture: id, teams, start, state, the stated scores and the events in game order. Read from a
/// v3 document here, from an API 2.0 fixture by ``SportmonksV2`` (the same writer sends both).
struct SportmonksV3Fixture {
    /// The format's name, the message ids' prefix (`sportmonks-v3`, `sportmonks-v2`).
    let format: String
    let fixtureId: Int
    let gameId: String
    let home: Team
    let away: Team
    let startsAt: Date
    let stateId: Int
    let stateNode: DocumentNode
    let setup: GameSetup
    /// Whether extra time was (or is being) played: an event in its minutes, a state of extra time or
    /// after it, or a `scores` entry of it (a description starting `ET` or holding `EXTRA`).
    let extraTime: Bool
    /// The `scores` entries by `description` (`CURRENT`, `1ST_HALF`, `PENALTY_SHOOTOUT`, …), each
    /// with the node of its last entry's goals (for errors).
    let scores: [String: (home: Int, away: Int, node: DocumentNode)]
    let events: [SportmonksV3Event]

    /// The fixture object: the document's `data`, or the document itself.
    static func root(_ document: DocumentNode) -> DocumentNode {
        if case .object? = document["data"].value { return document["data"] }
        return document
    }

    init(_ document: DocumentNode) throws(ConvertError) {
        let root = Self.root(document)
        format = SportmonksV3.name
        fixtureId = try root.int("id")
        gameId = "sportmonks-\(fixtureId)"
        startsAt = try Self.instant(root["starting_at"])
        stateId = try root.int("state_id")
        stateNode = root["state_id"]
        var teams: [String: (id: Int, team: Team, name: String)] = [:]
        for participant in try root["participants"].array() {
            let location = try participant["meta"]["location"].string()
            guard location == "home" || location == "away", teams[location] == nil else {
                throw participant["meta"]["location"].failure("one home and one away participant expected")
            }
            teams[location] = (
                try participant.int("id"), try Self.team(participant), try participant.string("name")
            )
        }
        guard let home = teams["home"], let away = teams["away"] else {
            throw root["participants"].failure("a home and an away participant expected")
        }
        self.home = home.team
        self.away = away.team
        let leg = try root.optionalString("leg") ?? "1/1"
        let aggregate = root.has("aggregate_id")
        var scores: [String: (home: Int, away: Int, node: DocumentNode)] = [:]
        for entry in try root["scores"].present?.array() ?? [] {
            let description = try entry.string("description")
            let goals = try entry["score"]["goals"].int()
            var tally = scores[description] ?? (0, 0, entry)
            switch try entry["score"]["participant"].string() {
            case "home": tally.home = goals
            case "away": tally.away = goals
            default: throw entry["score"]["participant"].failure("home or away expected")
            }
            tally.node = entry["score"]["goals"]
            scores[description] = tally
        }
        self.scores = scores
        var events: [SportmonksV3Event] = []
        for node in try root["events"].present?.array() ?? [] {
            let participant = try node.int("participant_id")
            let side: Side
            switch participant {
            case home.id: side = .home
            case away.id: side = .away
            default:
                throw node["participant_id"].failure(
                    "\(participant) is neither the home (\(home.id)) nor the away participant (\(away.id))")
            }
            let typeId = try node.int("type_id")
            var result: (home: Int, away: Int)?
            if let text = try node.optionalString("result") {
                result = try Self.score(text, node["result"])
            }
            var rescinded = false
            if case .bool(let value)? = node["rescinded"].value { rescinded = value }
            events.append(
                try SportmonksV3Event(node, typeId: typeId, side: side, result: result, rescinded: rescinded))
        }
        events.sort { ($0.period, $0.minute, $0.extraMinute, $0.id) < ($1.period, $1.minute, $1.extraMinute, $1.id) }
        self.events = events
        extraTime =
            events.contains { (3...4).contains($0.period) } || [6, 21, 23, 7].contains(stateId)
            || scores.keys.contains { $0.hasPrefix("ET") || $0.contains("EXTRA") }
        let shootout =
            events.contains { $0.period == 5 } || scores["PENALTY_SHOOTOUT"] != nil || [8, 9].contains(stateId)
        let twoLegs = leg.hasSuffix("/2") || aggregate
        let current = scores["CURRENT"].map { (home: $0.home, away: $0.away) }
        let firstLeg =
            twoLegs && leg == "2/2"
            ? try Self.firstLeg(
                root, ids: (home.id, away.id), names: (home.name, away.name), current: current,
                final: [5, 7, 8].contains(stateId), shootout: shootout)
            : nil
        setup = Self.setup(leg: leg, twoLegs: twoLegs, extraTime: extraTime, shootout: shootout, firstLeg: firstLeg)
    }

    /// A fixture read from another shape of document (``SportmonksV2``), its events already in game order.
    init(
        format: String, fixtureId: Int, home: Team, away: Team, startsAt: Date, stateId: Int,
        stateNode: DocumentNode, setup: GameSetup, extraTime: Bool,
        scores: [String: (home: Int, away: Int, node: DocumentNode)], events: [SportmonksV3Event]
    ) {
        self.format = format
        self.fixtureId = fixtureId
        gameId = "sportmonks-\(fixtureId)"
        self.home = home
        self.away = away
        self.startsAt = startsAt
        self.stateId = stateId
        self.stateNode = stateNode
        self.setup = setup
        self.extraTime = extraTime
        self.scores = scores
        self.events = events
    }

    /// The game's rules: `knockout-soccer` for a leg other than `1/1` (or of a two-legged tie), extra
    /// time or a shoot-out, else `league-soccer`. A second leg is decided on aggregate when the
    /// document tells the first leg exactly (`firstLeg`); any other leg of a two-legged tie may end
    /// level. A shoot-out straight after the second half has no extra time before it.
    static func setup(leg: String, twoLegs: Bool, extraTime: Bool, shootout: Bool, firstLeg: SideTally?) -> GameSetup {
        var rules = GameRules.preset(
            twoLegs || leg != "1/1" || extraTime || shootout ? "knockout-soccer" : "league-soccer")!
            .rules
        if twoLegs {
            if let firstLeg { rules.firstLeg = firstLeg } else { rules.tieStands = true }
        }
        if shootout && !extraTime { rules.overtimes = 0 }
        return GameSetup(sport: .soccer, rules: rules)
    }

    /// `"2025-05-25 15:00:00"` (UTC, as the API gives it by default) or an RFC 3339 instant.
    static func instant(_ node: DocumentNode) throws(ConvertError) -> Date {
        let text = try node.string()
        let rfc = text.count == 19 ? text.replacingOccurrences(of: " ", with: "T") + "Z" : text
        guard let date = parseRFC3339(rfc) else {
            throw node.failure("\"YYYY-MM-DD HH:MM:SS\" (UTC) expected, found \"\(text)\"")
        }
        return date
    }

    /// `"3-1"` → (3, 1).
    static func score(_ text: String, _ node: DocumentNode) throws(ConvertError) -> (home: Int, away: Int) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let home = Int(parts[0]), let away = Int(parts[1]), home >= 0, away >= 0 else {
            throw node.failure("a score \"home-away\" expected, found \"\(text)\"")
        }
        return (home, away)
    }

    /// A participant: `short_code` the code (or one derived from the name), `name`, `image_path` the logo.
    static func team(_ node: DocumentNode) throws(ConvertError) -> Team {
        let name = try node.string("name").clipped(to: 64)
        let code = try node.optionalString("short_code") ?? TeamCode.derive(name)
        guard code.isTeamCode else {
            throw node["short_code"].failure("1-8 letters or digits expected, found \"\(code)\"")
        }
        return Team(code: code, name: name, logo: try node.optionalString("image_path") ?? "")
    }
}
