import Foundation
import ScoreDomain

/// Shared builders for the ScoreDomain tests. Dates are written as RFC 3339 literals.
enum T {
    static let bos = Team(code: "BOS", name: "Boston Red Sox", logo: "https://example.com/logos/bos.png")
    static let nyy = Team(code: "NYY", name: "New York Yankees", logo: "https://example.com/logos/nyy.png")
    static let tex = Team(code: "TEX", name: "Texas Rangers", logo: "")

    /// A date from an RFC 3339 literal; crashes the test on a typo.
    static func date(_ text: String) -> Date {
        guard let date = parseRFC3339(text) else { fatalError("bad test date \(text)") }
        return date
    }

    static let startsAt = date("2019-04-01T19:05:00Z")
    static let messageAt = date("2019-04-01T20:00:00Z")

    /// A message for game "g1" at `messageAt` (or `at`).
    static func message(_ event: ScoreEvent, game: String = "g1", id: String = "m1", at: String? = nil) -> FeedMessage {
        FeedMessage(id: id, gameId: game, at: at.map(date) ?? messageAt, event: event)
    }

    /// A state of game "g1" (home BOS, away NYY) with literal fields; `updatedAt` defaults to an
    /// earlier time than `messageAt` so an accepted fold visibly changes it.
    static func state(
        _ status: GameStatus, _ inning: Int = 0, _ half: Half = .top, outs: Int = 0, home: Int = 0, away: Int = 0,
        version: Int = 5, updatedAt: String = "2019-04-01T19:30:00Z", homeTeam: Team = bos, awayTeam: Team = nyy,
        startsAt: String = "2019-04-01T19:05:00Z"
    ) -> ScoreState {
        ScoreState(
            gameId: "g1", home: homeTeam, away: awayTeam, startsAt: date(startsAt), homeScore: home, awayScore: away,
            inningNumber: inning, half: half, outs: outs, status: status, version: version,
            updatedAt: date(updatedAt))
    }
}
