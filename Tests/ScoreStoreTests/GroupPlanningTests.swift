import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

/// The pushes of the outbox as (timestamp, priority, event, payload), for one token's rows or one
/// group's messages.
private func messages(_ rows: PostgresResult) throws -> [String] {
    try rows.rows.map {
        "\(try $0.int("aps_timestamp")) p\(try $0.int("priority")) \(try $0.string("event")) \(try $0.string("payload"))"
    }
}

@Suite("planning once per group of targets")
struct GroupPlanningTests {
    let file = fixture("plain-nine.jsonl")

    func tokenPushes(_ token: String, _ connection: PostgresConnection) async throws -> [String] {
        try messages(
            try await connection.query(
                """
                SELECT p.aps_timestamp, p.priority, p.event, p.payload FROM outbox p
                JOIN activities a ON a.id = p.activity_id WHERE a.push_token = $1 ORDER BY p.aps_timestamp
                """, [token]))
    }

    @Test(
        "activities registered before the game share one group: one decision, and one walked outbox row per message, the same messages one activity gets"
    )
    func oneRowPerMessage() async throws {
        // Alone: the activity's own rows (its group is small).
        let alone = try await withStore { connection in
            try await registerActivities(for: file, connection)
            _ = try await replay(file, connection)
            return try await tokenPushes(activityTokens[0], connection)
        }
        #expect(alone.count > 10)
        try await withStore { connection in
            let first = try FeedFile.read(file)[0].message
            guard case .gameScheduled(_, _, let startsAt, _) = first.event else {
                throw TestDatabaseError("no schedule")
            }
            _ = try await connection.withSession { session in
                try Activities.registerMany(
                    gameId: first.gameId, tokens: (1...TargetGroups.walkMinimum).map { String(format: "%064x", $0) },
                    environment: .production, bundleId: "com.example.scores", frequentUpdates: false,
                    at: startsAt.addingTimeInterval(-15 * 60), in: session)
            }
            try await registerActivities(for: file, connection)
            _ = try await replay(file, connection)
            // Tokens a1 and c3 (no frequent updates) joined the many; b2 (frequent updates) has a group of its own.
            let groups = try await connection.query(
                """
                SELECT g.id, g.frequent_updates, count(a.id) AS members FROM target_groups g
                JOIN activities a ON a.group_id = g.id GROUP BY g.id ORDER BY g.id
                """)
            #expect(try groups.rows.map { try $0.int("members") } == [TargetGroups.walkMinimum + 2, 1])
            let big = try groups[0].int("id")
            let walked = try messages(
                try await connection.query(
                    """
                    SELECT aps_timestamp, priority, event, payload FROM outbox
                    WHERE kind = 'group' AND group_id = $1 ORDER BY aps_timestamp
                    """, [big]))
            #expect(walked == alone)
            // What the read API lists of them: the big group's messages in planning order, none walked
            // yet; each group with its active members; an app with no member sees none.
            let (listed, summaries, nobodys) = try await connection.withSession { session in
                (
                    try GroupMessages.forGame(first.gameId, in: session),
                    try GroupMessages.groups(first.gameId, in: session),
                    try GroupMessages.forGame(first.gameId, app: "nobody", in: session)
                )
            }
            #expect(listed.map { "\($0.timestamp) p\($0.priority) \($0.event.rawValue) \($0.payload)" } == walked)
            #expect(listed.allSatisfy { $0.groupId == big && $0.state == "pending" && $0.walkedThrough == 0 })
            #expect(summaries.map(\.members) == [TargetGroups.walkMinimum + 2, 1])
            #expect(nobodys.isEmpty)
            #expect(try await tokenPushes(activityTokens[0], connection).isEmpty, "no row per member")
            #expect(try await tokenPushes(activityTokens[1], connection).count > 10, "the small group's are per member")
        }
    }

    @Test(
        "a token registered mid-game starts a group and joins the pre-game one once their states are the same; then both are planned as one"
    )
    func midGameJoins() async throws {
        try await withStore { connection in
            let entries = try FeedFile.read(file)
            try await registerActivities(for: file, connection)
            let ingestor = Ingestor(connection: connection)
            let projector = Projector()
            let late = String(repeating: "d4", count: 32)
            let half = entries.count / 2
            for (index, entry) in entries.enumerated() {
                _ = try await ingestor.ingest([entry.message])
                try await projector.catchUp(connection)
                if index == half {
                    _ = try await connection.withSession { session in
                        try Activities.register(
                            gameId: entry.message.gameId, token: late, environment: .production,
                            bundleId: "com.example.scores", frequentUpdates: false, at: entry.message.at, in: session)
                    }
                }
                _ = try await connection.transaction { tx in
                    try PushScheduler.tick(at: entry.message.at, planner: projector.planner, in: tx)
                }
            }
            let rows = try await connection.query(
                """
                SELECT a.push_token, a.group_id, g.merged_into FROM activities a
                JOIN target_groups g ON g.id = a.group_id ORDER BY a.id
                """)
            let groupOf = Dictionary(
                uniqueKeysWithValues: try rows.rows.map { (try $0.string("push_token"), try $0.int("group_id")) })
            #expect(groupOf[late] == groupOf[activityTokens[0]], "joined the pre-game group")
            let merged = try await connection.query(
                "SELECT count(*) AS n FROM target_groups WHERE merged_into IS NOT NULL")[0].int("n")
            #expect(merged == 1)
            // What it got: in order, from its registration on, the end once and last.
            let mine = try await tokenPushes(late, connection)
            let ends = mine.filter { $0.contains(" end ") }
            #expect(mine.count > 2)
            #expect(ends.count == 1 && mine.last == ends.first)
            // After the join it got exactly what the pre-game activity got.
            let theirs = try await tokenPushes(activityTokens[0], connection)
            #expect(Array(theirs.suffix(3)) == Array(mine.suffix(3)))
        }
    }
}
