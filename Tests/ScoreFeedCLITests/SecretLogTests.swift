import ChildProcess
import Foundation
import LiveFollowTesting
import MLBFeedTesting
import ScoreFeedTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every secret an operator sets (ingest keys, the HMAC secret, app keys, database passwords, the APNs
/// signing key, the FCM service-account key) and every credential made from them (APNs provider JWTs,
/// Google OAuth assertions and access tokens) stays out of the log at every level, `trace` included.
@Suite("no secret in any log", .timeLimit(.minutes(4)))
struct SecretLogTests {
    static let ingestKey = "ingest-key-0123456789-SECRET"
    static let ingestSecret = "hmac-secret-0123456789-SECRET"
    static let appKeys = ["app-key-default-0123456789-SECRET", "app-key-other-0123456789-SECRET"]
    static let password = "db-password-0123456789-SECRET"
    static let readPassword = "read-password-0123456789-SECRET"
    static let sportradarKey = "sportradar-key-0123456789-SECRET"

    @Test("serve, deliver, follow mlb and follow sportradar at trace level print no secret")
    func traceLogs() async throws {
        let (apns, apnsEnv) = try await ActivityCLITests.startSandbox("apns-sandbox")
        defer { apns.terminate() }
        let (fcm, fcmEnv) = try await ActivityCLITests.startSandbox("fcm-sandbox")
        defer { fcm.terminate() }
        try await TestDatabase.withSchema { url in
            let primary = Self.withPassword(url, Self.password)
            var environment = ProcessInfo.processInfo.environment
            for (name, value) in apnsEnv.merging(fcmEnv, uniquingKeysWith: { $1 }) where name != "dir" {
                environment[name] = value
            }
            environment["SCOREFEED_DATABASE_URL"] = primary
            environment["SCOREFEED_READ_DATABASE_URL"] = Self.withPassword(url, Self.readPassword)
            environment["SCOREFEED_INGEST_KEYS"] = Self.ingestKey
            environment["SCOREFEED_INGEST_SECRET"] = Self.ingestSecret
            environment["SCOREFEED_APP_KEYS"] = Self.appKeys.joined(separator: ",")
            environment["SCOREFEED_LOG_LEVEL"] = "trace"
            environment["SCOREFEED_SPORTRADAR_API_KEY"] = Self.sportradarKey
            var logs: [(String, String)] = []

            // serve: the webhook, a registration, delivery to both local servers, then SIGTERM.
            let serve = try await ServeProcessForLogs(environment: environment)
            let base = "http://127.0.0.1:\(serve.port)"
            let game = "2026-05-12-SEA-HOU"
            let all = try String(contentsOfFile: fixture("extra-innings-walkoff.jsonl"), encoding: .utf8)
                .split(separator: "\n")
            let lines = all.prefix(12)
            _ = try await Self.post(
                "\(base)/v1/feed", body: lines.joined(separator: "\n"), key: Self.ingestKey,
                contentType: "application/x-ndjson")
            _ = try await Self.post(
                "\(base)/v1/games/\(game)/activities",
                body: #"{"pushToken": "\#(String(repeating: "a1", count: 32))", "bundleId": "com.example.scores"}"#,
                key: Self.appKeys[0])
            _ = try await Self.post(
                "\(base)/v1/followers",
                body: #"{"gameId": "\#(game)", "fcmToken": "secret-test-android-registration-token-0001"}"#,
                key: Self.appKeys[0])
            try await Self.waitForMessages(in: fcmEnv["dir"]!, atLeast: 1)
            logs.append(("serve", try await serve.stop()))

            // replay, then deliver: the rest of the game, planned by the replay, sent by deliver.
            let rest = FileManager.default.temporaryDirectory.appendingPathComponent("rest-\(UUID().uuidString).jsonl")
            try (all.dropFirst(12).joined(separator: "\n") + "\n").write(to: rest, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: rest) }
            let replay = try await ChildProcess.run(
                [try CLI.executable.path, "replay", rest.path, "--out", "/dev/null"], environment: environment)
            #expect(replay.status == 0, "\(replay.stderr.suffix(2000))")
            logs.append(("replay", replay.stdout + replay.stderr))
            let deliver = try await ChildProcess.run(
                [try CLI.executable.path, "deliver", "--until-empty"], environment: environment)
            #expect(deliver.status == 0, "\(deliver.stderr.suffix(2000))")
            logs.append(("deliver", deliver.stdout + deliver.stderr))

            // follow mlb: a live provider through to the final.
            let server = try await MLBFeedServer.start(
                gamePk: 746001, documents: try MLBFeedServer.documents(inFolder: fixture("mlb/full-game")))
            let follow = try await ChildProcess.run(
                [
                    try CLI.executable.path, "follow", "mlb", "746001", "--base-url", server.baseURL, "--interval",
                    "0.01",
                ], environment: environment)
            await server.stop()
            #expect(follow.status == 0, "\(follow.stderr.suffix(2000))")
            logs.append(("follow", follow.stdout + follow.stderr))

            // follow sportradar: the key in the header, and one in the URL's query too.
            let (push, restServer) = try await FollowLiveCLITests.sportradarServers()
            let sportradar = try await ChildProcess.run(
                [try CLI.executable.path]
                    + FollowLiveCLITests.sportradarArguments(push, restServer, urlKey: Self.sportradarKey),
                environment: environment)
            await push.stop()
            await restServer.stop()
            #expect(sportradar.status == 0, "\(sportradar.stderr.suffix(2000))")
            logs.append(("follow sportradar", sportradar.stdout + sportradar.stderr))

            let secrets = try Self.secrets(apnsKeyFile: apnsEnv["SCOREFEED_APNS_KEY_FILE"], fcmEnv: fcmEnv)
            for (command, log) in logs {
                // A deliver that found nothing left (serve delivered it all before it stopped, which a
                // loaded machine's timing decides) opens no connection and has nothing to trace.
                let idle = command == "deliver" && log.contains("delivered 0 push(es)")
                #expect(
                    command == "replay" || idle || log.contains(" trace ") || log.contains(" debug "),
                    "\(command) logged nothing below info at trace level: \(log.suffix(1500))")
                for line in log.split(separator: "\n") {
                    for secret in secrets where line.contains(secret) {
                        Issue.record("\(command) logged a secret (\(secret.prefix(6))…): \(line.prefix(300))")
                    }
                    for credential in ["eyJ", "ya29."] where line.contains(credential) {
                        Issue.record("\(command) logged a JWT or access token: \(line.prefix(300))")
                    }
                }
            }
        }
    }

    /// The secrets to look for: the settings' values, and every line of both private keys' PEM bodies.
    static func secrets(apnsKeyFile: String?, fcmEnv: [String: String]) throws -> [String] {
        var secrets = [ingestKey, ingestSecret, password, readPassword, sportradarKey] + appKeys
        let apnsKey = try String(contentsOfFile: try #require(apnsKeyFile), encoding: .utf8)
        secrets += pemLines(apnsKey)
        let credentials = try #require(fcmEnv["SCOREFEED_FCM_CREDENTIALS"])
        let json = credentials.hasPrefix("{") ? credentials : try String(contentsOfFile: credentials, encoding: .utf8)
        let account = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        secrets += pemLines(try #require(account["private_key"] as? String))
        return secrets
    }

    /// A PEM's base64 lines (its header and footer are not secret).
    static func pemLines(_ pem: String) -> [String] {
        pem.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") && $0.count >= 16 }
    }

    /// `url` with `user:password@` (the test server trusts local connections, so the password is unused).
    static func withPassword(_ url: String, _ password: String) -> String {
        url.replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://postgres:\(password)@")
    }

    static func post(_ url: String, body: String, key: String, contentType: String = "application/json")
        async throws -> Int
    {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    static func waitForMessages(in dir: String, atLeast count: Int) async throws {
        for _ in 0..<300 {
            let log = (try? String(contentsOfFile: "\(dir)/messages.jsonl", encoding: .utf8)) ?? ""
            if log.split(separator: "\n").count >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the local FCM server received nothing")
    }
}

/// `scorefeed serve` on a free port with its whole log captured.
struct ServeProcessForLogs {
    let port: Int
    private let pid: Int32
    private let finished: Task<ChildProcess.Output, any Error>

    init(environment: [String: String]) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let portFile = folder + "/port"
        let started = ChildPID()
        finished = Task {
            try await ChildProcess.run(
                [try CLI.executable.path, "serve", "--port", "0", "--port-file", portFile], environment: environment
            ) { started.set($0) }
        }
        var port = 0
        for _ in 0..<600 where port == 0 {
            port =
                Int((try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? "")
                ?? 0
            if port == 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
        pid = started.value
        guard port != 0 else {
            kill(pid, SIGTERM)
            throw TestDatabaseError("scorefeed serve did not start: \(try await finished.value.stderr.suffix(2000))")
        }
        self.port = port
    }

    /// Sends SIGTERM and returns everything the process printed.
    func stop() async throws -> String {
        kill(pid, SIGTERM)
        let output = try await finished.value
        return output.stdout + output.stderr
    }
}

/// A child's process id, set once it runs.
final class ChildPID: @unchecked Sendable {
    private let lock = NSLock()
    private var pid: Int32 = 0

    func set(_ value: Int32) { lock.withLock { pid = value } }

    var value: Int32 { lock.withLock { pid } }
}
