import Foundation
import ScoreDomain

extension SportradarSoccerGame {
    /// A second leg's first-leg goals of this match's sides: `sport_event_status`'s
    /// `aggregate_home_score`/`aggregate_away_score` less the match's own score (its final, or the
    /// current score of a live document; 0-0 before the kick-off). `nil` when the status does not
    /// state both, when the difference is not a score (0–99 each), and when the match ended level on
    /// aggregate without a shoot-out (a tie decided on away goals, which the canonical rules do not
    /// have): the leg then keeps `tieStands` (docs/providers.md, "sportradar-soccer").
    static func firstLeg(_ status: DocumentNode?, shootout: Bool) throws(ConvertError) -> SideTally? {
        guard let status, let aggregateHome = try status.optionalInt("aggregate_home_score") else { return nil }
        let aggregateAway = try status.int("aggregate_away_score")
        let state = try status.optionalString("status")
        var score = (home: 0, away: 0)
        if let home = try status.optionalInt("home_score") {
            score = (home, try status.int("away_score"))
        } else if state != "not_started" {
            return nil
        }
        let leg = SideTally(home: aggregateHome - score.home, away: aggregateAway - score.away)
        guard (0...99).contains(leg.home), (0...99).contains(leg.away) else { return nil }
        let ended = ["closed", "ended", "complete"].contains(state ?? "")
        if ended && aggregateHome == aggregateAway && !shootout { return nil }
        return leg
    }
}
