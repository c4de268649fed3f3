import Foundation
import PostgresClient
import ScoreDomain

/// One change of the `score_states` projection: a game's state after the event at `position`.
public struct StateChange: Sendable, Equatable {
    /// Global position of the event that made the change.
    public var position: Int
    public var gameId: String
    /// Canonical JSON of the state (``ScoreState/canonicalJSON()``).
    public var state: String

    public init(position: Int, gameId: String, state: String) {
        self.position = position
        self.gameId = gameId
        self.state = state
    }
}

/// The changes of the projection, as the live stream reads them: derived from the event log (each
/// game's state after each of its events, folded again), up to the projector's checkpoint, so
/// nothing is stored twice. A notification on ``channel`` follows each commit of the projector.
public enum StateChanges {
    /// The channel notified when the projector commits changes.
    public static let channel = "scorefeed_states"

    /// Each game's state after its latest event read so far: spares re-reading a stream's start
    /// when a follower reads changes again and again (the live stream's feed).
    public typealias Cache = [String: (version: Int, state: ScoreState)]

    /// Tells the live streams that the projector committed changes up to `position`.
    static func notify(upTo position: Int, in session: PostgresSession) throws {
        try session.query("SELECT pg_notify($1, $2)", [channel, String(position)])
    }

    /// The most changes ``after(_:gameId:limit:in:)`` reads at once: a shorter page is all there was.
    public static let pageSize = 1000

    /// Changes after `position` in position order, of one game or all, at most `limit`, never past
    /// the projector's checkpoint.
    public static func after(
        _ position: Int, gameId: String? = nil, limit: Int = pageSize, in session: PostgresSession
    ) throws -> [StateChange] {
        var cache = Cache()
        return try after(position, gameId: gameId, limit: limit, cache: &cache, in: session)
    }

    /// ``after(_:gameId:limit:in:)`` using and updating `cache`.
    /// - Throws: ``StoreError/corruptEvent(position:reason:)`` when the fold refuses a stored event.
    public static func after(
        _ position: Int, gameId: String? = nil, limit: Int = pageSize, cache: inout Cache,
        in session: PostgresSession
    ) throws -> [StateChange] {
        let checkpoint = try Projector.checkpoint(in: session)
        guard checkpoint > position else { return [] }
        let events =
            try gameId.map { try EventLog.readStream($0, afterPosition: position, limit: limit, in: session) }
            ?? EventLog.readAll(afterPosition: position, limit: limit, in: session)
        var changes: [StateChange] = []
        changes.reserveCapacity(events.count)
        for event in events where event.position <= checkpoint {
            let game = event.message.gameId
            var previous: ScoreState?
            if let cached = cache[game], cached.version == event.version - 1 {
                previous = cached.state
            } else if event.version > 1 {
                previous = try state(of: game, before: event.version, in: session)
            }
            let next: ScoreState
            do {
                next = try ScoreFold.apply(event.message, to: previous)
            } catch {
                throw StoreError.corruptEvent(position: event.position, reason: "the fold refuses it: \(error)")
            }
            cache[game] = (event.version, next)
            changes.append(StateChange(position: event.position, gameId: game, state: next.canonicalJSON()))
        }
        return changes
    }

    /// The game's state after the events before `version`, folded from its stream.
    private static func state(of gameId: String, before version: Int, in session: PostgresSession) throws
        -> ScoreState?
    {
        var state: ScoreState?
        for event in try EventLog.readStream(gameId, in: session) where event.version < version {
            do {
                state = try ScoreFold.apply(event.message, to: state)
            } catch {
                throw StoreError.corruptEvent(position: event.position, reason: "the fold refuses it: \(error)")
            }
        }
        return state
    }

    /// The position of the newest change: the projector's checkpoint (0 before any).
    public static func head(in session: PostgresSession) throws -> Int {
        try Projector.checkpoint(in: session)
    }
}
