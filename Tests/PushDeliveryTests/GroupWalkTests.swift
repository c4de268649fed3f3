import APNs
import APNsSandbox
import Foundation
import LiveActivity
import PostgresClient
import Retry
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@testable import PushDelivery

@Suite("walking a group's tokens from a durable cursor")
struct GroupWalkTests {
    static let gameId = "walk-1"
    static let start = Date(timeIntervalSince1970: 1_780_300_800)  // 2026-06-01T08:00:00Z

    /// A short game: its start and its end, far enough apart for each to be a push.
    static var game: [FeedMessage] {
        let team = { (code: String) in Team(code: code, name: code, logo: "") }
        return [
            FeedMessage(
                id: "w1", gameId: gameId, at: start,
                event: .gameScheduled(home: team("HOM"), away: team("AWY"), startsAt: start.addingTimeInterval(3600))),
            FeedMessage(id: "w2", gameId: gameId, at: start.addingTimeInterval(3600), event: .gameStarted),
            FeedMessage(id: "w4", gameId: gameId, at: start.addingTimeInterval(7200), event: .gameEnded(.closed)),
        ]
    }

    @Test(
        "a walk's next batch is claimed while one is on the wire: the cursor waits for the record, which keeps the lease until the batch after is recorded"
    )
    func claimedAhead() async throws {
        try await Harness.with { h in
            let setup = h.connection
            _ = try await setup.withSession { session in
                try Activities.registerMany(
                    gameId: Self.gameId, tokens: (1...2_500).map { String(format: "%064x", $0) },
                    environment: .production, bundleId: "com.example.scores", frequentUpdates: false,
                    at: Self.start.addingTimeInterval(45 * 60), in: session)
            }
            _ = try await Ingestor(connection: setup).ingest(Self.game)
            try await Projector().catchUp(setup)
            let state = { () async throws -> (through: Int, leased: Bool) in
                let row = try await setup.query(
                    """
                    SELECT walked_through, claimed_until IS NOT NULL AS leased FROM outbox
                    WHERE kind = 'group' ORDER BY id LIMIT 1
                    """)[0]
                return (try row.int("walked_through"), try row.bool("leased"))
            }
            @Sendable func sent(_ batch: [TargetPush]) -> [Outbox.Attempt] {
                batch.map { Outbox.Attempt($0, status: 200, reason: nil, outcome: .sent) }
            }
            let claim = { () async throws -> [TargetPush] in
                try await setup.transaction { try Walks.claim(limit: 1000, lease: 30, routes: [.apns], in: $0) }
            }
            let first = try await claim()
            #expect(first.count == Walks.firstBatch)
            let ahead = try await setup.transaction {
                try Walks.claimAhead(of: first, limit: 1000, lease: 30, in: $0)
            }
            #expect(ahead.count == 1000 && ahead.allSatisfy { $0.id == first[0].id })
            #expect(ahead.first!.targetId > first.last!.targetId && ahead.first!.walk!.through == ahead.last!.targetId)
            #expect(try await state() == (0, true), "the cursor has not moved")
            #expect(try await claim().isEmpty, "no other worker takes the message meanwhile")
            try await setup.transaction { try Walks.record(sent(first), holding: [first[0].id], lease: 30, in: $0) }
            #expect(try await state() == (first.last!.targetId, true), "recorded, the lease kept for the batch held")
            #expect(try await claim().isEmpty)
            try await setup.transaction { try Walks.record(sent(ahead), in: $0) }
            #expect(try await state() == (ahead.last!.targetId, false))
            let third = try await claim()
            #expect(third.first!.targetId > ahead.last!.targetId && third.count == 1000)
            // The last batch is not claimed ahead of.
            #expect(third.last!.walk!.last == false)
            let fourth = try await setup.transaction {
                try Walks.claimAhead(of: third, limit: 1000, lease: 30, in: $0)
            }
            #expect(fourth.count == 400 && fourth.last!.walk!.last)
            #expect(
                try await setup.transaction { try Walks.claimAhead(of: fourth, limit: 1000, lease: 30, in: $0) }.isEmpty
            )
        }
    }

    @Test(
        "a worker killed mid-walk of a 10,000-token group: every token gets every push at least once, each end exactly once and last, at most one batch again, and no token of another group touched"
    )
    func killedMidWalk() async throws {
        try await Harness.with { h in
            let (setup, url, sandbox) = (h.connection, h.url, h.sandbox)
            let big = (1...10_000).map { String(format: "%064x", $0) }
            let other = (1...200).map { String(format: "ff%062x", $0) }
            let registered = Self.start.addingTimeInterval(45 * 60)
            _ = try await setup.withSession { session in
                _ = try Activities.registerMany(
                    gameId: Self.gameId, tokens: big, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: registered, in: session)
                return try Activities.registerMany(
                    gameId: Self.gameId, tokens: other, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: true, at: registered, in: session)
            }
            _ = try await Ingestor(connection: setup).ingest(Self.game)
            try await Projector().catchUp(setup)
            let groups = try await setup.query(
                "SELECT g.id FROM target_groups g ORDER BY g.frequent_updates")
            let (walked, untouched) = (try groups[0].int("id"), try groups[1].int("id"))
            let messages = try await setup.query(
                """
                SELECT group_id, aps_timestamp, event FROM outbox WHERE kind = 'group' ORDER BY id
                """)
            #expect(messages.count == 4, "two messages per group, one row each")
            #expect(try await count("outbox WHERE kind = 'push'", setup) == 0)

            // The first worker delivers until the walk is well under way, then its connection dies.
            let client = try h.client()
            let doomed = try await PostgresConnection.connect(url)
            let pid = try await doomed.withSession { $0.backendPID }
            var first = DeliveryWorker(connection: doomed, client: { _ in client }, logger: quietLogger)
            first.lease = 2
            let running = Task { try await first.run(untilEmpty: true) }
            let deadline = Date().addingTimeInterval(300)
            while true {
                guard Date() < deadline else { throw TestDatabaseError("the walk never got under way") }
                let progress = try await setup.query(
                    """
                    SELECT (SELECT count(*) FROM outbox WHERE group_id = $2 AND state = 'sent') AS other_done,
                           (SELECT walked_through FROM outbox WHERE group_id = $1 AND state = 'pending'
                            AND event = 'update' ORDER BY id LIMIT 1) AS through,
                           (SELECT min(id) FROM activities WHERE group_id = $1) AS first_member
                    """, [walked, untouched])[0]
                if try progress.int("other_done") == 2, let through = try progress.optionalInt("through"),
                    through >= (try progress.int("first_member")) + 3000
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            _ = try await setup.query("SELECT pg_terminate_backend($1)", [pid])
            _ = await running.result
            await doomed.close()

            // Another worker takes over once the lease runs out, from the durable cursor.
            try await Task.sleep(for: .milliseconds(2200))
            let survivor = try await PostgresConnection.connect(url)
            var second = DeliveryWorker(connection: survivor, client: { _ in client }, logger: quietLogger)
            second.lease = 2
            _ = try await second.run(untilEmpty: true)
            await survivor.close()
            try await client.shutdown()

            let arrivals = await sandbox.delivered()
            let byToken = Dictionary(grouping: arrivals, by: { $0.token ?? "" })
            // Each member's apns-id per message of its group, in the messages' order.
            let plan = try await setup.query(
                """
                SELECT a.push_token, md5(a.push_token || ':' || m.aps_timestamp)::uuid::text AS apns_id
                FROM activities a JOIN outbox m ON m.group_id = a.group_id AND m.kind = 'group'
                ORDER BY a.id, m.id
                """)
            var expected: [String: [String]] = [:]
            for row in plan.rows {
                expected[try row.string("push_token"), default: []].append(try row.string("apns_id"))
            }
            var again = 0
            for token in big {
                let mine = (byToken[token] ?? []).map { $0.apnsId.lowercased() }
                let planned = expected[token] ?? []
                #expect(planned.count == 2)
                #expect(Set(mine) == Set(planned), "every push, nothing else")
                #expect(
                    mine.filter { $0 == planned.last }.count == 1 && mine.last == planned.last, "the end once, last"
                )
                again += mine.count - Set(mine).count
            }
            #expect(again <= 1000, "a crash re-sends at most one batch")
            for token in other {
                #expect(
                    (byToken[token] ?? []).map { $0.apnsId.lowercased() } == expected[token], "each once, in order")
            }
            #expect(
                try await setup.query("SELECT count(*) AS n FROM outbox WHERE state <> 'sent'")[0].int("n") == 0)
        }
    }

    @Test(
        "a member's own answers: a 410 deactivates it and fails the rest for it, a 500 retries it alone; each member's delivery picture is derived from the walks"
    )
    func ownAnswers() async throws {
        try await Harness.with { h in
            let tokens = (1...TargetGroups.walkMinimum + 20).map { String(format: "%064x", $0) }
            let (gone, flaky, fine) = (tokens[5], tokens[7], tokens[0])
            _ = try await h.connection.withSession { session in
                try Activities.registerMany(
                    gameId: Self.gameId, tokens: tokens, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: Self.start.addingTimeInterval(45 * 60), in: session)
            }
            _ = try await Ingestor(connection: h.connection).ingest(Self.game)
            try await Projector().catchUp(h.connection)
            await h.sandbox.inject(.unregistered(timestamp: 1_790_000_000_000), count: 1, token: gone)
            await h.sandbox.inject(.internalServerError, count: 1, token: flaky)
            let client = try h.client()
            let total = try await h.worker(client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.deactivated == 1)
            #expect(total.retried == 1)
            let arrivals = await h.sandbox.delivered()
            #expect(arrivals.filter { $0.token == fine }.count == 2)
            #expect(arrivals.filter { $0.token == flaky }.count == 2)
            #expect(arrivals.filter { $0.token == gone }.isEmpty)
            let own = try await h.connection.query(
                """
                SELECT a.push_token, p.state, p.last_reason FROM outbox p JOIN activities a ON a.id = p.activity_id
                ORDER BY p.id
                """)
            let described = try own.rows.map {
                "\(try $0.string("push_token").prefix(4)) \(try $0.string("state")) \(try $0.text("last_reason") ?? "")"
            }
            // The 500'd member's retry may be on the wire when the end walks past it: the end is then its
            // own row too (sent after the retry), as for any member whose own push is on the wire.
            var rows = try own.rows.map { "\(try $0.string("push_token")) \(try $0.string("state"))" }.sorted()
            if rows.filter({ $0 == "\(flaky) sent" }).count == 2 {
                rows.removeAll { $0 == "\(flaky) sent" }
                rows.append("\(flaky) sent")
            }
            #expect(
                rows.sorted() == ["\(gone) failed", "\(gone) failed", "\(flaky) sent"],
                "rows of their own only for what differed: \(described)")
            func picture(_ token: String) async throws -> ActivityDelivery? {
                try await h.connection.withSession {
                    try Activities.delivery(token: token, now: Date(), policy: ThrottlePolicy(), in: $0)
                }
            }
            let ok = try #require(try await picture(fine))
            #expect(ok.pushes == ["sent": 2])
            #expect(ok.lastAnswer?.status == 200 && ok.lastAnswer?.outcome == "sent")
            #expect(ok.lastSentAt != nil)
            let retried = try #require(try await picture(flaky))
            #expect(retried.pushes == ["sent": 2])
            let removed = try #require(try await picture(gone))
            #expect(removed.activity.active == false && removed.activity.deactivatedReason == "Unregistered")
            #expect(removed.pushes == ["failed": 2])
            #expect(removed.lastAnswer?.status == 410)
            let targets = try await h.connection.withSession {
                try GameTargets.list(gameId: Self.gameId, app: "default", now: Date(), in: $0)
            }
            #expect(targets.first { $0.token == fine }?.pushes["sent"] == 2)
            #expect(targets.first { $0.token == gone }?.pushes["failed"] == 2)
        }
    }
}
