import Foundation
import ScoreDomain
import Testing

/// The score the converted messages fold to at each of a Sportradar document's plays or events, in game
/// order: the state after the last message of that item, or of the items before it (`items`: the ids in
/// game order). A message belongs to the item its id names after `prefix` (`sportradar-nba-<game>-`),
/// less a suffix (`-situation`, `-period-ended`, `-period`, `-corrected`); the game's own messages
/// (`started`, `corrected`, `ended`, …) to none.
func sportradarFoldedScores(_ messages: [FeedMessage], prefix: String, items: [String]) throws -> [(
    id: String, home: Int, away: Int
)] {
    let known = Set(items)
    var after: [String: (Int, Int)] = [:]
    var state: ScoreState?
    for message in messages {
        let next = try ScoreFold.apply(message, to: state)
        state = next
        var item = String(message.id.dropFirst(prefix.count))
        for tail in ["-situation", "-period-ended", "-period", "-corrected"] where item.hasSuffix(tail) {
            item = String(item.dropLast(tail.count))
        }
        #expect(message.id.hasPrefix(prefix), "\(message.id)")
        if known.contains(item) { after[item] = (next.homeScore, next.awayScore) }
    }
    var current = (0, 0)
    return items.map { id in
        if let score = after[id] { current = score }
        return (id: id, home: current.0, away: current.1)
    }
}
