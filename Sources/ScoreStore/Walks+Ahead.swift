import PostgresClient

extension Walks {
    /// Claims, while a round is on the wire, the batch after each of its walk batches that is not its
    /// walk's last: up to `limit` members in all, the message's lease renewed for `lease` seconds. The
    /// cursor does not move: the worker sends these only once the batch before has been recorded
    /// (``record(_:holding:lease:in:)`` keeps the lease meanwhile), so a crash still re-sends at most one batch,
    /// and the local server is not kept waiting for the claim after each record.
    ///
    /// A batch with a member whose own push is on the wire is not claimed ahead: the walk takes it as
    /// usual (``claim(limit:lease:routes:in:)``) once the batch before is recorded.
    /// - Parameter onTheWire: the round being sent.
    public static func claimAhead(of onTheWire: [TargetPush], limit: Int, lease: Int, in tx: PostgresSession)
        throws -> [TargetPush]
    {
        // Each message's batch on the wire (one per message and round), by message id.
        var walks: [Int: TargetPush] = [:]
        for push in onTheWire {
            guard let walk = push.walk, !walk.last, walk.through >= walks[push.id]?.walk?.through ?? 0 else { continue }
            walks[push.id] = push
        }
        var pushes: [TargetPush] = []
        for (message, sample) in walks.sorted(by: { $0.key < $1.key }) {
            let remaining = limit - pushes.count
            guard remaining > 0, let walk = sample.walk else { break }
            let members = try members(
                group: walk.group, after: walk.through, timestamp: sample.timestamp, limit: remaining, in: tx)
            guard let through = try members.rows.last?.int("id"),
                try members.rows.allSatisfy({ try !$0.bool("busy") })
            else { continue }
            let renewed = try tx.query(
                """
                UPDATE outbox SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
                WHERE id = $1 AND kind = 'group' AND state = 'pending' AND walked_through <= $3
                  AND claimed_until >= now()
                RETURNING id
                """, [message, lease, walk.through])
            guard renewed.count == 1 else { continue }
            var template = sample
            template.walk = TargetPush.Walk(through: through, last: members.count < remaining, group: walk.group)
            for row in members.rows { pushes.append(try push(template, to: row)) }
        }
        return pushes
    }
}
