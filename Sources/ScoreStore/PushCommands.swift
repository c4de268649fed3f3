import LiveActivity
import PostgresClient

/// The `push_commands` table: Live Activity commands in the order they were planned.
public enum PushCommands {
    /// The APNs `timestamp` of the last command planned for each of the games that has one.
    public static func lastTimestamps(_ gameIds: [String], in session: PostgresSession) throws -> [String: Int] {
        let result = try session.query(
            """
            SELECT game_id, max(aps_timestamp) AS ts FROM push_commands
            WHERE game_id = ANY($1::text[]) GROUP BY game_id
            """, [gameIds])
        var timestamps: [String: Int] = [:]
        for row in result.rows { timestamps[try row.string("game_id")] = try row.int("ts") }
        return timestamps
    }

    /// Stores commands, each planned from the event at the global position paired with it.
    public static func insert(_ commands: [(LiveActivityCommand, Int)], in session: PostgresSession) throws {
        guard !commands.isEmpty else { return }
        try session.query(
            """
            INSERT INTO push_commands (game_id, position, version, event, priority, aps_timestamp, payload)
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::int[], $6::bigint[], $7::text[])
            """,
            [
                commands.map(\.0.gameId), commands.map(\.1), commands.map(\.0.version),
                commands.map(\.0.event.rawValue),
                commands.map(\.0.priority), commands.map(\.0.timestamp), commands.map(\.0.payload),
            ])
    }

    /// The commands planned from the events at these global positions, in planning order.
    public static func forPositions(_ positions: [Int], in session: PostgresSession) throws -> [LiveActivityCommand] {
        try decode(
            session.query(
                """
                SELECT game_id, version, event, priority, aps_timestamp, payload FROM push_commands
                WHERE position = ANY($1::bigint[]) ORDER BY id
                """, [positions]))
    }

    /// The commands of one game, in planning order.
    public static func forGame(_ gameId: String, in session: PostgresSession) throws -> [LiveActivityCommand] {
        try decode(
            session.query(
                """
                SELECT game_id, version, event, priority, aps_timestamp, payload FROM push_commands
                WHERE game_id = $1 ORDER BY id
                """, [gameId]))
    }

    private static func decode(_ result: PostgresResult) throws -> [LiveActivityCommand] {
        try result.rows.map { row in
            return LiveActivityCommand(
                gameId: try row.string("game_id"), event: try row.value("event"), priority: try row.int("priority"),
                timestamp: try row.int("aps_timestamp"), version: try row.int("version"),
                payload: try row.string("payload"))
        }
    }
}
