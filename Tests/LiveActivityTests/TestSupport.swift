import Foundation
import ScoreDomain

/// Shared builders for the LiveActivity tests: game "g1", home ANA, away TEX.
enum T {
    static let ana = Team(code: "ANA", name: "Los Angeles Angels", logo: "https://example.com/logos/ana.png")
    static let tex = Team(code: "TEX", name: "Texas Rangers", logo: "https://example.com/logos/tex.png")

    static func date(_ text: String) -> Date {
        guard let date = parseRFC3339(text) else { fatalError("bad test date \(text)") }
        return date
    }

    static func state(
        _ status: GameStatus, _ inning: Int = 0, _ half: Half = .top, outs: Int = 0, home: Int = 0, away: Int = 0,
        version: Int = 5, updatedAt: String = "2019-04-01T19:00:00Z"
    ) -> ScoreState {
        ScoreState(
            gameId: "g1", home: ana, away: tex, startsAt: date("2019-04-01T19:05:00Z"), homeScore: home,
            awayScore: away, inningNumber: inning, half: half, outs: outs, status: status, version: version,
            updatedAt: date(updatedAt))
    }

    /// Folds `event` at `at` onto `previous`; the planner tests trust the fold (tested in ScoreDomainTests).
    static func fold(_ previous: ScoreState?, _ event: ScoreEvent, at: String = "2019-04-01T19:05:00Z") -> ScoreState {
        let message = FeedMessage(id: "m", gameId: "g1", at: date(at), event: event)
        do {
            return try ScoreFold.apply(message, to: previous)
        } catch {
            fatalError("test setup: \(error)")
        }
    }
}
