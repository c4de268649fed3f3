import APNs
import APNsSandbox
import Foundation
import PostgresClient
import Retry
import ScoreFeedTesting
import ScoreStore
import Testing

@testable import PushDelivery

/// A local APNs server, an APNs client trusting it, and a worker on a migrated schema.
struct Harness {
    let sandbox: APNsSandbox
    let connection: PostgresConnection
    let pair: APNsTestKeyPair
    /// The schema's URL, for more connections to it.
    let url: String

    func client(keyPEM: String? = nil) throws -> APNsClient {
        let configuration = try APNsConfiguration(
            signingKeyPEM: keyPEM ?? pair.privateKeyPEM, keyId: "KEY0000001", teamId: "TEAM000001",
            bundleId: "com.example.scores", environment: .custom(sandbox.url),
            additionalCAFile: sandbox.caCertificatePath)
        // Generous: the server runs in this (debug, busy) test process; a timeout would make a retry
        // re-deliver a push the server already accepted, which at-least-once allows but these tests pin.
        return APNsClient(configuration: configuration, requestTimeout: .seconds(30), logger: quietLogger)
    }

    /// A client of the local server's channel management API.
    func channels() throws -> APNsChannelClient {
        APNsChannelClient(configuration: try client().configuration, logger: quietLogger)
    }

    /// A worker with millisecond backoffs so retries happen within the test.
    func worker(_ client: APNsClient, lease: Int = 30) -> DeliveryWorker<PushQueue> {
        var worker = DeliveryWorker(connection: connection, client: { _ in client }, logger: quietLogger)
        worker.backoff = Backoff(base: .milliseconds(5), cap: .milliseconds(50))
        worker.lease = lease
        worker.batchSize = 50
        return worker
    }

    static func with<T: Sendable>(_ body: (Harness) async throws -> T) async throws -> T {
        let pair = APNsTestKeyPair()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = APNsSandbox.Configuration(
            bundleId: "com.example.scores", teamId: "TEAM000001", keyId: "KEY0000001", publicKeyPEM: pair.publicKeyPEM,
            caCertificateOutput: folder.appendingPathComponent("ca.pem").path)
        return try await APNsSandbox.withRunning(configuration) { sandbox in
            try await TestDatabase.withSchema { url in
                let connection = try await PostgresConnection.connect(url)
                do {
                    try await Migrator().migrate(connection, logger: quietLogger)
                    let value = try await body(Harness(sandbox: sandbox, connection: connection, pair: pair, url: url))
                    await connection.close()
                    return value
                } catch {
                    await connection.close()
                    throw error
                }
            }
        }
    }

    /// Replays a fixture with the three test activities registered; returns the outbox.
    func replay(_ name: String) async throws -> [TargetPush] {
        let file = fixture("\(name).jsonl")
        try await registerActivities(for: file, connection)
        let summary = try await ScoreFeedTesting.replay(file, connection)
        let gameId = try FeedFile.read(file)[0].message.gameId
        #expect(summary.accepted > 0)
        return try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
    }

    func states() async throws -> [String: Int] {
        let rows = try await connection.query("SELECT state, count(*) AS n FROM outbox GROUP BY state")
        var states: [String: Int] = [:]
        for row in rows.rows { states[try row.string("state")] = try row.int("n") }
        return states
    }
}

/// What the server received and accepted, comparable with the outbox.
private func delivered(_ sandbox: APNsSandbox) async -> [String] {
    await sandbox.delivered().map { d in
        "\(d.token ?? "") \(d.apnsId.lowercased()) p\(d.priority ?? 0) x\(d.expiration ?? 0) \(String(decoding: d.payload, as: UTF8.self))"
    }.sorted()
}

private func expected(_ pushes: [TargetPush]) -> [String] {
    pushes.map { "\($0.pushToken) \($0.apnsId) p\($0.priority) x\($0.expiration) \($0.payload)" }.sorted()
}

@Suite("delivery to a local APNs server over HTTP/2")
struct DeliveryTests {
    @Test("a fixture game with three activities delivers exactly its golden pushes, each once")
    func golden() async throws {
        try await Harness.with { h in
            let outbox = try await h.replay("extra-innings-walkoff")
            let client = try h.client()
            let total = try await h.worker(client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.sent == outbox.count)
            #expect(await delivered(h.sandbox) == expected(outbox))
            #expect(try await h.states() == ["sent": outbox.count])
            // A success is kept on the push alone; the history holds what did not succeed.
            #expect(try await count("delivery_attempts", h.connection) == 0)
            // Each activity receives its pushes in timestamp order, the end last.
            for token in activityTokens {
                let stamps = await h.sandbox.delivered().filter { $0.token == token }.compactMap { delivery in
                    ((try? JSONSerialization.jsonObject(with: Data(delivery.payload))) as? [String: Any])
                        .flatMap { $0["aps"] as? [String: Any] }?["timestamp"] as? Int
                }
                #expect(!stamps.isEmpty && stamps == stamps.sorted(), "\(token.prefix(4)) received out of order")
            }
            // The outbox is the golden stream the store tests pin.
            let golden = try String(contentsOfFile: fixture("extra-innings-walkoff.pushes.jsonl"), encoding: .utf8)
            #expect(golden.split(separator: "\n").count == outbox.count)
        }
    }

    @Test("many activities over many small rounds: pipelined claims and records deliver each push once, in order")
    func pipelinedRounds() async throws {
        try await Harness.with { h in
            let file = fixture("delayed-postponed.jsonl")
            let first = try FeedFile.read(file)[0].message
            guard case .gameScheduled(_, _, let startsAt, _) = first.event else {
                throw TestDatabaseError("no schedule")
            }
            let tokens = (1...40).map { String(format: "%064x", $0) }
            _ = try await h.connection.withSession { session in
                try Activities.registerMany(
                    gameId: first.gameId, tokens: tokens, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: startsAt.addingTimeInterval(-900), in: session)
            }
            try await replay(file, h.connection)
            let outbox = try await h.connection.withSession { try TargetPushes.forGame(first.gameId, in: $0) }
            #expect(outbox.count > 40 * 10)
            let client = try h.client()
            var worker = h.worker(client)
            worker.batchSize = 25
            let total = try await worker.run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.sent == outbox.count)
            #expect(await delivered(h.sandbox) == expected(outbox))
            #expect(try await h.states() == ["sent": outbox.count])
            #expect(try await count("delivery_attempts", h.connection) == 0)
            let received = await h.sandbox.delivered()
            for token in tokens {
                let order = received.filter { $0.token == token }.map(\.apnsId)
                let planned = outbox.filter { $0.pushToken == token }.sorted { $0.timestamp < $1.timestamp }.map(
                    \.apnsId)
                #expect(order == planned, "\(token.suffix(4)) received out of order")
            }
        }
    }

    @Test(
        "with 429, 500, 503 and dropped connections injected, none is lost: each push is delivered, or superseded by a newer one accepted before its retry; never out of order, nothing after an end"
    )
    func faults() async throws {
        try await Harness.with { h in
            let outbox = try await h.replay("delayed-postponed")
            await h.sandbox.inject(.tooManyRequests, count: 5)
            await h.sandbox.inject(.internalServerError, count: 4)
            await h.sandbox.inject(.serviceUnavailable, count: 4)
            await h.sandbox.inject(.dropConnection, count: 3)
            let client = try h.client()
            let total = try await h.worker(client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.retried >= 16)
            // At least once: a dropped connection can lose the answer to a push the server accepted, and
            // that push goes again with the same apns-id. A push whose success was recorded never does.
            let received = await delivered(h.sandbox)
            let final = try await h.connection.withSession { try TargetPushes.forGame(outbox[0].gameId, in: $0) }
            let sent = final.filter { $0.state == "sent" }
            let superseded = final.filter { $0.state == "superseded" }
            // A push whose answer a dropped connection lost may have arrived and then been superseded.
            #expect(Set(expected(sent)).isSubset(of: Set(received)), "every push marked sent was delivered")
            #expect(Set(received).isSubset(of: Set(expected(sent + superseded))), "nothing unplanned arrived")
            #expect(sent.count + superseded.count == outbox.count, "none lost: sent or superseded")
            #expect(
                try await h.states() == ["sent": sent.count, "superseded": superseded.count].filter { $0.value > 0 })
            let sentAttempts = try await h.connection.query(
                "SELECT count(*) AS n FROM delivery_attempts WHERE outcome = 'sent'")[0].int("n")
            #expect(sentAttempts == 0, "a success is recorded on the push alone")
            #expect(sent.allSatisfy { $0.lastStatus == 200 })
            let lostAnswers = try await h.connection.query(
                "SELECT count(*) AS n FROM delivery_attempts WHERE status IS NULL")[0].int("n")
            #expect(Set(received).count == received.count || received.count - sent.count <= lostAnswers)
            // Per activity: what the phone received never goes back in time, and ends with the end.
            let arrivals = await h.sandbox.delivered()
            for token in Set(outbox.map(\.pushToken)) {
                let byId = Dictionary(outbox.map { ($0.apnsId, $0) }, uniquingKeysWith: { a, _ in a })
                let mine = arrivals.filter { $0.token == token }.compactMap { byId[$0.apnsId.lowercased()] }
                let firsts = mine.reduce(into: [TargetPush]()) { seen, push in
                    if !seen.contains(where: { $0.apnsId == push.apnsId }) { seen.append(push) }
                }
                #expect(zip(firsts, firsts.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp }, "in order")
                #expect(firsts.last?.event == .end, "the end arrives, last")
                #expect(superseded.filter { $0.pushToken == token && $0.event == .end }.isEmpty)
            }
            #expect(await h.sandbox.pendingFaults().isEmpty)
        }
    }

    @Test("410 Unregistered deactivates the activity; its other pushes are failed, the others delivered")
    func unregistered() async throws {
        try await Harness.with { h in
            let outbox = try await h.replay("plain-nine")
            let gone = activityTokens[1]
            // Invalid since after the activity was registered (the fixture registers it on 2026-04-01).
            await h.sandbox.inject(.unregistered(timestamp: 1_790_000_000_000), count: 1, token: gone)
            let client = try h.client()
            let total = try await h.worker(client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.deactivated == 1)
            let others = outbox.filter { $0.pushToken != gone }
            #expect(await delivered(h.sandbox).filter { !$0.hasPrefix(gone) } == expected(others))
            let activity = try await h.connection.withSession { try Activities.list(in: $0) }
                .first { $0.pushToken == gone }
            #expect(activity?.active == false)
            #expect(activity?.deactivatedReason == "Unregistered")
            let states = try await h.states()
            #expect(states["sent"] == others.count + (await delivered(h.sandbox).filter { $0.hasPrefix(gone) }.count))
            #expect((states["failed"] ?? 0) > 0)
            #expect(states["pending"] == nil)
        }
    }

    @Test("410 with a time before the token was registered keeps the activity: only that push fails")
    func unregisteredBeforeRegistration() async throws {
        try await Harness.with { h in
            let outbox = try await h.replay("plain-nine")
            let token = activityTokens[1]
            await h.sandbox.inject(.unregistered(timestamp: 1_700_000_000_000), count: 1, token: token)
            let client = try h.client()
            let total = try await h.worker(client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.deactivated == 0)
            let activity = try await h.connection.withSession { try Activities.list(in: $0) }
                .first { $0.pushToken == token }
            #expect(activity?.active == true)
            let states = try await h.states()
            #expect(states["failed"] == 1)
            #expect(states["pending"] == nil)
            #expect((states["sent"] ?? 0) + (states["superseded"] ?? 0) == outbox.count - 1)
        }
    }

    @Test("a worker that dies after claiming loses nothing: the lease ends and another worker delivers")
    func crashAfterClaim() async throws {
        try await Harness.with { h in
            let outbox = try await h.replay("delayed-postponed")
            // Claim everything with a one-second lease, then "die" without sending or recording.
            let claimed = try await h.connection.transaction { try Outbox.claim(limit: 1000, lease: 1, in: $0) }
            #expect(claimed.count == outbox.count)
            let client = try h.client()
            let early = try await h.worker(client).deliverDue()
            #expect(early.claimed == 0, "claimed pushes are not taken while the lease holds")
            try await Task.sleep(nanoseconds: 1_200_000_000)
            let total = try await h.worker(client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.sent == outbox.count)
            #expect(await delivered(h.sandbox) == expected(outbox))
        }
    }

    @Test("a push is not claimed while an earlier push of its activity is on the wire; released pushes are")
    func claimKeepsActivityOrder() async throws {
        try await Harness.with { h in
            let outbox = try await h.replay("plain-nine")
            let first = try await h.connection.transaction { try Outbox.claim(limit: 1, lease: 30, in: $0) }
            #expect(first.count == 1)
            let rest = try await h.connection.transaction { try Outbox.claim(limit: 10_000, lease: 30, in: $0) }
            let sameActivity = outbox.filter { $0.targetId == first[0].targetId }
            #expect(rest.count == outbox.count - sameActivity.count)
            #expect(!rest.contains { $0.targetId == first[0].targetId })
            try await h.connection.transaction { try Outbox.release(first.map(\.id) + rest.map(\.id), in: $0) }
            let attempts = try await h.connection.query("SELECT max(attempts) AS n FROM outbox")
            #expect(try attempts[0].int("n") == 0)
            let again = try await h.connection.transaction { try Outbox.claim(limit: 10_000, lease: 30, in: $0) }
            #expect(again.count == outbox.count)
        }
    }

    @Test("an invalid provider token pauses delivery and leaves the pushes pending")
    func invalidProviderToken() async throws {
        try await Harness.with { h in
            let outbox = try await h.replay("delayed-postponed")
            let client = try h.client(keyPEM: APNsTestKeyPair().privateKeyPEM)
            let total = try await h.worker(client).run(untilEmpty: true)
            try await client.shutdown()
            #expect(total.paused == "InvalidProviderToken")
            #expect(total.sent == 0)
            #expect(try await h.states() == ["pending": outbox.count])
        }
    }
}
