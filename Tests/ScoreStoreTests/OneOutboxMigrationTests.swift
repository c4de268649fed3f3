import Foundation
import PostgresClient
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("migrations 0029 and 0030: the three outboxes become one; a follower has no APNs fields")
struct OneOutboxMigrationTests {
    /// A database migrated up to (not including) `before`.
    private func migrate(_ connection: PostgresConnection, before: String) async throws {
        let schema = repositoryRoot.appendingPathComponent("schema")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in try FileManager.default.contentsOfDirectory(atPath: schema.path) where name < before {
            try FileManager.default.copyItem(
                at: schema.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        try await Migrator(directory: dir).migrate(connection, logger: quietLogger)
    }

    @Test("every push, broadcast and start moves with its state, request id and failed attempts; the old tables go")
    func movesEveryRow() async throws {
        try await withStore(migrated: false) { connection in
            try await migrate(connection, before: "0029")
            let push = String(repeating: "ab", count: 32)
            let start = String(repeating: "cd", count: 32)
            try await connection.query(
                """
                INSERT INTO activities (game_id, push_token, environment, bundle_id, throttle_state)
                VALUES ('g1', $1, 'production', 'com.example.scores', 'x')
                """, [push])
            try await connection.query(
                "INSERT INTO channels (game_id, environment, channel_id) VALUES ('g1', 'production', 'Y2hhbm5lbA==')")
            try await connection.query(
                """
                INSERT INTO devices (start_token, environment, bundle_id, follows, registered_at)
                VALUES ($1, 'production', 'com.example.scores', '{g1}', now())
                """, [start])
            try await connection.query(
                """
                INSERT INTO activity_pushes (activity_id, game_id, apns_id, event, priority, aps_timestamp, expiration,
                                             reason, payload, send_at, state, route)
                SELECT id, 'g1', '00000000-0000-0000-0000-000000000001', 'update', 10, 1, 0, 'immediate', '{}', now(),
                       'sent', 'apns'
                FROM activities
                """)
            // A broadcast sent, one still waiting after a retry; a start that failed once and waits.
            try await connection.query(
                """
                INSERT INTO broadcast_pushes (channel_row, game_id, request_id, event, priority, aps_timestamp, expiration,
                                              reason, payload, send_at, state, attempts, last_status)
                SELECT id, 'g1', ('00000000-0000-0000-0000-00000000000' || n)::uuid, 'update', 5, n, 0, 'immediate', '{}',
                       now(), s, n, st
                FROM channels, (VALUES (2, 'sent', 200), (3, 'pending', 429)) AS v(n, s, st)
                """)
            try await connection.query(
                """
                INSERT INTO device_starts (device_id, game_id, apns_id, payload, planned_at, attempts, last_status)
                SELECT id, 'g1', '00000000-0000-0000-0000-000000000004', '{"aps":{}}', '2026-11-27T01:00:00Z', 1, 500
                FROM devices
                """)
            try await connection.query(
                """
                INSERT INTO delivery_attempts (broadcast_id, status, reason, outcome)
                SELECT id, 429, 'TooManyRequests', 'retry' FROM broadcast_pushes WHERE state = 'pending'
                """)
            try await connection.query(
                """
                INSERT INTO delivery_attempts (start_id, status, reason, outcome)
                SELECT id, 500, 'InternalServerError', 'retry' FROM device_starts
                """)

            try await Migrator(environment: [:]).migrate(connection, logger: quietLogger)

            let rows = try await connection.query(
                """
                SELECT kind, state, apns_id::text AS apns_id, attempts, to_char(send_at, 'HH24:MI') AS send_at,
                       (SELECT string_agg(a.outcome || ' ' || a.status, ',') FROM delivery_attempts a
                        WHERE a.message_id = o.id) AS attempts_recorded
                FROM outbox o ORDER BY id
                """
            ).rows.map {
                [
                    try $0.string("kind"), try $0.string("state"), String(try $0.string("apns_id").suffix(1)),
                    String(try $0.int("attempts")), try $0.text("attempts_recorded") ?? "",
                ]
            }
            #expect(
                rows == [
                    ["push", "sent", "1", "0", ""], ["broadcast", "sent", "2", "2", ""],
                    ["broadcast", "pending", "3", "3", "retry 429"], ["start", "pending", "4", "1", "retry 500"],
                ])
            let startDue = try await connection.query(
                "SELECT send_at = '2026-11-27T01:00:00Z'::timestamptz AS planned FROM outbox WHERE kind = 'start'")
            #expect(try startDue[0].bool("planned"))
            let old = try await connection.query(
                """
                SELECT count(*) AS n FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_name IN ('activity_pushes', 'broadcast_pushes', 'device_starts')
                """)
            #expect(try old[0].int("n") == 0)
            // What waits is delivered by the one outbox's claims.
            let claimed = try await connection.transaction { tx in
                (
                    try Broadcasts.claim(limit: 10, lease: 30, in: tx).map(\.requestId),
                    try Devices.claimStarts(limit: 10, lease: 30, in: tx).map(\.apnsId)
                )
            }
            #expect(claimed.0 == ["00000000-0000-0000-0000-000000000003"])
            #expect(claimed.1 == ["00000000-0000-0000-0000-000000000004"])
        }
    }

    @Test("a follower stored with filler APNs fields loses them; a Live Activity keeps its own")
    func followersWithoutFiller() async throws {
        try await withStore(migrated: false) { connection in
            try await migrate(connection, before: "0030")
            try await connection.query(
                """
                INSERT INTO activities (game_id, push_token, environment, bundle_id, throttle_state, route, fcm_token,
                                        fcm_kind)
                VALUES ('g1', NULL, 'production', 'android', 'x', 'android', 'fcm-android-1', 'token'),
                       ('g1', $1, 'sandbox', 'com.example.scores', 'x', 'apns', NULL, NULL)
                """, [String(repeating: "ab", count: 32)])
            try await Migrator(environment: [:]).migrate(connection, logger: quietLogger)
            let rows = try await connection.query(
                "SELECT route, environment, bundle_id FROM activities ORDER BY id"
            ).rows.map { [try $0.string("route"), try $0.text("environment"), try $0.text("bundle_id")] }
            #expect(rows == [["android", nil, nil], ["apns", "sandbox", "com.example.scores"]])
            // A follower given an environment again is refused.
            await #expect(throws: PostgresError.self) {
                try await connection.query("UPDATE activities SET environment = 'production' WHERE route = 'android'")
            }
        }
    }

    @Test("a row naming no target, or two, is refused")
    func oneTargetPerRow() async throws {
        _ = try await withStore { connection in
            await #expect(throws: PostgresError.self) {
                try await connection.query(
                    """
                    INSERT INTO outbox (kind, game_id, apns_id, payload, send_at)
                    VALUES ('start', 'g1', gen_random_uuid(), '{}', now())
                    """)
            }
        }
    }
}
