import Foundation
import ScoreDomain

extension NBALive {
    /// Turns actions into messages, keeping the running score the messages make so that a stated
    /// score that differs from it becomes a `score.corrected`.
    struct Writer {
        var format: String
        var providerGame: String
        var gameId: String
        var side: [Int: Side]
        var home = 0
        var away = 0
        var started = false

        /// `nba-live-<gameId>-<actionNumber>[-<edited stamp>]`.
        func id(_ action: Action) -> String {
            var id = "\(format)-\(providerGame)-\(action.number)"
            if let stamp = action.stamp, !stamp.isEmpty { id += "-\(stamp)" }
            return id
        }

        /// The time of the last message: an action the provider ordered after a later-stamped one
        /// takes that one's time, so that times never go back in game order.
        var last = Date.distantPast

        /// A message at `at`, or at the last message's time when that is later; `atDerived` when `at` is
        /// `derived` or the later time is taken.
        mutating func message(_ id: String, _ at: Date, _ event: ScoreEvent, derived: Bool = false) -> FeedMessage {
            let taken = at < last
            last = max(last, at)
            return FeedMessage(id: id, gameId: gameId, at: last, event: event, atDerived: derived || taken)
        }

        /// A message of `action`, at its time.
        mutating func message(_ id: String, _ action: Action, _ event: ScoreEvent) -> FeedMessage {
            message(id, action.at, event, derived: action.derived)
        }

        func points(_ action: Action) throws(ConvertError) -> PointsScored? {
            guard let scored = action.scored else { return nil }
            guard let team = action.teamId else { throw fail("\(action.path).teamId", "missing on a made shot") }
            guard let side = side[team] else {
                throw fail("\(action.path).teamId", "\(team) is neither the home nor the away team")
            }
            return PointsScored(
                team: side, points: scored.points, kind: scored.kind, player: action.player, clockMs: action.clockMs)
        }

        mutating func count(_ points: PointsScored, _ sign: Int) {
            if points.team == .home { home += sign * points.points } else { away += sign * points.points }
        }

        /// The messages of one action of the last poll.
        mutating func messages(for action: Action) throws(ConvertError) -> [FeedMessage] {
            // Made only for an action that becomes a message (most do not).
            var id: String { self.id(action) }
            var messages: [FeedMessage] = []
            switch (action.type, action.subType) {
            case ("period", "start"):
                if !started {
                    started = true
                    messages.append(message(id, action, .gameStarted))
                }
                messages.append(
                    message(
                        "\(id)-period", action,
                        .periodStarted(period: action.period, kind: action.overtime ? .overtime : .regulation)))
                messages.append(message("\(id)-clock", action, .clockStarted(ms: action.clockMs)))
            case ("period", "end"):
                messages.append(message(id, action, .periodEnded(period: action.period)))
            case ("game", "end"):
                messages.append(message(id, action, .gameEnded(.closed)))
            default:
                if let points = try points(action) {
                    count(points, 1)
                    messages.append(message(id, action, .pointsScored(points)))
                }
            }
            if started, let stated = correction(action) {
                messages.insert(
                    message("\(id)-score", action, stated), at: messages.count - (action.type == "game" ? 1 : 0))
            }
            return messages
        }

        /// A `score.corrected` when the action states a running score other than the messages' one.
        mutating func correction(_ action: Action) -> ScoreEvent? {
            guard let statedHome = action.scoreHome, let statedAway = action.scoreAway,
                statedHome != home || statedAway != away
            else { return nil }
            home = statedHome
            away = statedAway
            return .scoreCorrected(homeScore: statedHome, awayScore: statedAway)
        }

        /// A made shot an earlier poll gave and the last one changed or dropped: given, then retracted.
        mutating func ghost(_ action: Action) throws(ConvertError) -> [FeedMessage] {
            guard started, let points = try points(action) else { return [] }
            let id = id(action)
            return [
                message(id, action, .pointsScored(points)),
                message("\(id)-retracted", action, .retracted(id: id, reason: "edited by the provider")),
            ]
        }
    }
}
