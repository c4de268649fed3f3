import FCM
import FCMSandbox
import Foundation
import LiveActivity
import PostgresClient
import PushDelivery
import Retry
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

/// A local FCM server, a store and an FCM client for one test.
struct FCMHarness {
    let sandbox: FCMSandbox
    let connection: PostgresConnection
    let client: FCMClient

    /// A worker with millisecond backoffs so retries happen within the test.
    func worker() -> DeliveryWorker<PushQueue> {
        var worker = DeliveryWorker(connection: connection, transport: .fcm(client), logger: quietLogger)
        worker.backoff = Backoff(base: .milliseconds(5), cap: .milliseconds(50))
        worker.batchSize = 50
        return worker
    }

    /// - Parameter path: a path after the server's URL in the client's setting (a wrong one, for a test).
    static func with<T: Sendable>(path: String = "", _ body: (FCMHarness) async throws -> T) async throws -> T {
        let sandbox = try await FCMSandbox.start(FCMSandbox.Configuration(), logger: quietLogger)
        do {
            let configuration = try FCMConfiguration(
                serviceAccount: try ServiceAccount(contentsOfFile: sandbox.serviceAccountPath),
                baseURL: URL(string: sandbox.url.absoluteString + path)!, additionalCAFile: sandbox.caCertificatePath)
            let client = FCMClient(configuration: configuration, requestTimeout: .seconds(30), logger: quietLogger)
            let value = try await withStore { connection in
                try await body(FCMHarness(sandbox: sandbox, connection: connection, client: client))
            }
            await client.shutdown()
            await sandbox.stop()
            return value
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// Registers the FCM activity and the Android follower for a fixture game and replays it.
    func prepare(_ name: String) async throws -> String {
        let file = fixture("\(name).jsonl")
        try await registerFCMTargets(for: file, connection)
        try await replay(file, connection)
        return try FeedFile.read(file)[0].message.gameId
    }
}

/// The `message` object of a recorded request.
private func message(_ body: String) -> [String: Any] {
    let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
    return object?["message"] as? [String: Any] ?? [:]
}

@Suite("FCM delivery: iOS activities and Android followers through the local FCM server")
struct FCMDeliveryTests {
    /// The `payload` texts of activity 0's golden pushes (what an APNs activity gets, byte for byte),
    /// with their priority and expiration.
    static func goldenPayloads(_ name: String) throws -> [(payload: String, priority: Int, expiration: Int)] {
        let text = try String(contentsOfFile: fixture("\(name).pushes.jsonl"), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix(#"{"activity":0,"#) }.map { line in
            let start = line.range(of: #""payload":"#)!.upperBound
            let end = line.range(of: #","priority":"#, options: .backwards)!.lowerBound
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return (String(line[start..<end]), object["priority"] as! Int, object["expiration"] as! Int)
        }
    }

    @Test(
        "the fixture game delivers exactly the golden streams: the aps bodies byte for byte through FCM, the follower's data messages",
        arguments: ["plain-nine", "extra-innings-walkoff", "delayed-postponed"])
    func golden(_ name: String) async throws {
        try await FCMHarness.with { h in
            _ = try await h.prepare(name)
            let total = try await h.worker().run(untilEmpty: true)
            #expect(total.paused == nil && total.failed == 0)
            let accepted = h.sandbox.accepted()
            // iOS through FCM: each message carries the activity's token, both headers, and the aps
            // body exactly as APNs gets it.
            let ios = accepted.filter { $0.target == fcmIOSRegistration }
            let golden = try Self.goldenPayloads(name)
            #expect(ios.count == golden.count)
            for (received, expected) in zip(ios, golden) {
                #expect(received.body.contains(#""payload":\#(expected.payload)"#))
                let apns = message(received.body)["apns"] as? [String: Any]
                #expect(apns?["live_activity_token"] as? String == fcmActivityToken)
                let headers = apns?["headers"] as? [String: String]
                #expect(headers?["apns-priority"] == String(expected.priority))
                #expect(headers?["apns-expiration"] == String(expected.expiration))
            }
            // Android: the golden data maps in order, non-collapsible, high priority.
            let android = accepted.filter { $0.target == androidRegistration }
            let goldenData = try String(contentsOfFile: fixture("\(name).android.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { line in
                    String(line[line.range(of: #""data":"#)!.upperBound..<line.range(of: #","event":"#)!.lowerBound])
                }
            #expect(android.count == goldenData.count)
            for (received, data) in zip(android, goldenData) {
                #expect(received.body.contains(#""data":\#(data)"#))
                let options = message(received.body)["android"] as? [String: Any]
                #expect(options?["priority"] as? String == "high")
                #expect(options?["collapse_key"] == nil)
            }
        }
    }

    @Test("with faults nothing is lost and nothing arrives after the end")
    func faults() async throws {
        try await FCMHarness.with { h in
            let gameId = try await h.prepare("delayed-postponed")
            h.sandbox.inject(.unavailable, count: 3)
            h.sandbox.inject(.internalError, count: 2)
            h.sandbox.inject(.quotaExceeded(retryAfter: 1), count: 1)
            h.sandbox.inject(.drop, count: 1)
            h.sandbox.inject(.delay(.milliseconds(300)), count: 2)
            _ = try await h.worker().run(untilEmpty: true)
            let pushes = try await h.connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            #expect(pushes.allSatisfy { $0.state == "sent" || $0.state == "superseded" }, "\(pushes.map(\.state))")
            // Every push marked sent was received by the server (by its aps body or data map).
            let bodies = h.sandbox.accepted().map(\.body)
            for push in pushes where push.state == "sent" {
                #expect(bodies.contains { $0.contains(push.payload) }, "sent but never received: \(push.id)")
            }
            for target in [fcmIOSRegistration, androidRegistration] {
                let mine = pushes.filter { $0.fcm?.value == target }
                #expect(mine.last { $0.state == "sent" }?.event == .end, "the end was sent, last")
                let received = h.sandbox.accepted().filter { $0.target == target }
                let ends = received.indices.filter {
                    received[$0].body.contains(#""event":"end""#) || received[$0].body.contains(#""type":"end""#)
                }
                #expect(ends == [received.count - 1], "one end, and nothing after it")
            }
        }
    }

    @Test("an expired access token is renewed once, without losing a push")
    func renewal() async throws {
        try await FCMHarness.with { h in
            let gameId = try await h.prepare("plain-nine")
            // A first message gets the client its access token, which the server then expires.
            let first = await h.client.send([
                FCMMessage.data(target: .token(androidRegistration), dataJSON: #"{"warm":"up"}"#, ttlSeconds: 60)
            ])
            #expect(first.first?.isSuccess == true)
            h.sandbox.expireAccessTokens()
            _ = try await h.worker().run(untilEmpty: true)
            #expect(h.client.accessTokenFetches == 2)
            #expect(h.sandbox.messages().contains { $0.status == 401 })
            let pushes = try await h.connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            #expect(pushes.allSatisfy { $0.state == "sent" || $0.state == "superseded" })
            #expect(pushes.filter { $0.state == "sent" && $0.event == .end }.count == 2)
        }
    }

    @Test(
        "SENDER_ID_MISMATCH deactivates; INVALID_ARGUMENT fails that one push as a bug and the rest go on"
    )
    func refusals() async throws {
        try await FCMHarness.with { h in
            let gameId = try await h.prepare("plain-nine")
            h.sandbox.inject(.senderIdMismatch, count: 1, token: androidRegistration)
            h.sandbox.inject(.invalidArgument, count: 1, token: fcmIOSRegistration)
            let total = try await h.worker().run(untilEmpty: true)
            #expect(total.paused == nil && total.failed >= 1)
            #expect(try await h.connection.withSession { try Followers.list(in: $0) }.map(\.active) == [false])
            #expect(try await h.connection.withSession { try Activities.list(in: $0) }.map(\.active) == [true])
            let ios = try await h.connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
                .filter { $0.route == .fcm }
            #expect(ios.filter { $0.state == "failed" }.map { $0.lastReason?.hasPrefix("INVALID_ARGUMENT") } == [true])
            #expect(ios.last?.state == "sent" && ios.last?.event == .end, "the rest went on, to the end")
        }
    }

    @Test("a refused OAuth exchange pauses FCM delivery and fails nothing; the next run delivers everything")
    func refusedExchange() async throws {
        try await FCMHarness.with { h in
            let gameId = try await h.prepare("plain-nine")
            h.sandbox.inject(.refuseToken, count: 1)
            let first = try await h.worker().run(untilEmpty: true)
            #expect(first.paused != nil)
            #expect(first.sent == 0)
            #expect(first.failed == 0)
            let second = try await h.worker().run(untilEmpty: true)
            #expect(second.paused == nil && second.failed == 0)
            let pushes = try await h.connection.withSession { try TargetPushes.forGame(gameId, in: $0) }
            #expect(pushes.allSatisfy { $0.state == "sent" || $0.state == "superseded" })
            #expect(pushes.filter { $0.state == "sent" && $0.event == .end }.count == 2)
        }
    }

    @Test("a wrong server path (an HTML 404, no FCM error) pauses FCM delivery: nothing fails, nothing is deactivated")
    func wrongServerPath() async throws {
        try await FCMHarness.with(path: "/fcm") { h in
            _ = try await h.prepare("plain-nine")
            let total = try await h.worker().run(untilEmpty: true)
            #expect(total.paused == "FCM answered 404 without an FCM error: check SCOREFEED_FCM_URL")
            #expect(total.sent == 0 && total.failed == 0 && total.deactivated == 0)
            let waiting = try await h.connection.query(
                "SELECT count(*) AS n FROM outbox WHERE state <> 'pending'")[0].int("n")
            #expect(waiting == 0, "every push still waits for the fixed setting")
            let followers = try await h.connection.withSession { try Followers.list(in: $0) }
            #expect(followers.map(\.active) == [true])
        }
    }

    @Test("UNREGISTERED deactivates the registration; THIRD_PARTY_AUTH_ERROR pauses FCM delivery and loses nothing")
    func gone() async throws {
        try await FCMHarness.with { h in
            _ = try await h.prepare("plain-nine")
            h.sandbox.inject(.unregistered, count: 1, token: androidRegistration)
            h.sandbox.inject(.thirdPartyAuthError, count: 1, token: fcmIOSRegistration)
            let total = try await h.worker().run(untilEmpty: true)
            #expect(total.paused?.contains("THIRD_PARTY_AUTH_ERROR") == true)
            let followers = try await h.connection.withSession { try Followers.list(in: $0) }
            #expect(followers.map(\.active) == [false])
            // Paused, not failed: the iOS pushes wait for an operator.
            let waiting = try await h.connection.query(
                "SELECT count(*) AS n FROM outbox WHERE route = 'fcm' AND state = 'pending'")[0].int("n")
            #expect(waiting > 0)
        }
    }
}

extension FCMDeliveryTests {
    @Test("a push-to-start device registered through FCM gets one start, through FCM; a lost answer is never re-sent")
    func pushToStart() async throws {
        try await FCMHarness.with { h in
            let file = fixture("plain-nine.jsonl")
            let first = try FeedFile.read(file)[0].message
            guard case .gameScheduled(let home, _, let startsAt, _) = first.event else { return }
            let tokens = [String(repeating: "e5", count: 32), String(repeating: "e6", count: 32)]
            let registrations = ["fcm-start-device-0001:APA91bStart1", "fcm-start-device-0002:APA91bStart2"]
            try await h.connection.withSession { session in
                for (token, registration) in zip(tokens, registrations) {
                    _ = try Devices.register(
                        startToken: token, follows: [home.code], environment: .production,
                        bundleId: "com.example.scores", channels: false, fcm: .token(registration),
                        at: startsAt.addingTimeInterval(-900), in: session)
                }
            }
            try await replay(file, h.connection)
            // The APNs start worker leaves them alone.
            #expect(try await h.connection.transaction { try Devices.claimStarts(limit: 10, lease: 1, in: $0) }.isEmpty)
            var starts = DeliveryWorker(connection: h.connection, starts: .fcm(h.client), logger: quietLogger)
            starts.backoff = Backoff(base: .milliseconds(5), cap: .milliseconds(50))
            let total = try await starts.run(untilEmpty: true)
            #expect((total.sent, total.failed) == (2, 0) && total.paused == nil)
            for (token, registration) in zip(tokens, registrations) {
                let received = h.sandbox.accepted().filter { $0.target == registration }
                #expect(received.count == 1)
                let apns = message(received.first?.body ?? "")["apns"] as? [String: Any]
                #expect(apns?["live_activity_token"] as? String == token)
                #expect((apns?["headers"] as? [String: String])?["apns-priority"] == "10")
                #expect(received.first?.body.contains(#""event":"start""#) == true)
            }
            // A second game of the team: the connection drops with its starts on the wire; they are
            // not sent again (a second start would be a duplicate on the lock screen).
            let again = try FeedFile.read(file).map(\.message).map { message -> FeedMessage in
                var copy = message
                copy.id = "again-" + message.id
                copy.gameId = message.gameId + "-2"
                return copy
            }
            h.sandbox.inject(.drop, count: 1)
            _ = try await Ingestor(connection: h.connection).ingest(again)
            _ = try await Projector().step(h.connection)
            let second = try await starts.run(untilEmpty: true)
            #expect(second.sent + second.failed == 2 && second.failed >= 1)
            let states = try await h.connection.withSession { try Devices.starts(gameId: first.gameId + "-2", in: $0) }
            #expect(
                states.filter { $0.state == "failed" }.allSatisfy {
                    $0.lastReason?.contains("never two starts") == true
                })
            for registration in registrations {
                let sentToIt = h.sandbox.messages().filter { $0.target == registration }
                #expect(sentToIt.count <= 2, "one start per game, never two")
            }
        }
    }
}

@Suite("FCMVerdict: what each FCM answer means")
struct FCMVerdictTests {
    static let push: TargetPush = {
        var push = TargetPush(
            id: 1, targetId: 1, gameId: "g1", pushToken: String(repeating: "ab", count: 32), environment: .production,
            bundleId: "com.example.scores", apnsId: UUID().uuidString, event: .update, priority: 5, timestamp: 100,
            expiration: 2_000_000_000, reason: "immediate", payload: #"{"aps":{}}"#, state: "pending", attempts: 1,
            lastStatus: nil, lastReason: nil, createdAt: Date(timeIntervalSince1970: 1_900_000_000))
        push.route = .fcm
        push.fcm = .token("device-token-0001")
        return push
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        var result: FCMResult
        var outcome: Outbox.Outcome
        var pauses: Bool
        var testDescription: String {
            "\(result.status ?? 0) \(result.errorCode ?? "\(String(describing: result.failure))")"
        }
    }

    @Test(arguments: [
        Case(result: FCMResult(status: 200, name: "projects/p/messages/1"), outcome: .sent, pauses: false),
        Case(
            result: FCMResult(status: 404, errorCode: "UNREGISTERED"), outcome: .deactivate(reason: "UNREGISTERED"),
            pauses: false),
        Case(
            result: FCMResult(status: 403, errorCode: "SENDER_ID_MISMATCH"),
            outcome: .deactivate(reason: "SENDER_ID_MISMATCH"), pauses: false),
        Case(
            result: FCMResult(status: 400, errorCode: "INVALID_ARGUMENT", message: "bad"),
            outcome: .failed(reason: "INVALID_ARGUMENT: bad"), pauses: false),
        Case(
            result: FCMResult(status: 429, errorCode: "QUOTA_EXCEEDED", retryAfter: 30), outcome: .retry(after: 30),
            pauses: false),
        Case(result: FCMResult(status: 503, errorCode: "UNAVAILABLE"), outcome: .retry(after: 1), pauses: false),
        Case(result: FCMResult(status: 500, errorCode: "INTERNAL"), outcome: .retry(after: 1), pauses: false),
        Case(
            result: FCMResult(status: 401, errorCode: "THIRD_PARTY_AUTH_ERROR"), outcome: .release(label: "paused"),
            pauses: true),
        Case(
            result: FCMResult(status: 401, errorCode: "UNAUTHENTICATED"), outcome: .release(label: "paused"),
            pauses: true),
        Case(
            result: FCMResult(failure: .authorization("invalid_grant")), outcome: .release(label: "paused"),
            pauses: true),
        Case(result: FCMResult(failure: .transport("connection reset")), outcome: .retry(after: 1), pauses: false),
        Case(result: FCMResult(failure: .notSent("connect failed")), outcome: .retry(after: 1), pauses: false),
        Case(result: FCMResult(status: 429, errorCode: "QUOTA_EXCEEDED"), outcome: .retry(after: 1), pauses: false),
        Case(
            result: FCMResult(status: 403, errorCode: "PERMISSION_DENIED"), outcome: .release(label: "paused"),
            pauses: true),
        Case(
            result: FCMResult(status: 404, errorCode: "NOT_FOUND", message: "gone"),
            outcome: .failed(reason: "HTTP 404 NOT_FOUND: gone"), pauses: false),
        Case(result: FCMResult(status: 404), outcome: .release(label: "paused"), pauses: true),
        // The status alone says nothing: a bare 404 or 403 (no FcmError detail) deactivates nothing.
        Case(result: FCMResult(status: 403), outcome: .release(label: "paused"), pauses: true),
    ])
    func decide(_ c: Case) {
        let backoff = Backoff(base: .seconds(1), cap: .seconds(1))
        let (outcome, pause) = FCMVerdict.decide(
            c.result, for: Self.push, cancelled: false, backoff: backoff,
            now: Date(timeIntervalSince1970: 1_900_000_010),
            unitRandom: 1)
        #expect(outcome == c.outcome)
        #expect((pause != nil) == c.pauses)
    }

    static let start = DeviceStart(
        id: 1, deviceId: 1, gameId: "g1", startToken: String(repeating: "e5", count: 32), environment: .production,
        apnsId: UUID().uuidString, payload: #"{"aps":{"event":"start"}}"#, state: "pending", attempts: 1,
        lastStatus: nil, lastReason: nil, activityId: nil, fcm: .token("device-token-0001"))

    struct StartCase: Sendable, CustomTestStringConvertible {
        var result: FCMResult
        var attempts: Int = 1
        var cancelled = false
        var outcome: Outbox.Outcome
        var pauses = false
        var testDescription: String {
            "\(result.status ?? 0) \(result.errorCode ?? "\(String(describing: result.failure))")"
        }
    }

    @Test(
        "push-to-start through FCM: a lost answer is never re-sent, one that never left is, Retry-After is honoured",
        arguments: [
            StartCase(result: FCMResult(status: 200), outcome: .sent),
            StartCase(
                result: FCMResult(failure: .transport("closed")),
                outcome: .failed(reason: "no answer (closed): not sent again, never two starts")),
            StartCase(result: FCMResult(failure: .notSent("connect failed")), outcome: .retry(after: 1)),
            StartCase(
                result: FCMResult(failure: .notSent("connect failed")), cancelled: true,
                outcome: .release(label: "released")),
            StartCase(
                result: FCMResult(status: 429, errorCode: "QUOTA_EXCEEDED", retryAfter: 30), outcome: .retry(after: 30)
            ),
            StartCase(
                result: FCMResult(status: 503, errorCode: "UNAVAILABLE"), attempts: 5,
                outcome: .failed(reason: "UNAVAILABLE after 5 attempts")),
            StartCase(
                result: FCMResult(status: 404, errorCode: "UNREGISTERED"),
                outcome: .deactivate(reason: "UNREGISTERED")),
            StartCase(
                result: FCMResult(status: 401, errorCode: "THIRD_PARTY_AUTH_ERROR"), outcome: .release(label: "paused"),
                pauses: true),
            StartCase(
                result: FCMResult(failure: .authorization("invalid_grant")), outcome: .release(label: "paused"),
                pauses: true),
        ])
    func startOutcome(_ c: StartCase) {
        var start = Self.start
        start.attempts = c.attempts
        let (outcome, pause) = FCMVerdict.startOutcome(
            c.result, for: start, cancelled: c.cancelled, backoff: Backoff(base: .seconds(1), cap: .seconds(1)),
            maximumAttempts: 5, unitRandom: 1)
        #expect(outcome == c.outcome)
        #expect((pause != nil) == c.pauses)
    }

    @Test("a retry past the push's expiration fails it instead; a shutdown releases a cut-short send")
    func usefulness() {
        var late = Self.push
        late.expiration = 1_900_000_011
        let (outcome, _) = FCMVerdict.decide(
            FCMResult(status: 429, errorCode: "QUOTA_EXCEEDED", retryAfter: 60), for: late, cancelled: false,
            backoff: .push, now: Date(timeIntervalSince1970: 1_900_000_010), unitRandom: 0.5)
        guard case .failed = outcome else {
            Issue.record("expected failed, got \(outcome)")
            return
        }
        let (released, _) = FCMVerdict.decide(
            FCMResult(failure: .transport("cancelled")), for: Self.push, cancelled: true, backoff: .push,
            now: Date(timeIntervalSince1970: 1_900_000_010), unitRandom: 0.5)
        #expect(released == .release(label: "released"))
    }

    @Test("the iOS message carries the aps body byte for byte and both headers; the Android one the data map")
    func messages() {
        let ios = FCMVerdict.message(for: Self.push, now: Date(timeIntervalSince1970: 1_900_000_010))
        #expect(ios.contains(#""payload":{"aps":{}}"#))
        #expect(ios.contains(#""apns-priority":"5""#))
        #expect(ios.contains(#""apns-expiration":"2000000000""#))
        var android = Self.push
        android.route = .android
        android.pushToken = ""
        android.payload = #"{"seq":"1"}"#
        let data = FCMVerdict.message(for: android, now: Date(timeIntervalSince1970: 1_999_999_000))
        #expect(data.contains(#""data":{"seq":"1"}"#))
        #expect(data.contains(#""ttl":"1000s""#))
        #expect(!data.contains("collapse_key"))
    }
}
