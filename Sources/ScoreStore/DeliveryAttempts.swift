import PostgresClient

/// The one history of what did not succeed (`delivery_attempts`, schema 0027): an attempt of a push to
/// a target, a broadcast or a push-to-start that was retried, failed, deactivated its target or was
/// released. A success is kept on the message's own row, not here.
enum DeliveryAttempts {
    /// The outbox a message is in: the column of `delivery_attempts` that names it.
    enum Message: String {
        case push = "push_id"
        case broadcast = "broadcast_id"
        case start = "start_id"
    }

    /// Adds one row per attempt, in one statement.
    static func insert(
        _ message: Message, ids: [Int], statuses: [Int?], reasons: [String?], outcomes: [String],
        in tx: PostgresSession
    ) throws {
        guard !ids.isEmpty else { return }
        try tx.query(
            """
            INSERT INTO delivery_attempts (\(message.rawValue), status, reason, outcome)
            SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[])
            """, [ids, statuses, reasons, outcomes])
    }
}
