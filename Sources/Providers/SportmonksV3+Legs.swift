import Foundation
import ScoreDomain

extension SportmonksV3Fixture {
    /// A second leg's first-leg goals of this game's sides (docs/providers.md, "sportmonks-v3"):
    /// the `aggregate` include's first leg (`aggregate.fixtures[]` with `leg` `1/2` and its `CURRENT`
    /// scores by participant id), else, once the game is over, the aggregate's `result` (in the order
    /// of its `name`, `"<team> vs <team>"`) less the game's `CURRENT`. `nil` when the document does
    /// not tell it exactly (no such include, names that are not the participants', a difference that
    /// is not a score) and when the game ended level on aggregate without a shoot-out (a tie decided
    /// on away goals, which the canonical rules do not have): the leg then keeps `tieStands`.
    static func firstLeg(
        _ root: DocumentNode, ids: (home: Int, away: Int), names: (home: String, away: String),
        current: (home: Int, away: Int)?, final: Bool, shootout: Bool
    ) throws(ConvertError) -> SideTally? {
        let aggregate = root["aggregate"]
        guard aggregate.present != nil else { return nil }
        var leg: SideTally?
        var first: DocumentNode?
        for fixture in try aggregate["fixtures"].present?.array() ?? []
        where try fixture.optionalString("leg") == "1/2" {
            first = fixture
            break
        }
        if let first {
            var goals: [Int: Int] = [:]
            for entry in try first["scores"].present?.array() ?? []
            where try entry.string("description") == "CURRENT" {
                goals[try entry.int("participant_id")] = try entry["score"]["goals"].int()
            }
            if let home = goals[ids.home], let away = goals[ids.away] { leg = SideTally(home: home, away: away) }
        } else if final, let current, let text = try aggregate.optionalString("result"),
            let name = try aggregate.optionalString("name")
        {
            let result = try score(text, aggregate["result"])
            if name == "\(names.home) vs \(names.away)" {
                leg = SideTally(home: result.home - current.home, away: result.away - current.away)
            } else if name == "\(names.away) vs \(names.home)" {
                leg = SideTally(home: result.away - current.home, away: result.home - current.away)
            }
        }
        guard let leg, (0...99).contains(leg.home), (0...99).contains(leg.away) else { return nil }
        if final, let current, !shootout, current.home + leg.home == current.away + leg.away { return nil }
        return leg
    }
}
