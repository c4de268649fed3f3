import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

/// The outbox of a game as golden JSON lines: activity index, apns-id, and the push.
func pushLines(_ gameId: String, _ connection: PostgresConnection) async throws -> String {
    let pushes = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
    return pushes.map { push in
        let index = activityTokens.firstIndex(of: push.pushToken).map(String.init) ?? "?"
        return #"{"activity":\#(index),"apnsId":"\#(push.apnsId)","event":"\#(push.event.rawValue)","#
            + #""expiration":\#(push.expiration),"payload":\#(push.payload),"priority":\#(push.priority),"#
            + #""reason":"\#(push.reason)","timestamp":\#(push.timestamp)}"# + "\n"
    }.joined()
}

@Suite("Live Activity pushes per registered activity")
struct ActivityPushTests {
    @Test(
        "a fixture with three registered activities gives exactly its golden pushes", .serialized,
        arguments: ReplayTests.fixtures)
    func golden(_ name: String) async throws {
        try await withStore { connection in
            let file = fixture("\(name).jsonl")
            try await registerActivities(for: file, connection)
            try await replay(file, connection)
            let gameId = try FeedFile.read(file)[0].message.gameId
            let produced = try await pushLines(gameId, connection)
            let goldenPath = fixture("\(name).pushes.jsonl")
            if ProcessInfo.processInfo.environment["SCOREFEED_UPDATE_GOLDEN"] == "1" {
                try produced.write(toFile: goldenPath, atomically: true, encoding: .utf8)
            }
            let golden = try String(contentsOfFile: goldenPath, encoding: .utf8)
            #expect(
                produced == golden, "pushes of \(name) differ from \(goldenPath); SCOREFEED_UPDATE_GOLDEN=1 rewrites it"
            )
            // Per activity: timestamps strictly increase, exactly one end, last.
            let pushes = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            for token in activityTokens {
                let mine = pushes.filter { $0.pushToken == token }
                #expect(zip(mine, mine.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
                #expect(mine.filter { $0.event == .end }.count == 1)
                #expect(mine.last?.event == .end)
                #expect(mine.allSatisfy { $0.payload.utf8.count <= 4096 })
            }
            #expect(Set(pushes.map(\.apnsId)).count == pushes.count, "apns-ids must be unique")
        }
    }

    @Test(
        "planning one activity in the page and fanning the others out one per transaction gives each activity exactly its golden pushes",
        .serialized, arguments: ReplayTests.fixtures)
    func fannedOut(_ name: String) async throws {
        try await withStore { connection in
            let file = fixture("\(name).jsonl")
            try await registerActivities(for: file, connection)
            var projector = Projector()
            projector.inlineTargets = 1
            projector.fanOutChunk = 1
            _ = try await Replayer(ingestor: Ingestor(connection: connection), projector: projector).replay(
                files: [file]
            ) { _, _ in }
            let gameId = try FeedFile.read(file)[0].message.gameId
            // The outbox interleaves activities differently; each activity's own stream must not change.
            func perActivity(_ text: String) -> [Substring: [Substring]] {
                Dictionary(grouping: text.split(separator: "\n"), by: { $0.prefix { $0 != "," } })
            }
            let produced = perActivity(try await pushLines(gameId, connection))
            let golden = perActivity(try String(contentsOfFile: fixture("\(name).pushes.jsonl"), encoding: .utf8))
            #expect(produced == golden)
            #expect(produced.count == 3)
            let behind = try await connection.query(
                """
                SELECT (SELECT count(*) FROM activities a JOIN score_states s USING (game_id)
                        WHERE a.group_id IS NULL AND a.planned_position <> s.position)
                     + (SELECT count(*) FROM target_groups g JOIN score_states s USING (game_id)
                        WHERE g.merged_into IS NULL AND g.planned_position <> s.position) AS n
                """)[0].int("n")
            #expect(behind == 0)
        }
    }

    @Test(
        "a retry never overtakes: an older push waiting for its retry is superseded when a newer one is accepted, and everything left when the end is"
    )
    func supersede() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            try await registerActivities(for: file, connection)
            try await replay(file, connection)
            let token = activityTokens[0]
            let claimed = try await connection.transaction { try Outbox.claim(limit: 5000, lease: 30, in: $0) }
            let mine = claimed.filter { $0.pushToken == token }.sorted { $0.timestamp < $1.timestamp }
            #expect(mine.count > 4)
            // The first waits for a retry while the second is accepted.
            try await connection.transaction { tx in
                try Outbox.record(
                    [
                        .init(mine[0], status: 500, reason: "InternalServerError", outcome: .retry(after: 60)),
                        .init(mine[1], status: 200, reason: nil, outcome: .sent),
                    ], in: tx)
            }
            // The end is accepted while the others are still waiting (released, not sent).
            let end = try #require(mine.last)
            #expect(end.event == .end)
            try await connection.transaction { tx in
                try Outbox.record(
                    mine[2..<(mine.count - 1)].map {
                        .init($0, status: nil, reason: nil, outcome: .release(label: "released"))
                    }
                        + [.init(end, status: 200, reason: nil, outcome: .sent)], in: tx)
            }
            let states = try await connection.withSession { try TargetPushes.forGame(end.gameId, in: $0) }
                .filter { $0.pushToken == token }
            #expect(states.first { $0.id == mine[0].id }?.state == "superseded")
            #expect(states.first { $0.id == mine[0].id }?.lastReason == "a newer push was accepted")
            #expect(states.filter { $0.state == "sent" }.map(\.id) == [mine[1].id, end.id])
            #expect(states.filter { $0.state == "superseded" }.count == mine.count - 2)
            #expect(states.filter { $0.state == "pending" }.isEmpty)
            // The other activities' pushes are untouched.
            let others = try await connection.query(
                "SELECT count(*) AS n FROM outbox WHERE state <> 'pending' AND activity_id <> $1",
                [mine[0].targetId])[0].int("n")
            #expect(others == 0)
        }
    }

    @Test("frequent updates switched on or off reach the activity's throttle at once")
    func frequentUpdatesChange() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            try await registerActivities(for: file, connection)
            let gameId = try FeedFile.read(file)[0].message.gameId
            func frequent() async throws -> Bool? {
                let text = try await connection.query(
                    """
                    SELECT coalesce(a.throttle_state, g.throttle_state) AS throttle_state FROM activities a
                    LEFT JOIN target_groups g ON g.id = a.group_id WHERE a.game_id = $1 AND a.id = 1
                    """, [gameId])[0].string("throttle_state")
                return try ActivityThrottle(storageText: text)
                    .frequentUpdates
            }
            #expect(try await frequent() == false)
            let changed = try await connection.transaction { tx in
                try Activities.setFrequentUpdates(token: activityTokens[0], true, planner: PushPlanner(), in: tx)
            }
            #expect(changed?.frequentUpdates == true)
            #expect(try await frequent() == true)
            let missing = try await connection.transaction { tx in
                try Activities.setFrequentUpdates(
                    token: String(repeating: "0f", count: 32), true, planner: PushPlanner(), in: tx)
            }
            #expect(missing == nil)
        }
    }

    @Test("the same replay on a fresh database gives the same pushes, apns-ids included")
    func deterministic() async throws {
        let file = fixture("extra-innings-walkoff.jsonl")
        func once() async throws -> String {
            try await withStore { connection in
                try await registerActivities(for: file, connection)
                try await replay(file, connection)
                return try await pushLines("2026-05-12-SEA-HOU", connection)
            }
        }
        let first = try await once()
        let second = try await once()
        #expect(first == second)
        #expect(!first.isEmpty)
    }

    @Test("throttles stored as JSON before migration 0008 are read, give the same pushes and are stored compactly")
    func legacyJSONThrottles() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            try await registerActivities(for: file, connection)
            let activities = try await connection.withSession { try Activities.list(in: $0) }
            for activity in activities {
                let throttle = ActivityThrottle(
                    registeredAt: activity.registeredAt, frequentUpdates: activity.frequentUpdates)
                let json = String(decoding: try JSONEncoder().encode(throttle), as: UTF8.self)
                _ = try await connection.query(
                    "UPDATE activities SET throttle = $2::jsonb, throttle_state = NULL, group_id = NULL WHERE id = $1",
                    [activity.id, json])
            }
            try await replay(file, connection)
            let produced = try await pushLines(try FeedFile.read(file)[0].message.gameId, connection)
            let golden = try String(contentsOfFile: fixture("plain-nine.pushes.jsonl"), encoding: .utf8)
            #expect(produced == golden)
            let forms = try await connection.query(
                "SELECT count(*) FILTER (WHERE throttle_state LIKE 't2 %' AND throttle IS NULL) AS n FROM activities")
            #expect(try forms[0].int("n") == activities.count)
        }
    }

    @Test("registration validates the token, the bundle id and the game; re-adding is idempotent")
    func registration() async throws {
        try await withStore { connection in
            let token = String(repeating: "AB", count: 32)
            let first = try await connection.withSession { session in
                try Activities.register(
                    gameId: "g1", token: token, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: Date(), in: session)
            }
            #expect(first.pushToken == token.lowercased())
            let again = try await connection.withSession { session in
                try Activities.register(
                    gameId: "g1", token: token, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: Date(), in: session)
            }
            #expect(again.id == first.id)
            await #expect(throws: RegistrationRefusal.otherGame) {
                try await connection.withSession { session in
                    try Activities.register(
                        gameId: "g2", token: token, environment: .production, bundleId: "com.example.scores",
                        frequentUpdates: false, at: Date(), in: session)
                }
            }
            for (game, bad, bundle, field) in [
                ("g1", "xyz", "com.example.scores", "pushToken"), ("g1", "abc", "com.example.scores", "pushToken"),
                ("g1", String(repeating: "a", count: 600), "com.example.scores", "pushToken"),
                ("g 1", token, "com.example.scores", "gameId"), ("g1", token, "scores", "bundleId"),
            ] {
                #expect(throws: ActivityError.self) {
                    try Activities.validate(gameId: game, token: bad, bundleId: bundle)
                }
                do {
                    _ = try Activities.validate(gameId: game, token: bad, bundleId: bundle)
                } catch {
                    #expect((error as? ActivityError)?.field == field)
                }
            }
            let count = try await count("activities", connection)
            #expect(count == 1)
            #expect(
                try await connection.withSession { try Activities.deactivate(token: token, reason: "removed", in: $0) })
            let listed = try await connection.withSession { try Activities.list(in: $0) }
            #expect(listed.map(\.active) == [false])
        }
    }

    @Test("deactivating an activity fails its pending pushes, and only its own")
    func deactivateFailsPendingPushes() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            try await registerActivities(for: file, connection)
            try await replay(file, connection)
            let gameId = try FeedFile.read(file)[0].message.gameId
            let removed = activityTokens[0]
            #expect(
                try await connection.withSession {
                    try Activities.deactivate(token: removed, reason: "removed", in: $0)
                })
            let pushes = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            let (mine, others) = (pushes.filter { $0.pushToken == removed }, pushes.filter { $0.pushToken != removed })
            #expect(!mine.isEmpty && !others.isEmpty)
            #expect(mine.allSatisfy { $0.state == "failed" && $0.lastReason == "activity inactive" })
            #expect(others.allSatisfy { $0.state == "pending" })
            #expect(
                try await connection.withSession { try Activities.deactivate(token: removed, reason: "again", in: $0) }
                    == false)
        }
    }
}
