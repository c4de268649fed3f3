import Foundation
import ScoreDomain

/// NBA stats `playbyplayv3` (`stats.nba.com/stats/playbyplayv3?GameID=…`) with `boxscoresummaryv2`
/// of the same game for the date, the teams and the official line score (docs/providers.md,
/// "nba-stats-v3"). The play-by-play has no wall-clock times: `at` is derived (see the section).
public enum NBAStatsV3: ProviderFormat {
    public static let name = "nba-stats-v3"
    public static let sport = Sport.basketball
    public static let summary =
        "NBA stats playbyplayv3 of a game, with its boxscoresummaryv2 or leaguegamefinder rows (date, teams)"
    public static let reads = JSONMemberFilter(
        words: """
            GAME_DATE_EST GAME_ID GAME_STATUS_TEXT HOME_TEAM_ID MATCHUP TEAM_ABBREVIATION TEAM_CITY_NAME TEAM_ID
            TEAM_NAME TEAM_NICKNAME VISITOR_TEAM_ID WL actionId actionNumber actionType actions boxscoresummary
            clock description game gameId headers leaguegamefinderparameters name period playerNameI resource
            resultSets rowSet scoreAway scoreHome shotValue subType teamId timeActual videoAvailable
            """)

    public static func detect(_ document: JSONValue) -> Bool {
        if isSummary(document) { return true }
        guard let game = NBALive.optional(document, "game"), NBALive.optional(game, "videoAvailable") != nil,
            case .array(let actions) = NBALive.optional(game, "actions"), let first = actions.first
        else { return false }
        return NBALive.optional(first, "actionId") != nil && NBALive.optional(first, "timeActual") == nil
    }

    static func fail(_ field: String, _ reason: String) -> ConvertError {
        ConvertError(format: name, field: field, reason: reason)
    }

    /// Whether the document gives the date and the teams: `boxscoresummaryv2` or `leaguegamefinder`.
    static func isSummary(_ document: JSONValue) -> Bool {
        isBoxScoreSummary(document) || isGameFinder(document)
    }

    static func isBoxScoreSummary(_ document: JSONValue) -> Bool {
        if case .string("boxscoresummary") = NBALive.optional(document, "resource") { return true }
        return false
    }

    static func isGameFinder(_ document: JSONValue) -> Bool {
        if case .string("leaguegamefinderparameters") = NBALive.optional(document, "resource") { return true }
        return false
    }

    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        var pbp: JSONValue?
        var summaryDocument: JSONValue?
        for document in documents {
            if isSummary(document) { summaryDocument = document } else { pbp = document }
        }
        guard let pbp else { throw fail("game.actions", "no playbyplayv3 document") }
        guard let summaryDocument else {
            throw fail("resultSets", "no boxscoresummaryv2 or leaguegamefinder document (the date)")
        }
        let summary: Summary
        let actions: [NBALive.Action]
        let providerGame: String
        do {
            let game = try NBALive.member(pbp, "game", "")
            providerGame = try NBALive.string(game, "gameId", "game")
            summary =
                isGameFinder(summaryDocument)
                ? try Summary(gameFinder: summaryDocument, game: providerGame) : try Summary(summaryDocument)
            actions = try Self.actions(game, day: summary.day)
        } catch {
            throw ConvertError(format: name, field: error.field, reason: error.reason)
        }
        guard providerGame == summary.gameId else {
            throw fail("game.gameId", "the summary is of game \(summary.gameId), the play-by-play of \(providerGame)")
        }
        guard let first = actions.first else { throw fail("game.actions", "no action") }
        let gameId = "nba-\(providerGame)"
        var writer = NBALive.Writer(
            format: name, providerGame: providerGame, gameId: gameId,
            side: [summary.home.id: .home, summary.away.id: .away])
        var messages = [
            writer.message(
                "\(name)-\(providerGame)-scheduled", first.at,
                .gameScheduled(
                    home: summary.home.team, away: summary.away.team, startsAt: first.at,
                    setup: GameSetup(sport: .basketball, rules: GameRules.preset("nba")!.rules)),
                derived: first.derived)
        ]
        do {
            for action in actions { messages += try writer.messages(for: action) }
        } catch {
            throw ConvertError(format: name, field: error.field, reason: error.reason)
        }
        // No game-end action: the game ends with the last period's end when the summary says Final.
        if summary.final, let last = actions.last, last.type == "period", last.subType == "end" {
            // Its time is the period end's, carried over: derived.
            messages.append(
                writer.message("\(name)-\(providerGame)-end", last.at, .gameEnded(.closed), derived: true))
        }
        return messages
    }
}
