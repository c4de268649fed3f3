import Foundation
import ScoreDomain

/// An API 2.0 fixture read into the form ``SportmonksV3Writer`` sends (docs/providers.md,
/// "sportmonks-v2"), and the end of a game postponed or cancelled.
struct SportmonksV2Fixture {
    let fixture: SportmonksV3Fixture
    let ending: GameStatus?

    init(_ root: DocumentNode) throws(ConvertError) {
        let fixtureId = try root.int("id")
        let ids = (home: try root.int("localteam_id"), away: try root.int("visitorteam_id"))
        let home = try Self.team(root["localTeam"], id: ids.home)
        let away = try Self.team(root["visitorTeam"], id: ids.away)
        let time = root["time"]
        let startsAt = try Self.kickOff(time["starting_at"])
        let status = try time.string("status")
        guard let state = SportmonksV2.state(status: status, minute: try time.optionalInt("minute")) else {
            throw time["status"].failure(
                "a status of a game not started, in play, finished, postponed or cancelled expected, "
                    + "found \"\(status)\"")
        }
        ending = state.ending
        let events = try Self.events(root, fixtureId: fixtureId, ids: ids)
        let scoresNode = root["scores"]
        var scores: [String: (home: Int, away: Int, node: DocumentNode)] = [:]
        if let home = try scoresNode.optionalInt("localteam_score"),
            let away = try scoresNode.optionalInt("visitorteam_score")
        {
            scores["CURRENT"] = (home, away, scoresNode["localteam_score"])
        }
        let extraTime =
            events.contains { (3...4).contains($0.period) } || [6, 23, 7].contains(state.stateId)
            || scoresNode.has("et_score")
        let shootout =
            events.contains { $0.period == 5 } || [9, 8].contains(state.stateId) || scoresNode.has("ps_score")
        if shootout {
            // The pair of pen scores, else `ps_score` (`"4-3"`); a pair of 0s beside no shoot-out is not one
            // (fixture 1685506, a 1–1 league game, states `0` and `0`).
            if let home = try scoresNode.optionalInt("localteam_pen_score"),
                let away = try scoresNode.optionalInt("visitorteam_pen_score")
            {
                scores["PENALTY_SHOOTOUT"] = (home, away, scoresNode["localteam_pen_score"])
            } else if let text = try scoresNode.optionalString("ps_score") {
                let tally = try SportmonksV3Fixture.score(text, scoresNode["ps_score"])
                scores["PENALTY_SHOOTOUT"] = (tally.home, tally.away, scoresNode["ps_score"])
            }
        }
        let leg = try root.optionalString("leg") ?? "1/1"
        // API 2.0 gives no first leg: a leg of a two-legged tie may end level (`tieStands`).
        let setup = SportmonksV3Fixture.setup(
            leg: leg, twoLegs: leg.hasSuffix("/2") || root.has("aggregate_id"), extraTime: extraTime,
            shootout: shootout, firstLeg: nil)
        fixture = SportmonksV3Fixture(
            format: SportmonksV2.name, fixtureId: fixtureId, home: home, away: away, startsAt: startsAt,
            stateId: state.stateId, stateNode: time["status"], setup: setup, extraTime: extraTime, scores: scores,
            events: events)
    }

    /// `localTeam`/`visitorTeam`'s `data` (`name`, `short_code` or one derived from the name, `logo_path`);
    /// without the include, `Sportmonks team <id>` and the code ``TeamCode/numbered(_:)`` of its id.
    static func team(_ include: DocumentNode, id: Int) throws(ConvertError) -> Team {
        let node = include["data"]
        guard node.present != nil else {
            return Team(code: TeamCode.numbered(id), name: "Sportmonks team \(id)", logo: "")
        }
        guard try node.int("id") == id else {
            throw node["id"].failure("the team \(id) of the fixture expected")
        }
        let name = try node.string("name").clipped(to: 64)
        let code = try node.optionalString("short_code") ?? TeamCode.derive(name)
        guard code.isTeamCode else {
            throw node["short_code"].failure("1-8 letters or digits expected, found \"\(code)\"")
        }
        return Team(code: code, name: name, logo: try node.optionalString("logo_path") ?? "")
    }

    /// `time.starting_at.timestamp` (Unix seconds).
    static func kickOff(_ node: DocumentNode) throws(ConvertError) -> Date {
        let seconds = try node.int("timestamp")
        guard seconds > 0 else { throw node["timestamp"].failure("a Unix time expected, found \(seconds)") }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// The `events` include, else the `goals` and `cards` includes (a document without `events`), of the
    /// types converted, in game order.
    static func events(_ root: DocumentNode, fixtureId: Int, ids: (home: Int, away: Int)) throws(ConvertError)
        -> [SportmonksV3Event]
    {
        let lists: [DocumentNode] =
            root.has("events") ? [root["events"]["data"]] : [root["goals"]["data"], root["cards"]["data"]]
        var events: [SportmonksV3Event] = []
        for list in lists where list.present != nil {
            for node in try list.array() {
                guard let typeId = SportmonksV2.eventTypes[try node.string("type")] else { continue }
                if let fixture = try node.optionalInt("fixture_id"), fixture != fixtureId {
                    throw node["fixture_id"].failure("an event of fixture \(fixtureId) expected, found \(fixture)")
                }
                let side = try Self.side(node["team_id"], ids: ids)
                // A goal states the running score (`"1-0"`); other events `null` or `""`.
                var result: (home: Int, away: Int)?
                if (14...16).contains(typeId), let text = try node.optionalString("result"), !text.isEmpty {
                    result = try SportmonksV3Fixture.score(text, node["result"])
                }
                events.append(
                    try SportmonksV3Event(node, typeId: typeId, side: side, result: result, rescinded: false))
            }
        }
        events.sort { ($0.period, $0.minute, $0.extraMinute, $0.id) < ($1.period, $1.minute, $1.extraMinute, $1.id) }
        return events
    }

    /// An event's `team_id`: a string of digits (`"7980"`, as API 2.0 gives it) or an integer, the home
    /// or the visitor team's.
    static func side(_ node: DocumentNode, ids: (home: Int, away: Int)) throws(ConvertError) -> Side {
        let id: Int
        switch node.value {
        case .int(let number)?: id = number
        case .string(let text)?:
            guard let number = Int(text) else { throw node.failure("a team id expected, found \"\(text)\"") }
            id = number
        default: id = try node.int()
        }
        switch id {
        case ids.home: return .home
        case ids.away: return .away
        default:
            throw node.failure("\(id) is neither the home (\(ids.home)) nor the visitor team (\(ids.away))")
        }
    }
}
