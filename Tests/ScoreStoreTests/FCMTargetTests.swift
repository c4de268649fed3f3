import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("Targets reached through FCM: an iOS activity and an Android follower")
struct FCMTargetTests {
    @Test(
        "the FCM activity gets exactly the pushes of an APNs activity, the follower exactly its golden messages",
        .serialized, arguments: ReplayTests.fixtures)
    func golden(_ name: String) async throws {
        try await withStore { connection in
            let file = fixture("\(name).jsonl")
            try await registerActivities(for: file, connection)
            try await registerFCMTargets(for: file, connection)
            try await replay(file, connection)
            let gameId = try FeedFile.read(file)[0].message.gameId
            let pushes = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            // The same decisions: the FCM activity's pushes equal activity 0's (registered alike),
            // payloads byte for byte.
            let apns = pushes.filter { $0.pushToken == activityTokens[0] }
            let viaFCM = pushes.filter { $0.pushToken == fcmActivityToken }
            #expect(viaFCM.map(\.payload) == apns.map(\.payload))
            #expect(viaFCM.map(\.priority) == apns.map(\.priority))
            #expect(viaFCM.map(\.expiration) == apns.map(\.expiration))
            #expect(viaFCM.allSatisfy { $0.route == .fcm && $0.fcm == .token(fcmIOSRegistration) })
            #expect(apns.allSatisfy { $0.route == .apns && $0.fcm == nil })
            // The Android follower: its golden stream, seq each message's send time in milliseconds, one end, last.
            let android = pushes.filter { $0.route == .android }
            #expect(android.allSatisfy { $0.fcm == .token(androidRegistration) && $0.priority == 10 })
            #expect(zip(android, android.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
            #expect(android.filter { $0.event == .end }.count == 1)
            #expect(android.last?.event == .end)
            let produced = androidLines(android)
            let goldenPath = fixture("\(name).android.jsonl")
            if ProcessInfo.processInfo.environment["SCOREFEED_UPDATE_GOLDEN"] == "1" {
                try produced.write(toFile: goldenPath, atomically: true, encoding: .utf8)
            }
            let golden = try String(contentsOfFile: goldenPath, encoding: .utf8)
            #expect(produced == golden, "SCOREFEED_UPDATE_GOLDEN=1 rewrites \(goldenPath)")
            #expect(Set(pushes.map(\.apnsId)).count == pushes.count, "apns-ids must be unique")
        }
    }

    @Test(
        "a device follows a game once, may unfollow (its pending messages fail) and follow again (seq goes on), and follows at most 6 unfinished games"
    )
    func follow() async throws {
        try await withStore { connection in
            let at = Date(timeIntervalSince1970: 1_700_000_000)
            try await connection.withSession { s in
                let first = try Followers.follow(gameId: "g1", fcm: .token(androidRegistration), at: at, in: s)
                #expect(first.started)
                let again = try Followers.follow(gameId: "g1", fcm: .token(androidRegistration), at: at, in: s)
                #expect(first.follower.id == again.follower.id && !again.started)
                #expect(try Followers.list(in: s).count == 1)
                #expect(try Activities.list(in: s).isEmpty, "followers are not Live Activities")
                #expect(try Followers.unfollow(gameId: "g1", fcmToken: androidRegistration, in: s))
                #expect(try !Followers.unfollow(gameId: "g1", fcmToken: androidRegistration, in: s))
                let back = try Followers.follow(gameId: "g1", fcm: .token(androidRegistration), at: at, in: s)
                #expect(back.follower.id == first.follower.id && back.follower.active && back.started)
                for game in 2...6 {
                    _ = try Followers.follow(gameId: "g\(game)", fcm: .token(androidRegistration), at: at, in: s)
                }
                #expect(throws: Followers.Refusal.tooManyGames(6)) {
                    try Followers.follow(gameId: "g7", fcm: .token(androidRegistration), at: at, in: s)
                }
                // A game that is over no longer counts.
                try s.query("UPDATE activities SET ended_at = now() WHERE game_id = 'g2'")
                #expect(try Followers.follow(gameId: "g7", fcm: .token(androidRegistration), at: at, in: s).started)
            }
        }
    }

    @Test(
        "following a game in progress sends its state at once (the Live Update's start); following again after unfollowing goes on after the last seq"
    )
    func startAndSeq() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            let messages = try FeedFile.read(file).map(\.message)
            let gameId = messages[0].gameId
            // The first half of the game is projected before the device follows.
            _ = try await Ingestor(connection: connection).ingest(Array(messages.prefix(messages.count / 2)))
            _ = try await Projector().step(connection)
            let at = messages[messages.count / 2].at
            _ = try await connection.transaction {
                try Followers.follow(gameId: gameId, fcm: .token(androidRegistration), at: at, in: $0)
            }
            var pushes = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            let startSeq = Int(at.timeIntervalSince1970 * 1000)
            #expect(pushes.map(\.timestamp) == [startSeq] && pushes.first?.route == .android)
            #expect(pushes.first?.payload.contains(#""seq":"\#(startSeq)""#) == true)
            // More of the game, then unfollow and follow again: seq goes on after the last message.
            let threeQuarters = messages.count * 3 / 4
            _ = try await Ingestor(connection: connection).ingest(Array(messages[(messages.count / 2)..<threeQuarters]))
            _ = try await Projector().step(connection)
            let before = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            let lastBefore = before.last!.timestamp
            let again = messages[threeQuarters - 1].at
            _ = try await connection.transaction { tx in
                try Followers.unfollow(gameId: gameId, fcmToken: androidRegistration, in: tx)
                _ = try Followers.follow(gameId: gameId, fcm: .token(androidRegistration), at: again, in: tx)
            }
            // The rest of the game: every message after the last one, up to the end.
            _ = try await Ingestor(connection: connection).ingest(Array(messages.suffix(from: threeQuarters)))
            _ = try await Projector().step(connection)
            pushes = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            let after = pushes.filter { $0.id > before.last!.id }
            #expect(!after.isEmpty && after.allSatisfy { $0.timestamp > lastBefore }, "seq goes on after a new follow")
            #expect(zip(after, after.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
            #expect(pushes.last?.event == .end)
            let last = pushes.last!.timestamp
            // After the end, a new follow is refused naming the end: it would wait for ever.
            await #expect {
                try await connection.transaction { tx in
                    try Followers.unfollow(gameId: gameId, fcmToken: androidRegistration, in: tx)
                    _ = try Followers.follow(gameId: gameId, fcm: .token(androidRegistration), at: Date(), in: tx)
                }
            } throws: { error in
                guard case .gameOver(let end) = error as? RegistrationRefusal else { return false }
                return end.gameId == gameId && end.status == .closed && (end.homeScore, end.awayScore) == (7, 3)
            }
            let stored = try await connection.query(
                "SELECT throttle_state, active FROM activities WHERE route = 'android'")[0]
            #expect(try LiveUpdateThrottle(storageText: try stored.string("throttle_state")).lastSeq == last)
            #expect(try stored.bool("active"), "the refused follow's transaction left the follow as it was")
        }
    }

    @Test(
        "bad addresses are refused naming the field, and nothing is stored",
        arguments: [
            (FCMAddress.token("short"), "fcmToken"), (.token("has space in it"), "fcmToken"),
            (.fid("tooShort"), "fid"), (.fid("cKx1-23456789012345678!"), "fid"),
        ])
    func badAddress(_ address: FCMAddress, _ field: String) async throws {
        try await withStore { connection in
            let at = Date()
            try await connection.withSession { s in
                #expect { try Followers.follow(gameId: "g1", fcm: address, at: at, in: s) } throws: {
                    ($0 as? ActivityError)?.field == field
                }
                #expect {
                    try Activities.register(
                        gameId: "g1", token: fcmActivityToken, environment: .production, bundleId: "com.example.scores",
                        frequentUpdates: false, fcm: address, at: at, in: s)
                } throws: { ($0 as? ActivityError)?.field == field }
            }
            #expect(try await count("activities", connection) == 0)
        }
    }

    @Test("FCM's UNREGISTERED deactivates every target of that registration and fails their pending pushes")
    func deactivate() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            try await registerFCMTargets(for: file, connection)
            try await replay(file, connection)
            let claimed = try await connection.transaction {
                try Outbox.claim(limit: 1, lease: 30, routes: [.android], in: $0)
            }
            #expect(claimed.count == 1 && claimed[0].route == .android)
            #expect(
                try await connection.transaction { try Outbox.claim(limit: 10, lease: 30, routes: [.apns], in: $0) }
                    .isEmpty)
            try await connection.transaction {
                try Outbox.record(
                    [
                        .init(
                            claimed[0], status: 404, reason: "UNREGISTERED",
                            outcome: .deactivate(reason: "UNREGISTERED"))
                    ],
                    in: $0)
            }
            let followers = try await connection.withSession { try Followers.list(in: $0) }
            #expect(followers.map(\.active) == [false])
            #expect(followers.first?.deactivatedReason == "UNREGISTERED")
            let pending = try await connection.query(
                "SELECT count(*) AS n FROM outbox p JOIN activities a ON a.id = p.activity_id WHERE a.route = 'android' AND p.state = 'pending'"
            )[0].int("n")
            #expect(pending == 0)
            // The iOS activity has another registration: untouched.
            #expect(try await connection.withSession { try Activities.list(in: $0) }.map(\.active) == [true])
        }
    }

    @Test("an activity registered again through FCM (or back to APNs) moves the pushes still waiting to the new route")
    func moveRoute() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            try await registerActivities(for: file, connection)
            try await replay(file, connection)
            let gameId = try FeedFile.read(file)[0].message.gameId
            func routes() async throws -> Set<PushRoute> {
                Set(
                    try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
                        .filter { $0.pushToken == activityTokens[0] && $0.state == "pending" }.map(\.route))
            }
            #expect(try await routes() == [.apns])
            try await connection.withSession { s in
                _ = try Activities.register(
                    gameId: gameId, token: activityTokens[0], environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, fcm: .token(fcmIOSRegistration), at: Date(), in: s)
            }
            #expect(try await routes() == [.fcm])
            let claimed = try await connection.transaction {
                try Outbox.claim(limit: 1, lease: 30, routes: [.fcm, .android], in: $0)
            }
            #expect(claimed.first?.fcm == .token(fcmIOSRegistration))
        }
    }

    @Test(
        "an Android backlog (messages with a newer one written 30 s or more after them) is superseded: the device gets the last 30 s, not a burst"
    )
    func backlog() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            try await registerFCMTargets(for: file, connection)
            try await replay(file, connection)
            let android = "SELECT count(*) AS n FROM outbox WHERE route = 'android' AND state = 'pending'"
            let planned = try await connection.query(android)[0].int("n")
            // A replay plans the whole game in moments: however late delivery comes, nothing is a backlog.
            try await connection.query("UPDATE outbox SET created_at = now() - interval '1 hour'")
            let first = try await connection.transaction {
                try Outbox.claim(limit: 1, lease: 30, routes: [.android], in: $0)
            }
            #expect(first.count == 1 && first[0].event == .update)
            #expect(try await connection.query(android)[0].int("n") == planned)
            // The same messages written 10 s apart, as a live game does, then an outage: what was
            // written 30 s or more before a newer one goes; the last three (the end among them) are sent.
            try await connection.transaction { tx in
                try Outbox.release(first.map(\.id), in: tx)
                try tx.query(
                    """
                    UPDATE outbox p SET created_at = now() - interval '1 day' + r.rank * interval '10 seconds'
                    FROM (SELECT id, row_number() OVER (PARTITION BY activity_id ORDER BY id) AS rank
                          FROM outbox) r
                    WHERE r.id = p.id
                    """)
            }
            let claimed = try await connection.transaction {
                try Outbox.claim(limit: 100, lease: 30, routes: [.android, .fcm], in: $0)
            }
            #expect(claimed.filter { $0.route == .android }.map(\.event) == [.update, .update, .end])
            #expect(claimed.filter { $0.route == .fcm }.count > 3, "an iOS activity through FCM keeps its pushes")
            let superseded = try await connection.query(
                "SELECT count(*) AS n FROM outbox WHERE route = 'android' AND state = 'superseded'")
            #expect(try superseded[0].int("n") == planned - 3)
        }
    }

    @Test("two follows of one address at once are serialized: they cannot both pass the limit of 6")
    func concurrentFollows() async throws {
        try await TestDatabase.withSchema { url in
            let first = try await PostgresConnection.connect(url)
            let second = try await PostgresConnection.connect(url)
            try await Migrator().migrate(first, logger: quietLogger)
            let at = Date()
            try await first.transaction { tx in
                for game in 1...5 {
                    _ = try Followers.follow(gameId: "g\(game)", fcm: .token(androidRegistration), at: at, in: tx)
                }
            }
            // The 6th follow holds its transaction open a moment; the 7th, started meanwhile, waits for
            // it and then sees 6.
            async let sixth: Void = first.transaction { tx in
                _ = try Followers.follow(gameId: "g6", fcm: .token(androidRegistration), at: at, in: tx)
                Thread.sleep(forTimeInterval: 0.5)
            }
            try await Task.sleep(for: .milliseconds(150))
            await #expect(throws: Followers.Refusal.tooManyGames(6)) {
                try await second.transaction { tx in
                    try Followers.follow(gameId: "g7", fcm: .token(androidRegistration), at: at, in: tx)
                }
            }
            try await sixth
            let active = try await first.query(
                "SELECT count(*) AS n FROM activities WHERE route = 'android' AND active")
            #expect(try active[0].int("n") == 6)
            await first.close()
            await second.close()
        }
    }
}
