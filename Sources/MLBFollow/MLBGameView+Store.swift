import LiveFollow
import MLBFeed
import ScoreStore

extension GameStore {
    /// The MLB differ's view of a game rebuilt from its stream in the event log, so a restarted
    /// follower (or a second replay) continues where the log is: same versions, same message ids.
    /// - Throws: a database error, or ``StoreError`` when the stream does not fold.
    public func view(gamePk: Int) async throws -> MLBGameView {
        let events = try await stream(MLBSnapshot.gameId(gamePk))
        do {
            return try MLBGameView(gamePk: gamePk, replaying: events.map(\.message))
        } catch {
            throw StoreError.corruptEvent(position: events.last?.position ?? 0, reason: "\(error)")
        }
    }
}
