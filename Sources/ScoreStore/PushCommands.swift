import LiveActivity
import PostgresClient

/// The `push_commands` table: Live Activity commands in the order they were planned.
public enum PushCommands {
    /// The APNs `timestamp` of the last command planned for a game, if any.
    public static func lastTimestamp(_ gameId: String, in session: PostgresSession) throws -> Int? {
        let result = try session.query(
            "SELECT max(aps_timestamp) AS ts FROM push_commands WHERE game_id = $1", [gameId])
        return try result[0].optionalInt("ts")
    }

    /// Stores a command planned from the event at global `position`.
    public static func insert(_ command: LiveActivityCommand, position: Int, in session: PostgresSession) throws {
        try session.query(
            """
            INSERT INTO push_commands (game_id, position, version, event, priority, aps_timestamp, payload)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                command.gameId, position, command.version, command.event.rawValue, command.priority, command.timestamp,
                command.payload,
            ])
    }

    /// The commands of one game, in planning order.
    public static func forGame(_ gameId: String, in session: PostgresSession) throws -> [LiveActivityCommand] {
        let result = try session.query(
            """
            SELECT game_id, version, event, priority, aps_timestamp, payload FROM push_commands
            WHERE game_id = $1 ORDER BY id
            """, [gameId])
        return try result.rows.map { row in
            guard let event = LiveActivityEvent(rawValue: try row.string("event")) else {
                throw PostgresError(kind: .decoding, message: "push_commands row has an unknown event")
            }
            return LiveActivityCommand(
                gameId: try row.string("game_id"), event: event, priority: try row.int("priority"),
                timestamp: try row.int("aps_timestamp"), version: try row.int("version"),
                payload: try row.string("payload"))
        }
    }
}
