import Foundation
import ScoreDomain

/// The NBA's live data (`cdn.nba.com/static/json/liveData`): `playbyplay_{gameId}.json`, with
/// `boxscore_{gameId}.json` for the teams and the start time (docs/providers.md, "nba-live").
///
/// Several play-by-play documents of one game are polls in order: the last one is the game; a made
/// shot an earlier poll had that the last one changed (a new `edited` stamp) or dropped is given
/// and then retracted.
public enum NBALive: ProviderFormat {
    public static let name = "nba-live"
    public static let sport = Sport.basketball
    public static let summary =
        "NBA live data: playbyplay_{gameId}.json (earlier polls of it first), with boxscore_{gameId}.json"
    public static let reads = JSONMemberFilter(
        words: """
            actionNumber actionType actions awayTeam clock edited game gameId gameTimeUTC homeTeam orderNumber
            period periodType playerNameI scoreAway scoreHome shotResult subType teamCity teamId teamName
            teamTricode timeActual
            """)

    public static func detect(_ document: JSONValue) -> Bool {
        guard let game = optional(document, "game") else { return false }
        if isBoxScore(document) { return optional(game, "gameTimeUTC") != nil }
        guard case .array(let actions) = optional(game, "actions"), let first = actions.first else { return false }
        return optional(first, "actionNumber") != nil && optional(first, "timeActual") != nil
    }

    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        var polls: [PlayByPlay] = []
        var box: BoxScore?
        for document in documents {
            if isBoxScore(document) {
                guard box == nil else { throw fail("game", "a second box score") }
                box = try boxScore(document)
            } else {
                polls.append(try playByPlay(document))
            }
        }
        guard let last = polls.last else { throw fail("game.actions", "no play-by-play document") }
        for poll in polls where poll.gameId != last.gameId {
            throw fail("game.gameId", "documents of two games: \(poll.gameId) and \(last.gameId)")
        }
        if let box, box.gameId != last.gameId {
            throw fail("game.gameId", "the box score is of game \(box.gameId), the play-by-play of \(last.gameId)")
        }
        guard let first = last.actions.first else { throw fail("game.actions", "no action") }
        let gameId = "nba-\(last.gameId)"
        let sides = try teams(last.actions, box: box)
        let rules = GameRules.preset("nba")!.rules
        let startsAt = box?.startsAt ?? first.at
        var messages = [
            FeedMessage(
                id: "\(name)-\(last.gameId)-scheduled", gameId: gameId, at: min(startsAt, first.at),
                event: .gameScheduled(
                    home: sides.home, away: sides.away, startsAt: startsAt,
                    setup: GameSetup(sport: .basketball, rules: rules)))
        ]
        var writer = Writer(format: name, providerGame: last.gameId, gameId: gameId, side: sides.side)
        let ghosts = try ghosts(of: polls, writer: writer)
        var pending = ghosts[...]
        for action in last.actions {
            while let ghost = pending.first, (ghost.order, ghost.number) <= (action.order, action.number) {
                messages += try writer.ghost(ghost)
                pending.removeFirst()
            }
            messages += try writer.messages(for: action)
        }
        for ghost in pending { messages += try writer.ghost(ghost) }
        return messages
    }

    /// The made shots earlier polls gave that the last one changed or dropped, in game order.
    static func ghosts(of polls: [PlayByPlay], writer: Writer) throws(ConvertError) -> [Action] {
        guard polls.count > 1, let last = polls.last else { return [] }
        let kept = Set(last.actions.filter { $0.scored != nil }.map(writer.id))
        var seen: Set<String> = []
        var ghosts: [Action] = []
        for poll in polls.dropLast() {
            for action in poll.actions where action.scored != nil {
                let id = writer.id(action)
                if !kept.contains(id), seen.insert(id).inserted { ghosts.append(action) }
            }
        }
        return ghosts.sorted { ($0.order, $0.number) < ($1.order, $1.number) }
    }

    /// The teams and which side each `teamId` plays: from the box score, or else from the first made
    /// shot of each team (whose side's running score it raises).
    static func teams(_ actions: [Action], box: BoxScore?) throws(ConvertError)
        -> (home: Team, away: Team, side: [Int: Side])
    {
        if let box {
            return (box.home.team, box.away.team, [box.home.id: .home, box.away.id: .away])
        }
        var side: [Int: Side] = [:]
        var codes: [Int: String] = [:]
        var home = 0
        var away = 0
        for action in actions {
            if let team = action.teamId, codes[team] == nil {
                guard codes.count < 2 else { throw fail("\(action.path).teamId", "a third team: \(team)") }
                codes[team] = action.tricode ?? String(team)
            }
            if let team = action.teamId, action.scored != nil, side[team] == nil {
                if let score = action.scoreHome, score > home { side[team] = .home }
                if let score = action.scoreAway, score > away { side[team] = .away }
            }
            home = action.scoreHome ?? home
            away = action.scoreAway ?? away
        }
        if side.count == 1, codes.count == 2, let (known, knownSide) = side.first,
            let other = codes.keys.first(where: { $0 != known })
        {
            side[other] = knownSide == .home ? .away : .home
        }
        guard let homeId = side.first(where: { $0.value == .home })?.key,
            let awayId = side.first(where: { $0.value == .away })?.key, let homeCode = codes[homeId],
            let awayCode = codes[awayId]
        else { throw fail("game.actions", "cannot tell the home team from the away team: give the box score") }
        return (Team(code: homeCode, name: homeCode, logo: ""), Team(code: awayCode, name: awayCode, logo: ""), side)
    }
}
