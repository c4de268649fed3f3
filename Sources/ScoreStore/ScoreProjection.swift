import Foundation
import PostgresClient
import ScoreDomain

/// The `score_states` projection: one row per game, written by the ``Projector`` with the global
/// position of the last event folded into it.
public enum ScoreProjection {
    /// The state is stored whole, as its canonical JSON; `starts_at` and `status` beside it are
    /// what queries filter and sort on.
    private static let columns = "state::text AS state"

    /// Writes the states as their games' rows in one statement, each checkpointed at the global
    /// position of the last event folded into it.
    public static func save(_ positioned: [(state: ScoreState, position: Int)], in session: PostgresSession) throws {
        guard !positioned.isEmpty else { return }
        let states = positioned.map(\.state)
        try session.query(
            """
            INSERT INTO score_states (game_id, starts_at, status, state, position)
            SELECT g, sa, st, s::jsonb, p
            FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::bigint[]) AS r(g, sa, st, s, p)
            ON CONFLICT (game_id) DO UPDATE SET
                starts_at = EXCLUDED.starts_at, status = EXCLUDED.status, state = EXCLUDED.state,
                position = EXCLUDED.position
            """,
            [
                states.map(\.gameId), states.map(\.startsAt), states.map(\.status.rawValue),
                states.map { $0.canonicalJSON() }, positioned.map(\.position),
            ])
    }

    /// The states of the named games that exist, by game id.
    public static func load(_ gameIds: [String], in session: PostgresSession) throws -> [String: ScoreState] {
        let result = try session.query(
            "SELECT \(columns) FROM score_states WHERE game_id = ANY($1::text[])", [gameIds])
        var states: [String: ScoreState] = [:]
        for row in result.rows {
            let state = try decode(row)
            states[state.gameId] = state
        }
        return states
    }

    /// The state of one game, or `nil` when the game is unknown.
    public static func load(_ gameId: String, in session: PostgresSession) throws -> ScoreState? {
        try load([gameId], in: session)[gameId]
    }

    /// Every game, most recently scheduled first, optionally only those with `status` or starting on
    /// the UTC day that begins at `day`.
    public static func all(status: GameStatus? = nil, during day: Range<Date>? = nil, in session: PostgresSession)
        throws -> [ScoreState]
    {
        try positioned(status: status, during: day, in: session).map(\.state)
    }

    /// Like ``all(status:day:in:)`` (or only `gameId`), each state with the global position of the last
    /// event folded into it.
    public static func positioned(
        gameId: String? = nil, status: GameStatus? = nil, during day: Range<Date>? = nil, in session: PostgresSession
    ) throws -> [(position: Int, state: ScoreState)] {
        let result = try session.query(
            """
            SELECT \(columns), position FROM score_states
            WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR game_id = $2)
              AND ($3::timestamptz IS NULL OR (starts_at >= $3 AND starts_at < $4))
            ORDER BY starts_at DESC, game_id
            """, [status?.rawValue, gameId, day?.lowerBound, day?.upperBound])
        return try result.rows.map { (try $0.int("position"), try decode($0)) }
    }

    /// The days that have games (by `startsAt` in the IANA time zone `zone`), in order, with how many each.
    public static func days(zone: String = "UTC", in session: PostgresSession) throws -> [(day: String, games: Int)] {
        let result = try session.query(
            """
            SELECT to_char(starts_at AT TIME ZONE $1, 'YYYY-MM-DD') AS day, count(*) AS n
            FROM score_states GROUP BY 1 ORDER BY 1
            """, [zone])
        return try result.rows.map { (try $0.string("day"), try $0.int("n")) }
    }

    private static func decode(_ row: PostgresRow) throws -> ScoreState {
        let text = try row.string("state")
        do {
            return try ScoreState(json: try JSONValue.parse(Data(text.utf8)))
        } catch {
            throw StoreError.corruptState(reason: "\(error)")
        }
    }
}
