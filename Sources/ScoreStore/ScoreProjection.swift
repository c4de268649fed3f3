import Foundation
import PostgresClient
import ScoreDomain

/// The `score_states` projection: one row per game, written in the transaction that appends the
/// event it folds, with the event's global position as its checkpoint.
public enum ScoreProjection {
    private static let columns = """
        game_id, home::text AS home, away::text AS away, starts_at, home_score, away_score, inning, half, outs,
        status, version, updated_at
        """

    /// Writes `state` as the game's row, checkpointed at global `position`.
    public static func save(_ state: ScoreState, position: Int, in session: PostgresSession) throws {
        try session.query(
            """
            INSERT INTO score_states (game_id, home, away, starts_at, home_score, away_score, inning, half, outs,
                                      status, version, updated_at, position)
            VALUES ($1, $2::jsonb, $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
            ON CONFLICT (game_id) DO UPDATE SET
                home = EXCLUDED.home, away = EXCLUDED.away, starts_at = EXCLUDED.starts_at,
                home_score = EXCLUDED.home_score, away_score = EXCLUDED.away_score, inning = EXCLUDED.inning,
                half = EXCLUDED.half, outs = EXCLUDED.outs, status = EXCLUDED.status, version = EXCLUDED.version,
                updated_at = EXCLUDED.updated_at, position = EXCLUDED.position
            """,
            [
                state.gameId, try teamJSON(state.home), try teamJSON(state.away), state.startsAt, state.homeScore,
                state.awayScore, state.inningNumber, state.half.rawValue, state.outs, state.status.rawValue,
                state.version, state.updatedAt, position,
            ])
    }

    /// The state of one game, or `nil` when the game is unknown.
    public static func load(_ gameId: String, forUpdate: Bool = false, in session: PostgresSession) throws
        -> ScoreState?
    {
        let lock = forUpdate ? " FOR UPDATE" : ""
        let result = try session.query("SELECT \(columns) FROM score_states WHERE game_id = $1\(lock)", [gameId])
        return result.count == 0 ? nil : try decode(result[0])
    }

    /// Every game, most recently scheduled first, optionally only those with `status`.
    public static func all(status: GameStatus? = nil, in session: PostgresSession) throws -> [ScoreState] {
        let result = try session.query(
            """
            SELECT \(columns) FROM score_states WHERE ($1::text IS NULL OR status = $1)
            ORDER BY starts_at DESC, game_id
            """, [status?.rawValue])
        return try result.rows.map(decode)
    }

    private static func decode(_ row: PostgresRow) throws -> ScoreState {
        guard let half = Half(rawValue: try row.string("half")),
            let status = GameStatus(rawValue: try row.string("status"))
        else {
            throw PostgresError(kind: .decoding, message: "score_states row has an unknown half or status")
        }
        return ScoreState(
            gameId: try row.string("game_id"), home: try team(row.string("home")), away: try team(row.string("away")),
            startsAt: try row.date("starts_at"), homeScore: try row.int("home_score"),
            awayScore: try row.int("away_score"), inningNumber: try row.int("inning"), half: half,
            outs: try row.int("outs"), status: status, version: try row.int("version"),
            updatedAt: try row.date("updated_at"))
    }

    private static func teamJSON(_ team: Team) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(team), as: UTF8.self)
    }

    private static func team(_ json: String) throws -> Team {
        try JSONDecoder().decode(Team.self, from: Data(json.utf8))
    }
}
