import PostgresClient

/// The one history of what did not succeed (`delivery_attempts`, schemas 0027 and 0029): an attempt of a
/// message of the outbox (a push to a target, a broadcast, a push-to-start) that was retried, failed,
/// deactivated its target or was released. A success is kept on the message's own row, not here.
enum DeliveryAttempts {
    /// Adds one row per attempt of the messages `ids`, in one statement.
    static func insert(
        ids: [Int], statuses: [Int?], reasons: [String?], outcomes: [String], in tx: PostgresSession
    ) throws {
        guard !ids.isEmpty else { return }
        try tx.query(
            """
            INSERT INTO delivery_attempts (message_id, status, reason, outcome)
            SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[])
            """, [ids, statuses, reasons, outcomes])
    }
}
