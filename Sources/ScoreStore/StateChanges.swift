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

/// The `score_state_changes` table, written by the ``Projector`` with each page it applies and
/// read by the live stream. A notification on ``channel`` follows each commit that adds rows.
public enum StateChanges {
    /// The channel notified when the projector commits changes.
    public static let channel = "scorefeed_states"

    static func insert(_ changes: [StateChange], in session: PostgresSession) throws {
        guard let last = changes.last else { return }
        try session.query(
            """
            INSERT INTO score_state_changes (position, game_id, state)
            SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])
            """, [changes.map(\.position), changes.map(\.gameId), changes.map(\.state)])
        try session.query("SELECT pg_notify($1, $2)", [channel, String(last.position)])
    }

    /// Changes after `position` in position order, of one game or all.
    public static func after(
        _ position: Int, gameId: String? = nil, limit: Int = 1000, in session: PostgresSession
    ) throws -> [StateChange] {
        let result = try session.query(
            """
            SELECT position, game_id, state FROM score_state_changes
            WHERE position > $1 AND ($2::text IS NULL OR game_id = $2)
            ORDER BY position LIMIT $3
            """, [position, gameId, limit])
        return try result.rows.map {
            StateChange(
                position: try $0.int("position"), gameId: try $0.string("game_id"), state: try $0.string("state"))
        }
    }

    /// The position of the newest change, 0 when there is none.
    public static func head(in session: PostgresSession) throws -> Int {
        try session.query("SELECT coalesce(max(position), 0) AS p FROM score_state_changes")[0].int("p")
    }
}
