import Foundation
import ScoreFeedTesting
import Testing

@Suite("activities and delivery from the command line")
struct ActivityCLITests {
    let token = String(repeating: "a1", count: 32)

    @Test("activity add, list and remove; malformed input is a clear error that stores nothing")
    func activities() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            // A game ScoreFeed has never heard of is refused unless the provider will announce it later.
            let unknown = try await cli.run("activity", "add", "g1", token, "--bundle-id", "com.example.scores")
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("no game \"g1\" yet"), "\(unknown.stderr)")
            #expect(unknown.stderr.contains("--allow-unknown-game"))
            #expect(try await cli.run("activity", "list", "--json").stdout == "[]\n")
            let added = try await cli.run(
                "activity", "add", "g1", token, "--bundle-id", "com.example.scores", "--frequent",
                "--allow-unknown-game")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("registered activity 1 for game g1: token a1a1a1a1…, production"))
            for (arguments, message) in [
                (["activity", "add", "g1", "xyz", "--bundle-id", "com.example.scores"], "pushToken"),
                (["activity", "add", "g1", token], "give --bundle-id or set SCOREFEED_APNS_BUNDLE_ID"),
                (["activity", "add", "g 1", token, "--bundle-id", "com.example.scores"], "gameId"),
                (["activity", "add", "g1", token, "--bundle-id", "com.example.scores", "--at", "yesterday"], "--at"),
                (["activity", "remove", "ffff0000ffff0000"], "no active activity"),
            ] {
                let run = try await cli.run(arguments)
                #expect(run.status != 0, "\(arguments)")
                #expect(run.stderr.contains(message), "\(run.stderr)")
            }
            let list = try await cli.run("activity", "list", "--json")
            let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(rows.count == 1)
            #expect(rows.first?["frequentUpdates"] as? Bool == true)
            #expect(rows.first?["endedAt"] is NSNull)
            // Push-to-start devices.
            let device = try await cli.run(
                "device", "add", String(repeating: "b2", count: 32), "--follow", "BOS,NYY", "--bundle-id",
                "com.example.scores", "--channels")
            #expect(device.status == 0, "\(device.stderr)")
            #expect(device.stdout.contains("follows BOS,NYY"))
            let badDevice = try await cli.run(
                "device", "add", "xyz", "--follow", "BOS", "--bundle-id", "com.example.scores")
            #expect(badDevice.status == 1 && badDevice.stderr.contains("startToken"), "\(badDevice.stderr)")
            #expect(try await cli.run("device", "list").stdout.contains("BOS,NYY"))
            let removed = try await cli.run("activity", "remove", token)
            #expect(removed.status == 0)
            let after = try await cli.run("activity", "list")
            #expect(after.stdout.contains("inactive (removed)"))
        }
    }

    @Test("--app: the command line registers as the default app or as --app; another app neither takes over nor sees")
    func apps() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let add = ["activity", "add", "g1", token, "--bundle-id", "com.example.scores", "--allow-unknown-game"]
            let added = try await cli.run(add + ["--app", "ios"])
            #expect(added.status == 0, "\(added.stderr)")
            let taken = try await cli.run(add + ["--app", "tv", "--fcm-token", "dFx3kP0aQ_m:APA91bH2example"])
            #expect(taken.status == 1 && taken.stderr.contains("pushToken: this token is registered by another app"))
            #expect(try await cli.run(add).status == 1, "the default app does not take it over either")
            #expect(try await cli.run("activity", "list", "--json", "--app", "tv").stdout == "[]\n")
            let all = try await cli.run("activity", "list", "--json")
            let rows = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(rows.map { $0["app"] as? String } == ["ios"] && rows.map { $0["route"] as? String } == ["apns"])
            #expect(try await cli.run("activity", "show", token, "--app", "tv").status == 1)
            #expect(try await cli.run("activity", "remove", token, "--app", "tv").status == 1)
            #expect(try await cli.run("activity", "remove", token, "--app", "ios").status == 0)
            let bad = try await cli.run(add + ["--app", "Not_An_App"])
            #expect(bad.status != 0 && bad.stderr.contains("--app must be"), "\(bad.stderr)")
        }
    }

    @Test("replay --deliver sends the pushes to a local APNs server started with apns-sandbox")
    func replayAndDeliver() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString)").path
        let executable = try CLI.executable.path
        let server = Process()
        server.executableURL = URL(fileURLWithPath: executable)
        server.arguments = ["apns-sandbox", "--port", "0", "--dir", dir]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        var env = ""
        for _ in 0..<200 where env.isEmpty {
            env = (try? String(contentsOfFile: "\(dir)/env", encoding: .utf8)) ?? ""
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(env.contains("SCOREFEED_APNS_URL=https://127.0.0.1:"))
        try await TestDatabase.withSchema { url in
            var cli = CLI(databaseURL: url)
            for line in env.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { cli.environment[parts[0]] = parts[1] }
            }
            for (index, token) in activityTokens.enumerated() {
                let add = try await cli.run(
                    [
                        "activity", "add", "2026-06-03-CHC-STL", token, "--at", "2026-06-03T23:50:00Z",
                        "--allow-unknown-game",
                    ]
                        + (index == 2 ? ["--sandbox"] : []))
                #expect(add.status == 0, "\(add.stderr)")
            }
            let run = try await cli.run("replay", fixture("delayed-postponed.jsonl"), "--out", "/dev/null", "--deliver")
            #expect(run.status == 0, "\(run.stderr)")
            let golden = try String(contentsOfFile: fixture("delayed-postponed.pushes.jsonl"), encoding: .utf8)
            let expected = golden.split(separator: "\n").count
            #expect(run.stderr.contains("delivered \(expected) push(es); 0 retried, 0 deactivated, 0 failed"))
            let log = try String(contentsOfFile: "\(dir)/deliveries.jsonl", encoding: .utf8)
            #expect(log.split(separator: "\n").count == expected)
            // `pushes` shows the registered activities' pushes: the golden ones, each sent.
            let pushes = try await cli.run("pushes", "2026-06-03-CHC-STL", "--json")
            #expect(pushes.status == 0, "\(pushes.stderr)")
            let rows = try JSONSerialization.jsonObject(with: Data(pushes.stdout.utf8)) as! [[String: Any]]
            let goldenRows = try golden.split(separator: "\n").map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            }
            #expect(rows.map { $0["apnsId"] as? String } == goldenRows.map { $0["apnsId"] as? String })
            #expect(rows.allSatisfy { $0["state"] as? String == "sent" && $0["attempts"] as? Int == 1 })
            let table = try await cli.run("pushes", "2026-06-03-CHC-STL")
            #expect(table.stdout.contains("TARGET") && table.stdout.contains("sent"))
            // `activity show`: what became of one activity's pushes, and APNs' last answer.
            let mine = goldenRows.filter { $0["activity"] as? Int == 0 }.count
            let show = try await cli.run("activity", "show", activityTokens[0], "--json")
            #expect(show.status == 0, "\(show.stderr)")
            let shown = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any] ?? [:]
            let counts = shown["pushes"] as? [String: Int]
            #expect(counts?["planned"] == mine && counts?["sent"] == mine && counts?["failed"] == 0, "\(show.stdout)")
            #expect((shown["lastAnswer"] as? [String: Any])?["status"] as? Int == 200)
            #expect((shown["highPriorityLastHour"] as? [String: Int])?["budget"] == 12)
            let text = try await cli.run("activity", "show", activityTokens[0])
            #expect(text.stdout.contains("pushes: \(mine) planned, \(mine) sent"), "\(text.stdout)")
            #expect(text.stdout.contains("last answer: 200 → sent"))
            let unknown = try await cli.run("activity", "show", String(repeating: "0f", count: 32))
            #expect(unknown.status == 1 && unknown.stderr.contains("no activity with token"))
            // The game's broadcast channel, created at the local server on first use, then served again.
            let channel = try await cli.run("channel", "2026-06-03-CHC-STL")
            #expect(channel.status == 0, "\(channel.stderr)")
            let id = channel.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(Data(base64Encoded: id) != nil, "\(channel.stdout)")
            #expect(try await cli.run("channel", "2026-06-03-CHC-STL").stdout == channel.stdout)
            let channels = try await cli.run("channel", "list", "--json")
            let listed = try JSONSerialization.jsonObject(with: Data(channels.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(listed.map { $0["channelId"] as? String } == [id])
            let badURL = try await cli.run("channel", "2026-06-03-CHC-STL", "--apns-channels-url", "http://x")
            #expect(badURL.status == 1 && badURL.stderr.contains("must be an https URL"), "\(badURL.stderr)")
            let badCount = try await cli.run("deliver", "--until-empty", "--apns-connections", "0")
            #expect(badCount.status == 1 && badCount.stderr.contains("from 1 to 64"), "\(badCount.stderr)")
            let noGame = try await cli.run("channel", "nope")
            #expect(noGame.status == 1 && noGame.stderr.contains("no game \"nope\" yet"), "\(noGame.stderr)")
        }
    }

    /// Starts `scorefeed SANDBOX --port 0 --dir DIR` and returns the process and its env file's settings.
    static func startSandbox(_ command: String) async throws -> (Process, [String: String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(command)-\(UUID().uuidString)").path
        let server = Process()
        server.executableURL = URL(fileURLWithPath: try CLI.executable.path)
        server.arguments = [command, "--port", "0", "--dir", dir]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        var env = ""
        for _ in 0..<200 where env.isEmpty {
            env = (try? String(contentsOfFile: "\(dir)/env", encoding: .utf8)) ?? ""
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        var settings: [String: String] = ["dir": dir]
        for line in env.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { settings[parts[0]] = parts[1] }
        }
        return (server, settings)
    }

    @Test("through FCM from the command line: activity add --fcm-token, follower add|list|remove, replay --deliver")
    func throughFCM() async throws {
        let (apns, apnsEnv) = try await Self.startSandbox("apns-sandbox")
        defer { apns.terminate() }
        let (fcm, fcmEnv) = try await Self.startSandbox("fcm-sandbox")
        defer { fcm.terminate() }
        #expect(fcmEnv["SCOREFEED_FCM_URL"]?.hasPrefix("https://127.0.0.1:") == true, "\(fcmEnv)")
        #expect(fcmEnv["SCOREFEED_FCM_CREDENTIALS"] != nil && fcmEnv["SCOREFEED_FCM_CA_FILE"] != nil)
        try await TestDatabase.withSchema { url in
            var cli = CLI(databaseURL: url)
            for (name, value) in apnsEnv.merging(fcmEnv, uniquingKeysWith: { $1 }) where name != "dir" {
                cli.environment[name] = value
            }
            let game = "2026-06-03-CHC-STL"
            let at = "2026-06-03T23:50:00Z"
            let added = try await cli.run(
                "activity", "add", game, fcmActivityToken, "--fcm-token", fcmIOSRegistration, "--at", at,
                "--allow-unknown-game")
            #expect(added.status == 0 && added.stdout.contains("through FCM (token fcm-ios-…)"), "\(added)")
            let followed = try await cli.run(
                "follower", "add", game, androidRegistration, "--at", at, "--allow-unknown-game")
            #expect(followed.status == 0 && followed.stdout.contains("follows game \(game)"), "\(followed)")
            for (arguments, message) in [
                (["follower", "add", game, "not a token", "--allow-unknown-game"], "fcmToken"),
                (["follower", "add", game, "short", "--fid", "--allow-unknown-game"], "fid"),
                (["follower", "add", game, androidRegistration], "no game"),
                (["follower", "remove", game, "someone-else-0001"], "does not follow"),
                (
                    [
                        "activity", "add", game, fcmActivityToken, "--fcm-token", fcmIOSRegistration, "--fid",
                        "cAAAAAAAAAAAAAAAAAAAAA", "--allow-unknown-game",
                    ], "not both"
                ),
            ] {
                let run = try await cli.run(arguments)
                #expect(run.status != 0, "\(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
            let replay = try await cli.run(
                "replay", fixture("delayed-postponed.jsonl"), "--out", "/dev/null", "--deliver")
            #expect(replay.status == 0, "\(replay.stderr)")
            let ios = try FCMDeliveryCount.golden("delayed-postponed")
            let android = try String(contentsOfFile: fixture("delayed-postponed.android.jsonl"), encoding: .utf8)
                .split(separator: "\n").count
            #expect(replay.stderr.contains("delivered \(ios + android) push(es); 0 retried"), "\(replay.stderr)")
            let log = try String(contentsOfFile: "\(fcmEnv["dir"]!)/messages.jsonl", encoding: .utf8)
            #expect(log.split(separator: "\n").count == ios + android)
            let list = try await cli.run("follower", "list", game, "--json")
            let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(rows.map { $0["fcmToken"] as? String } == [androidRegistration])
            let removed = try await cli.run("follower", "remove", game, androidRegistration)
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(try await cli.run("follower", "list").stdout.contains("inactive (unfollowed)"))
            // FCM settings alone are enough to deliver.
            var fcmOnly = CLI(databaseURL: url)
            for (name, value) in fcmEnv where name != "dir" { fcmOnly.environment[name] = value }
            let alone = try await fcmOnly.run("deliver", "--until-empty")
            #expect(alone.status == 0 && alone.stderr.contains("delivered 0 push(es)"), "\(alone.stderr)")
            let activities = try await cli.run("activity", "list", "--json")
            let listed = try JSONSerialization.jsonObject(with: Data(activities.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(listed.map { $0["route"] as? String } == ["fcm"])
        }
    }

    @Test("a bad APNs setting fails before anything is replayed")
    func badAPNsSettings() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let run = try await cli.run(
                "replay", fixture("plain-nine.jsonl"), "--deliver", "--apns-key-file", "/no/such/key.p8",
                "--apns-key-id", "K", "--apns-team-id", "T", "--apns-bundle-id", "com.example.scores")
            #expect(run.status != 0)
            #expect(run.stderr.contains("APNs configuration"))
            let games = try await cli.run("games", "--json")
            #expect(games.stdout == "[]\n")
        }
    }
}

/// How many pushes activity 0 of a fixture's golden stream gets (an activity registered 15 minutes
/// before the first pitch, as the FCM one here).
enum FCMDeliveryCount {
    static func golden(_ name: String) throws -> Int {
        try String(contentsOfFile: fixture("\(name).pushes.jsonl"), encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix(#"{"activity":0,"#) }.count
    }
}
