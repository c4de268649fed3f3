import Foundation
import PostgresClient
import ScoreDomain

/// The `score_states` projection: one row per game, written by the ``Projector`` with the global
/// position of the last event folded into it.
public enum ScoreProjection {
    private static let columns = """
        game_id, home::text AS home, away::text AS away, starts_at, home_score, away_score, inning, half, outs,
        on_first, on_second, on_third, status, version, updated_at
        """

    /// Writes the states as their games' rows in one statement, each checkpointed at the global
    /// position of the last event folded into it.
    public static func save(_ positioned: [(state: ScoreState, position: Int)], in session: PostgresSession) throws {
        guard !positioned.isEmpty else { return }
        let states = positioned.map(\.state)
        try session.query(
            """
            INSERT INTO score_states (game_id, home, away, starts_at, home_score, away_score, inning, half, outs,
                                      on_first, on_second, on_third, status, version, updated_at, position)
            SELECT g, h::jsonb, a::jsonb, sa, hs, aws, i, hf, o, b1, b2, b3, st, v, u, p
            FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::int[], $6::int[], $7::int[],
                        $8::text[], $9::int[], $10::bool[], $11::bool[], $12::bool[], $13::text[], $14::bigint[],
                        $15::timestamptz[], $16::bigint[])
                AS r(g, h, a, sa, hs, aws, i, hf, o, b1, b2, b3, st, v, u, p)
            ON CONFLICT (game_id) DO UPDATE SET
                home = EXCLUDED.home, away = EXCLUDED.away, starts_at = EXCLUDED.starts_at,
                home_score = EXCLUDED.home_score, away_score = EXCLUDED.away_score, inning = EXCLUDED.inning,
                half = EXCLUDED.half, outs = EXCLUDED.outs, on_first = EXCLUDED.on_first,
                on_second = EXCLUDED.on_second, on_third = EXCLUDED.on_third, status = EXCLUDED.status,
                version = EXCLUDED.version,
                updated_at = EXCLUDED.updated_at, position = EXCLUDED.position
            """,
            [
                states.map(\.gameId), try states.map { try teamJSON($0.home) },
                try states.map { try teamJSON($0.away) },
                states.map(\.startsAt), states.map(\.homeScore), states.map(\.awayScore), states.map(\.inningNumber),
                states.map(\.half.rawValue), states.map(\.outs), states.map(\.bases.first), states.map(\.bases.second),
                states.map(\.bases.third), states.map(\.status.rawValue), states.map(\.version),
                states.map(\.updatedAt), positioned.map(\.position),
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
    public static func all(status: GameStatus? = nil, day: Date? = nil, in session: PostgresSession) throws
        -> [ScoreState]
    {
        try positioned(status: status, day: day, in: session).map(\.state)
    }

    /// Like ``all(status:day:in:)`` (or only `gameId`), each state with the global position of the last
    /// event folded into it.
    public static func positioned(
        gameId: String? = nil, status: GameStatus? = nil, day: Date? = nil, in session: PostgresSession
    ) throws -> [(position: Int, state: ScoreState)] {
        let result = try session.query(
            """
            SELECT \(columns), position FROM score_states
            WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR game_id = $2)
              AND ($3::timestamptz IS NULL OR (starts_at >= $3 AND starts_at < $3 + interval '1 day'))
            ORDER BY starts_at DESC, game_id
            """, [status?.rawValue, gameId, day])
        return try result.rows.map { (try $0.int("position"), try decode($0)) }
    }

    /// The UTC days that have games (by `startsAt`), in order, with how many each.
    public static func days(in session: PostgresSession) throws -> [(day: String, games: Int)] {
        let result = try session.query(
            """
            SELECT to_char(starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS n
            FROM score_states GROUP BY 1 ORDER BY 1
            """)
        return try result.rows.map { (try $0.string("day"), try $0.int("n")) }
    }

    private static func decode(_ row: PostgresRow) throws -> ScoreState {
        return ScoreState(
            gameId: try row.string("game_id"), home: try team(row.string("home")), away: try team(row.string("away")),
            startsAt: try row.date("starts_at"), homeScore: try row.int("home_score"),
            awayScore: try row.int("away_score"), inningNumber: try row.int("inning"), half: try row.value("half"),
            outs: try row.int("outs"),
            bases: Bases(
                first: try row.bool("on_first"), second: try row.bool("on_second"), third: try row.bool("on_third")),
            status: try row.value("status"), version: try row.int("version"),
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
