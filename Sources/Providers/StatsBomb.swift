import Foundation
import ScoreDomain

/// StatsBomb open data (github.com/statsbomb/open-data): a match's events file
/// `data/events/{match_id}.json`, and optionally its competition's match file
/// `data/matches/{competition}/{season}.json` (home and away, kick-off, stage). docs/providers.md
/// has the mapping: periods 1–4 are played (3 and 4 extra time), 5 is the shoot-out; `at` is derived
/// from the kick-off and the match time.
public enum StatsBomb: ProviderFormat {
    public static let name = "statsbomb"
    public static let sport = Sport.soccer
    public static let summary =
        "StatsBomb open data: data/events/{match_id}.json, optionally with data/matches/{competition}/{season}.json"
    public static let reads = JSONMemberFilter(
        words: """
            away_team away_team_id bad_behaviour card competition_stage foul_committed home_team home_team_id id
            index kick_off match_date match_id minute name outcome period player second shot team timestamp type
            """)

    /// The break before period 2, 3, 4 and 5 in seconds (the half-time rule of the derived `at`).
    static let breaks = [2: 15 * 60, 3: 5 * 60, 4: 60, 5: 5 * 60]

    public static func detect(_ document: JSONValue) -> Bool {
        guard case .array(let events) = document, case .object(let first)? = events.first,
            case .object(let type)? = first["type"]
        else { return false }
        return first["index"] != nil && first["period"] != nil && first["timestamp"] != nil && type["name"] != nil
    }

    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard let document = documents.first else { throw ConvertError(format: name, reason: "no document") }
        guard case .array(let raw) = document else {
            throw ConvertError(format: name, field: "", reason: "the events document is not an array of events")
        }
        var events: [Event] = []
        for (position, value) in raw.enumerated() {
            events.append(try Event(value, path: "[\(position)]"))
        }
        // The provider's game order is its event index; a few events carry a wrong timestamp (a ball
        // receipt at 00:00 late in a half), so the timestamp is never the sort key.
        events.sort { $0.index < $1.index }
        let teams = try startingTeams(events)
        let match = try documents.count > 1 ? Match.find(in: documents[1], teams: teams) : nil
        return try Conversion(events: events, teams: teams, match: match).messages()
    }

    /// The two teams of the Starting XI events, in document order.
    static func startingTeams(_ events: [Event]) throws(ConvertError) -> [TeamRef] {
        var teams: [TeamRef] = []
        for event in events where event.type == "Starting XI" {
            if let team = event.team, !teams.contains(where: { $0.id == team.id }) { teams.append(team) }
        }
        guard teams.count == 2 else {
            throw ConvertError(
                format: name, field: "[].type.name",
                reason: "expected Starting XI events of two teams, found \(teams.count)")
        }
        return teams
    }
}

extension StatsBomb {
    /// A team as an event names it.
    struct TeamRef: Equatable {
        var id: Int
        var name: String
    }

    /// The fields of one event the converter reads.
    struct Event {
        var path: String
        var id: String
        var index: Int
        var period: Int
        var timestampMs: Int
        var minute: Int
        var second: Int
        var type: String
        var team: TeamRef?
        var player: String?
        var object: Fields

        init(_ value: JSONValue, path: String) throws(ConvertError) {
            let fields = try Fields(value, path: path)
            self.path = path
            object = fields
            id = try fields.string("id")
            index = try fields.int("index")
            period = try fields.int("period")
            guard (1...5).contains(period) else {
                throw ConvertError(format: StatsBomb.name, field: "\(path).period", reason: "\(period) is not 1–5")
            }
            timestampMs = try StatsBomb.milliseconds(try fields.string("timestamp"), field: "\(path).timestamp")
            minute = try fields.int("minute")
            second = try fields.int("second")
            type = try fields.object("type").string("name")
            if fields.has("team") {
                let team = try fields.object("team")
                self.team = TeamRef(id: try team.int("id"), name: try team.string("name"))
            }
            player = fields.has("player") ? try fields.object("player").string("name") : nil
        }

        /// The match time as the soccer clock counts it, in milliseconds.
        var clockMs: Int { (minute * 60 + second) * 1000 }
    }

    /// `"00:47:12.345"` → milliseconds.
    static func milliseconds(_ text: String, field: String) throws(ConvertError) -> Int {
        let parts = text.split(separator: ":")
        let seconds = parts.count == 3 ? parts[2].split(separator: ".", omittingEmptySubsequences: false) : []
        guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]), let whole = seconds.first,
            let wholeSeconds = Int(whole), seconds.count <= 2
        else { throw ConvertError(format: name, field: field, reason: "\"\(text)\" is not HH:MM:SS.sss") }
        var millis = 0
        if seconds.count == 2 {
            let digits = String(seconds[1].prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)
            guard let value = Int(digits) else {
                throw ConvertError(format: name, field: field, reason: "\"\(text)\" is not HH:MM:SS.sss")
            }
            millis = value
        }
        return ((hours * 60 + minutes) * 60 + wholeSeconds) * 1000 + millis
    }
}

extension StatsBomb {
    /// A JSON object and its path, for reading fields with errors that name them.
    struct Fields {
        var members: JSONObject
        var path: String

        init(_ value: JSONValue, path: String) throws(ConvertError) {
            guard case .object(let members) = value else {
                throw ConvertError(format: StatsBomb.name, field: path, reason: "not an object")
            }
            self.members = members
            self.path = path
        }

        func has(_ key: String) -> Bool {
            if let value = members[key], value != .null { return true }
            return false
        }

        func value(_ key: String) throws(ConvertError) -> JSONValue {
            guard let value = members[key], value != .null else {
                throw ConvertError(format: StatsBomb.name, field: "\(path).\(key)", reason: "missing")
            }
            return value
        }

        func string(_ key: String) throws(ConvertError) -> String {
            guard case .string(let text) = try value(key) else {
                throw ConvertError(format: StatsBomb.name, field: "\(path).\(key)", reason: "not a string")
            }
            return text
        }

        func int(_ key: String) throws(ConvertError) -> Int {
            guard case .int(let number) = try value(key) else {
                throw ConvertError(format: StatsBomb.name, field: "\(path).\(key)", reason: "not an integer")
            }
            return number
        }

        func object(_ key: String) throws(ConvertError) -> Fields {
            try Fields(try value(key), path: "\(path).\(key)")
        }
    }

    /// The match file's entry of this match.
    struct Match {
        var id: Int
        var homeTeamId: Int
        var kickOff: Date
        var knockoutStage: Bool

        /// The entry of `document` (a match file, or one match of it) whose teams are `teams`; with two
        /// such entries (a league's home and away games), the one whose home team's Starting XI comes first.
        static func find(in document: JSONValue, teams: [TeamRef]) throws(ConvertError) -> Match {
            let entries: [JSONValue]
            switch document {
            case .array(let values): entries = values
            case .object: entries = [document]
            default: throw ConvertError(format: StatsBomb.name, field: "matches", reason: "not a match file")
            }
            var found: [Match] = []
            for (position, entry) in entries.enumerated() {
                let fields = try Fields(entry, path: "matches[\(position)]")
                let home = try fields.object("home_team").int("home_team_id")
                let away = try fields.object("away_team").int("away_team_id")
                guard Set([home, away]) == Set(teams.map(\.id)) else { continue }
                found.append(try Match(fields, homeTeamId: home))
            }
            if found.count > 1 { found = found.filter { $0.homeTeamId == teams[0].id } }
            guard found.count == 1 else {
                throw ConvertError(
                    format: StatsBomb.name, field: "matches[].home_team.home_team_id",
                    reason: "\(found.count) matches of \(teams[0].name) and \(teams[1].name) in the match file")
            }
            return found[0]
        }

        init(_ fields: Fields, homeTeamId: Int) throws(ConvertError) {
            id = try fields.int("match_id")
            self.homeTeamId = homeTeamId
            let date = try fields.string("match_date")
            let time = try fields.string("kick_off")
            let clock = try StatsBomb.milliseconds(time, field: "\(fields.path).kick_off")
            guard let day = parseRFC3339("\(date)T00:00:00Z") else {
                throw ConvertError(
                    format: StatsBomb.name, field: "\(fields.path).match_date", reason: "\"\(date)\" is not YYYY-MM-DD")
            }
            kickOff = day.addingTimeInterval(Double(clock) / 1000)
            let stage = fields.has("competition_stage") ? try fields.object("competition_stage").string("name") : nil
            knockoutStage = stage.map { !["Regular Season", "Group Stage"].contains($0) } ?? false
        }
    }
}

extension StatsBomb {
    /// One match's events turned into messages.
    struct Conversion {
        var events: [Event]
        var teams: [TeamRef]
        var match: Match?

        var gameId: String { "statsbomb-\(match.map { String($0.id) } ?? events[0].id)" }
        var homeId: Int { match?.homeTeamId ?? teams[0].id }

        func messages() throws(ConvertError) -> [FeedMessage] {
            let kickOff = match?.kickOff ?? Date(timeIntervalSince1970: 0)
            let starts = try periodStarts(kickOff: kickOff)
            let home = teams.first { $0.id == homeId } ?? teams[0]
            let away = teams.first { $0.id != homeId } ?? teams[1]
            let knockout = (match?.knockoutStage ?? false) || events.contains { $0.period >= 3 }
            guard let preset = GameRules.preset(knockout ? "knockout-soccer" : "league-soccer") else {
                throw ConvertError(format: name, reason: "no soccer preset")
            }
            var out: [FeedMessage] = []
            // Every `at` is derived but the schedule's when the match file states the kick-off.
            func add(_ suffix: String, _ at: Date, _ event: ScoreEvent, derived: Bool = true) {
                out.append(
                    FeedMessage(id: "\(gameId)-\(suffix)", gameId: gameId, at: at, event: event, atDerived: derived))
            }
            add(
                "scheduled", kickOff,
                .gameScheduled(
                    home: Team(code: TeamCode.derive(home.name), name: home.name, logo: ""),
                    away: Team(code: TeamCode.derive(away.name), name: away.name, logo: ""), startsAt: kickOff,
                    setup: GameSetup(sport: .soccer, rules: preset.rules)), derived: match == nil)
            add("started", kickOff, .gameStarted)
            var started: Set<Int> = []
            var ended: Set<Int> = []
            var lastAt = kickOff
            for event in events {
                let at = starts[event.period, default: kickOff].addingTimeInterval(Double(event.timestampMs) / 1000)
                guard let side = try mapped(event) else {
                    switch event.type {
                    case "Half Start" where started.insert(event.period).inserted:
                        add(event.id, at, .periodStarted(period: event.period, kind: kind(of: event.period)))
                        if event.period < 5 { add("\(event.id)-clock", at, .clockStarted(ms: event.clockMs)) }
                    case "Half End" where ended.insert(event.period).inserted:
                        add(event.id, at, .periodEnded(period: event.period))
                        lastAt = at
                    default: break
                    }
                    continue
                }
                add(event.id, at, side)
            }
            if let open = started.subtracting(ended).sorted().first {
                throw ConvertError(
                    format: name, field: "[\(events.count - 1)].type.name",
                    reason: "period \(open) has no Half End (a truncated document?)")
            }
            add("ended", lastAt, .gameEnded(.closed))
            return out
        }

        func kind(of period: Int) -> PeriodKind {
            switch period {
            case 1, 2: .regulation
            case 3, 4: .extraTime
            default: .shootout
            }
        }

        func side(_ event: Event) throws(ConvertError) -> Side {
            guard let team = event.team else {
                throw ConvertError(format: name, field: "\(event.path).team", reason: "missing")
            }
            guard teams.contains(team) else {
                throw ConvertError(
                    format: name, field: "\(event.path).team.id", reason: "\(team.id) is in no Starting XI")
            }
            return team.id == homeId ? .home : .away
        }

        /// The scoring play, shoot-out kick or card `event` is, if it is one.
        func mapped(_ event: Event) throws(ConvertError) -> ScoreEvent? {
            switch event.type {
            case "Shot":
                let shot = try event.object.object("shot")
                let scored = try shot.object("outcome").string("name") == "Goal"
                if event.period == 5 {
                    return .shootoutAttempt(team: try side(event), scored: scored, player: event.player)
                }
                guard scored else { return nil }
                let penalty = try shot.object("type").string("name") == "Penalty"
                return .pointsScored(
                    PointsScored(
                        team: try side(event), points: 1, kind: penalty ? .penalty : .goal, player: event.player,
                        clockMs: event.clockMs))
            case "Own Goal For":
                return .pointsScored(
                    PointsScored(
                        team: try side(event), points: 1, kind: .ownGoal, player: ownGoalScorer(event),
                        clockMs: event.clockMs))
            case "Foul Committed", "Bad Behaviour":
                let key = event.type == "Foul Committed" ? "foul_committed" : "bad_behaviour"
                guard event.object.has(key) else { return nil }
                let detail = try event.object.object(key)
                guard detail.has("card") else { return nil }
                let text = try detail.object("card").string("name")
                let card: Card
                switch text {
                case "Yellow Card": card = .yellow
                case "Second Yellow": card = .secondYellow
                case "Red Card": card = .red
                default:
                    throw ConvertError(
                        format: name, field: "\(detail.path).card.name", reason: "unknown card \"\(text)\"")
                }
                return .cardShown(
                    team: try side(event), card: card, player: event.player,
                    clockMs: event.period == 5 ? nil : event.clockMs)
            default:
                return nil
            }
        }

        /// The player of the Own Goal Against event paired with `event` (the same moment, the other team):
        /// one goal is recorded as two events, and only the Against one names the player.
        func ownGoalScorer(_ event: Event) -> String? {
            events.first {
                $0.type == "Own Goal Against" && $0.period == event.period && $0.minute == event.minute
                    && $0.second == event.second && $0.team != event.team
            }?.player
        }

        /// The derived instant each period starts at: the kick-off, plus every earlier period's length
        /// (its Half End's timestamp) and the break before the next (``StatsBomb/breaks``).
        func periodStarts(kickOff: Date) throws(ConvertError) -> [Int: Date] {
            var lengths: [Int: Int] = [:]
            for event in events where event.type == "Half End" && lengths[event.period] == nil {
                lengths[event.period] = event.timestampMs
            }
            var starts: [Int: Date] = [1: kickOff]
            var offset = 0
            for period in 2...5 {
                offset += (lengths[period - 1] ?? 0) + (breaks[period] ?? 0) * 1000
                starts[period] = kickOff.addingTimeInterval(Double(offset) / 1000)
            }
            return starts
        }
    }
}
