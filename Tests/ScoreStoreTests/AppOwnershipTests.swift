import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Synchronization
import Testing

/// Issue 25: registrations belong to the app whose key made them; nothing waits for ever after the
/// final; the record of a push keeps the route it went by.
@Suite("apps own their registrations; nothing registered after the final; route history")
struct AppOwnershipTests {
    let token = String(repeating: "a1", count: 32)
    let startToken = String(repeating: "5e", count: 32)

    @Test(
        "another app can neither take over, see, change nor remove a token; its start token and FCM address are its own"
    )
    func ownership() async throws {
        try await withStore { connection in
            let (token, startToken) = (self.token, self.startToken)
            try await connection.withSession { s in
                let mine = try Activities.register(
                    gameId: "g1", token: token, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, app: "ios", at: Date(), in: s)
                #expect(mine.app == "ios")
                _ = try Devices.register(
                    startToken: startToken, follows: ["BOS"], environment: .production, bundleId: "com.example.scores",
                    channels: false, app: "ios", at: Date(), in: s)
                _ = try Followers.follow(gameId: "g1", fcm: .token(androidRegistration), app: "ios", at: Date(), in: s)
            }
            // Taking over: the same push token (to FCM, or for another game), start token or FCM address.
            for fcm in [nil, FCMAddress.token(fcmIOSRegistration)] {
                await #expect(throws: RegistrationRefusal.otherApp(field: "pushToken")) {
                    try await connection.withSession { s in
                        try Activities.register(
                            gameId: "g1", token: token, environment: .production, bundleId: "com.other.scores",
                            frequentUpdates: true, fcm: fcm, app: "other", at: Date(), in: s)
                    }
                }
            }
            await #expect(throws: RegistrationRefusal.otherApp(field: "startToken")) {
                try await connection.withSession { s in
                    try Devices.register(
                        startToken: startToken, follows: ["NYY"], environment: .sandbox, bundleId: "com.other.scores",
                        channels: true, app: "other", at: Date(), in: s)
                }
            }
            for game in ["g1", "g2"] {
                await #expect(throws: RegistrationRefusal.otherApp(field: "fcmToken")) {
                    try await connection.withSession { s in
                        try Followers.follow(
                            gameId: game, fcm: .token(androidRegistration), app: "other", at: Date(), in: s)
                    }
                }
            }
            await #expect(throws: RegistrationRefusal.unknownStartToken) {
                try await connection.withSession { s in
                    try Devices.joinStart(startToken: startToken, gameId: "g1", activityId: 1, app: "other", in: s)
                }
            }
            // Seeing, changing, removing.
            try await connection.withSession { s throws in
                #expect(try Activities.delivery(token: token, app: "other", now: Date(), policy: .init(), in: s) == nil)
                #expect(try Activities.delivery(token: token, app: "ios", now: Date(), policy: .init(), in: s) != nil)
                #expect(try Activities.list(app: "other", in: s).isEmpty)
                #expect(try Followers.list(app: "other", in: s).isEmpty)
                #expect(try Devices.list(app: "other", in: s).isEmpty)
                #expect(
                    try Activities.setFrequentUpdates(token: token, app: "other", true, planner: .init(), in: s) == nil)
                #expect(try !Activities.deactivate(token: token, app: "other", reason: "x", in: s))
                #expect(try !Followers.unfollow(gameId: "g1", fcmToken: androidRegistration, app: "other", in: s))
            }
            // Nothing of the first app's changed.
            let rows = try await connection.query(
                """
                SELECT app, route, active, frequent_updates, bundle_id FROM activities ORDER BY id
                """)
            #expect(
                try rows.rows.map { try [$0.string("app"), $0.string("route"), $0.string("active")] } == [
                    ["ios", "apns", "t"], ["ios", "android", "t"],
                ])
            let device = try await connection.withSession { try Devices.list(in: $0) }
            #expect(device.map(\.app) == ["ios"] && device.map(\.follows) == [["BOS"]])
        }
    }

    @Test(
        "after the final, a new activity, follow or followed game id is refused naming the end; a registered activity may still move"
    )
    func gameOver() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            let gameId = try FeedFile.read(file)[0].message.gameId
            let token = self.token
            try await connection.withSession { s in
                _ = try Activities.register(
                    gameId: gameId, token: token, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: Date(), in: s)
            }
            try await replay(file, connection)
            let end: (RegistrationRefusal) -> Bool = { refusal in
                guard case .gameOver(let end) = refusal else { return false }
                return end.gameId == gameId && end.status == .closed && end.home == "BOS" && end.homeScore == 7
                    && end.awayScore == 3 && refusal.description.contains("is over (closed, NYY 3 at BOS 7")
            }
            await #expect {
                try await connection.withSession { s in
                    try Activities.register(
                        gameId: gameId, token: String(repeating: "b2", count: 32), environment: .production,
                        bundleId: "com.example.scores", frequentUpdates: false, at: Date(), in: s)
                }
            } throws: { end($0 as! RegistrationRefusal) }
            await #expect {
                try await connection.withSession { s in
                    try Followers.follow(gameId: gameId, fcm: .token(androidRegistration), at: Date(), in: s)
                }
            } throws: { end($0 as! RegistrationRefusal) }
            await #expect {
                try await connection.withSession { s in
                    try Devices.register(
                        startToken: self.startToken, follows: ["BOS", gameId], environment: .production,
                        bundleId: "com.example.scores", channels: false, at: Date(), in: s)
                }
            } throws: { end($0 as! RegistrationRefusal) }
            #expect(try await count("devices", connection) == 0)
            #expect(try await connection.query("SELECT count(*) AS n FROM activities")[0].int("n") == 1)
            // The activity registered before the end may move to FCM (its pushes still waiting with it).
            let moved = try await connection.withSession { s in
                try Activities.register(
                    gameId: gameId, token: token, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, fcm: .token(fcmIOSRegistration), at: Date(), in: s)
            }
            #expect(moved.route == .fcm)
        }
    }

    @Test(
        "re-registering by another route moves what waits; what was sent, or was on the wire, keeps the route it went by"
    )
    func routeHistory() async throws {
        try await withStore { connection in
            let file = fixture("plain-nine.jsonl")
            let gameId = try FeedFile.read(file)[0].message.gameId
            let token = activityTokens[0]
            // One activity, registered before the first pitch.
            try await registerActivities(for: file, connection)
            try await connection.withSession { s in
                for other in activityTokens.dropFirst() { try Activities.deactivate(token: other, reason: "x", in: s) }
            }
            try await replay(file, connection)
            func claim(_ routes: [PushRoute]) async throws -> TargetPush {
                try #require(
                    try await connection.transaction { try Outbox.claim(limit: 1, lease: 30, routes: routes, in: $0) }
                        .first)
            }
            func record(_ push: TargetPush) async throws {
                try await connection.transaction {
                    try Outbox.record([Outbox.Attempt(push, status: 200, reason: nil, outcome: .sent)], in: $0)
                }
            }
            let first = try await claim([.apns])
            try await record(first)
            let onTheWire = try await claim([.apns])
            #expect(onTheWire.route == .apns)
            // Registered again through FCM while the second push is on the wire to APNs.
            try await connection.withSession { s in
                _ = try Activities.register(
                    gameId: gameId, token: token, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, fcm: .token(fcmIOSRegistration), at: Date(), in: s)
            }
            try await record(onTheWire)
            let third = try await claim([.fcm, .android])
            #expect(third.route == .fcm && third.fcm == .token(fcmIOSRegistration))
            try await record(third)
            let pushes = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            let sent = pushes.filter { $0.state == "sent" }
            #expect(sent.map(\.id) == [first.id, onTheWire.id, third.id])
            #expect(sent.map(\.route) == [.apns, .apns, .fcm])
            #expect(sent.map(\.fcm) == [nil, nil, .token(fcmIOSRegistration)])
            #expect(Set(pushes.filter { $0.state == "pending" }.map(\.route)) == [.fcm])
            // Registered again with a new FCM token: what waits goes to it, what was sent keeps the old one.
            let renewed = "fcm-ios-device-0001:APA91bHsandboxIOSregistrationToken0002"
            try await connection.withSession { s in
                _ = try Activities.register(
                    gameId: gameId, token: token, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, fcm: .token(renewed), at: Date(), in: s)
            }
            let moved = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            #expect(moved.filter { $0.state == "sent" }.map(\.fcm) == [nil, nil, .token(fcmIOSRegistration)])
            #expect(Set(moved.filter { $0.state == "pending" }.map(\.fcm)) == [.token(renewed)])
            // And back to APNs: the push sent through FCM stays an FCM push, to the token it went to.
            try await connection.withSession { s in
                _ = try Activities.register(
                    gameId: gameId, token: token, environment: .production, bundleId: "com.example.scores",
                    frequentUpdates: false, at: Date(), in: s)
            }
            let again = try await connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            #expect(again.filter { $0.state == "sent" }.map(\.route) == [.apns, .apns, .fcm])
            #expect(again.filter { $0.state == "sent" }.map(\.fcm) == [nil, nil, .token(fcmIOSRegistration)])
            #expect(Set(again.filter { $0.state == "pending" }.map(\.route)) == [.apns])
            #expect(Set(again.filter { $0.state == "pending" }.map(\.fcm)) == [nil])
        }
    }

    @Test("two apps registering one FCM token at once: the second waits for the first and is refused")
    func concurrentOwnership() async throws {
        try await TestDatabase.withSchema { url in
            let first = try await PostgresConnection.connect(url)
            let second = try await PostgresConnection.connect(url)
            try await Migrator().migrate(first, logger: quietLogger)
            // App ios registers an activity through the token and holds its transaction open a moment;
            // app tv, registering a device through the same token meanwhile, must not pass the check.
            // tv starts once ios has registered (not after a fixed delay: a loaded machine may not have
            // started ios's transaction by then).
            let registered = Atomic<Bool>(false)
            async let ios: Void = first.transaction { tx in
                _ = try Activities.register(
                    gameId: "g1", token: String(repeating: "ab", count: 32), environment: .production,
                    bundleId: "com.example.scores", frequentUpdates: false, fcm: .token(fcmIOSRegistration),
                    app: "ios", at: Date(), in: tx)
                registered.store(true, ordering: .releasing)
                Thread.sleep(forTimeInterval: 1)
            }
            while !registered.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(10)) }
            await #expect(throws: RegistrationRefusal.otherApp(field: "fcmToken")) {
                try await second.transaction { tx in
                    _ = try Devices.register(
                        startToken: String(repeating: "5e", count: 32), follows: ["BOS"], environment: .production,
                        bundleId: "com.example.scores", channels: false, fcm: .token(fcmIOSRegistration), app: "tv",
                        at: Date(), in: tx)
                }
            }
            try await ios
            #expect(try await second.query("SELECT count(*) AS n FROM devices")[0].int("n") == 0)
            await first.close()
            await second.close()
        }
    }

    @Test("app rename --merge is refused when both apps have an open channel of one game; nothing is moved")
    func renameChannelClash() async throws {
        try await withStore { connection in
            for (app, channel) in [("default", "Y2hhbm5lbEE="), ("ios", "Y2hhbm5lbEI=")] {
                try await connection.query(
                    "INSERT INTO channels (game_id, environment, channel_id, app) VALUES ('g1', 'production', $1, $2)",
                    [channel, app])
            }
            await #expect(throws: AppRenameError.channelClash(gameId: "g1", environment: "production")) {
                try await connection.transaction { try AppName.rename("default", to: "ios", merge: true, in: $0) }
            }
            let apps = try await connection.query("SELECT app FROM channels ORDER BY app").rows.map {
                try $0.string("app")
            }
            #expect(apps == ["default", "ios"])
        }
    }

    @Test("migration 0022 gives every activity, follower, device and channel of an earlier build to the default app")
    func migrationGivesRowsToDefault() async throws {
        try await withStore(migrated: false) { connection in
            let schema = repositoryRoot.appendingPathComponent("schema")
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: schema.path) where name < "0022" {
                try FileManager.default.copyItem(
                    at: schema.appendingPathComponent(name), to: dir.appendingPathComponent(name))
            }
            try await Migrator(directory: dir).migrate(connection, logger: quietLogger)
            try await connection.query(
                """
                INSERT INTO activities (game_id, push_token, environment, bundle_id, throttle_state)
                VALUES ('g1', $1, 'production', 'com.example.scores', 'x')
                """, [token])
            try await connection.query(
                """
                INSERT INTO activities (game_id, push_token, environment, bundle_id, throttle_state, route, fcm_token,
                                        fcm_kind)
                VALUES ('g1', NULL, 'production', 'android', 'x', 'android', $1, 'token')
                """, [androidRegistration])
            try await connection.query(
                """
                INSERT INTO devices (start_token, environment, bundle_id, follows, registered_at)
                VALUES ($1, 'production', 'com.example.scores', '{BOS}', now())
                """, [startToken])
            try await connection.query(
                "INSERT INTO channels (game_id, environment, channel_id) VALUES ('g1', 'production', 'Y2hhbm5lbA==')")
            try await Migrator(environment: [:]).migrate(connection, logger: quietLogger)
            for table in ["activities", "devices", "channels"] {
                let apps = try await connection.query("SELECT DISTINCT app FROM \(table)").rows.map {
                    try $0.string("app")
                }
                #expect(apps == [AppName.default], "\(table)")
            }
            try await connection.withSession { s throws in
                #expect(try Activities.list(app: AppName.default, in: s).count == 1)
                #expect(try Followers.list(app: AppName.default, in: s).count == 1)
                #expect(try Channels.open(gameId: "g1", environment: .production, in: s)?.channelId == "Y2hhbm5lbA==")
            }
        }
    }

    @Test("migration 0023 gives each push through FCM of an earlier build its activity's FCM registration")
    func migrationBackfillsPushTargets() async throws {
        try await withStore(migrated: false) { connection in
            let schema = repositoryRoot.appendingPathComponent("schema")
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: schema.path) where name < "0023" {
                try FileManager.default.copyItem(
                    at: schema.appendingPathComponent(name), to: dir.appendingPathComponent(name))
            }
            try await Migrator(directory: dir).migrate(connection, logger: quietLogger)
            try await connection.query(
                """
                INSERT INTO activities (game_id, push_token, environment, bundle_id, throttle_state, route, fcm_token,
                                        fcm_kind)
                VALUES ('g1', $1, 'production', 'com.example.scores', 'x', 'fcm', $2, 'token'),
                       ('g1', $3, 'production', 'com.example.scores', 'x', 'apns', NULL, NULL)
                """, [token, fcmIOSRegistration, String(repeating: "cd", count: 32)])
            try await connection.query(
                """
                INSERT INTO activity_pushes (activity_id, game_id, apns_id, event, priority, aps_timestamp, expiration,
                                             reason, payload, send_at, state, route)
                SELECT id, 'g1', gen_random_uuid(), 'update', 10, 1, 0, 'x', '{}', now(), 'sent', route FROM activities
                """)
            try await Migrator(environment: [:]).migrate(connection, logger: quietLogger)
            let pushes = try await connection.withSession { try TargetPushes.forGame("g1", in: $0) }
            #expect(pushes.map(\.route) == [.fcm, .apns])
            #expect(pushes.map(\.fcm) == [.token(fcmIOSRegistration), nil])
        }
    }
}
