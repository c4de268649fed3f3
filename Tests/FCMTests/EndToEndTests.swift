import FCM
import FCMSandbox
import Foundation
import Logging
import ScoreFeedTesting
import Testing

@Suite("End to end against the FCM sandbox")
struct EndToEndTests {
    static let aps = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"home":2,"away":3}}}"#

    static func liveActivity(_ index: Int, priority: Int = 5) -> String {
        FCMMessage.liveActivity(
            target: .token("fcm-registration-\(index)"), liveActivityToken: "la-\(index)", priority: priority,
            expiration: 1_700_000_900, apsPayload: aps)
    }

    /// Runs `body` with a serving sandbox and a client trusting its CA; shuts both down afterwards.
    static func withSandbox(
        _ configuration: FCMSandbox.Configuration = FCMSandbox.Configuration(), connections: Int = 1,
        requestTimeout: Duration = .seconds(20), clock: TestClock = TestClock(), logger: Logger = Fixture.logger,
        _ body: (FCMSandbox, FCMClient) async throws -> Void
    ) async throws {
        let sandbox = try await FCMSandbox.start(configuration, logger: Fixture.logger)
        let client: FCMClient
        do {
            let account = try ServiceAccount(contentsOfFile: sandbox.serviceAccountPath)
            #expect(account == (try ServiceAccount(json: Data(sandbox.serviceAccountJSON.utf8))))
            let configuration = try FCMConfiguration(
                serviceAccount: account, baseURL: sandbox.url, additionalCAFile: sandbox.caCertificatePath)
            client = FCMClient(
                configuration: configuration, connections: connections, requestTimeout: requestTimeout,
                logger: logger, now: { clock.now() })
        } catch {
            await sandbox.stop()
            throw error
        }
        do {
            try await body(sandbox, client)
        } catch {
            await client.shutdown()
            await sandbox.stop()
            throw error
        }
        await client.shutdown()
        await sandbox.stop()
    }

    @Test func acceptedByteIdentical() async throws {
        try await Self.withSandbox { sandbox, client in
            let live = Self.liveActivity(1, priority: 10)
            let data = FCMMessage.data(target: .fid("fid-1"), dataJSON: #"{"seq":"1","score":"2-3"}"#, ttlSeconds: 600)
            let results = await client.send([live, data])
            #expect(results.map(\.status) == [200, 200])
            #expect(results.allSatisfy { $0.isSuccess })
            #expect(results.allSatisfy { $0.name?.hasPrefix("projects/scorefeed-sandbox/messages/") == true })
            #expect(results.allSatisfy { $0.errorCode == nil && $0.failure == nil })
            let accepted = Dictionary(uniqueKeysWithValues: sandbox.accepted().map { ($0.body, $0.target) })
            #expect(accepted == [live: "fcm-registration-1", data: "fid-1"])
            #expect(client.accessTokenFetches == 1)
            #expect(sandbox.issuedAccessTokens() == 1)
        }
    }

    @Test func manyInFlightAtOnce() async throws {
        try await Self.withSandbox(connections: 2) { sandbox, client in
            let bodies = (0..<200).map { Self.liveActivity($0) }
            let results = await client.send(bodies)
            #expect(results.count == 200)
            #expect(results.filter(\.isSuccess).count == 200)
            #expect(Set(results.compactMap(\.name)).count == 200)
            #expect(Set(sandbox.accepted().map(\.body)) == Set(bodies))
            #expect(sandbox.messages().count == 200)
            #expect(client.accessTokenFetches == 1)
        }
    }

    @Test func concurrentSendsShareOneTokenExchange() async throws {
        try await Self.withSandbox { sandbox, client in
            await withTaskGroup(of: [FCMResult].self) { group in
                for batch in 0..<10 {
                    group.addTask { await client.send((0..<5).map { Self.liveActivity(batch * 5 + $0) }) }
                }
                for await results in group { #expect(results.allSatisfy { $0.isSuccess }) }
            }
            #expect(client.accessTokenFetches == 1)
            #expect(sandbox.issuedAccessTokens() == 1)
            #expect(sandbox.accepted().count == 50)
        }
    }

    static let faults: [(FCMFault, Int, String, FCMErrorCode)] = [
        (.unregistered, 404, "UNREGISTERED", .unregistered),
        (.senderIdMismatch, 403, "SENDER_ID_MISMATCH", .senderIdMismatch),
        (.invalidArgument, 400, "INVALID_ARGUMENT", .invalidArgument),
        (.unavailable, 503, "UNAVAILABLE", .unavailable),
        (.internalError, 500, "INTERNAL", .internalError),
        (.thirdPartyAuthError, 401, "THIRD_PARTY_AUTH_ERROR", .thirdPartyAuthError),
        (.quotaExceeded(retryAfter: nil), 429, "QUOTA_EXCEEDED", .quotaExceeded),
    ]

    @Test(arguments: faults)
    func errorCodeMapped(_ fault: FCMFault, _ status: Int, _ errorCode: String, _ code: FCMErrorCode) async throws {
        try await Self.withSandbox { sandbox, client in
            sandbox.inject(fault, count: 1, token: "fcm-registration-2")
            let results = await client.send([Self.liveActivity(1), Self.liveActivity(2), Self.liveActivity(3)])
            #expect(results.map(\.status) == [200, status, 200])
            #expect(results[1].errorCode == errorCode)
            #expect(results[1].code == code)
            #expect(results[1].retryAfter == nil)
            #expect(!results[1].isSuccess)
            #expect(results[1].name == nil)
            // A THIRD_PARTY_AUTH_ERROR is about the APNs credentials in Firebase: no new access token.
            #expect(client.accessTokenFetches == 1)
            #expect(sandbox.accepted().count == 2)
        }
    }

    @Test func retryAfterRead() async throws {
        try await Self.withSandbox { sandbox, client in
            sandbox.inject(.quotaExceeded(retryAfter: 7), count: 1)
            let result = await client.send([Self.liveActivity(1)])[0]
            #expect(result.status == 429)
            #expect(result.code == .quotaExceeded)
            #expect(result.retryAfter == 7)
        }
    }

    @Test func perDeviceLimitAnswersQuotaExceeded() async throws {
        try await Self.withSandbox(FCMSandbox.Configuration(perDeviceLimitPerMinute: 2)) { sandbox, client in
            var statuses: [Int?] = []
            for _ in 0..<3 { statuses += await client.send([Self.liveActivity(1)]).map(\.status) }
            #expect(statuses == [200, 200, 429])
            let last = await client.send([Self.liveActivity(1)])[0]
            #expect(last.code == .quotaExceeded)
            #expect((last.retryAfter ?? 0) > 0)
        }
    }

    @Test func expiredAccessTokenRenewedOnce() async throws {
        try await Self.withSandbox { sandbox, client in
            #expect(await client.send([Self.liveActivity(0)]).map(\.status) == [200])
            sandbox.expireAccessTokens()
            let bodies = (1...20).map { Self.liveActivity($0) }
            let results = await client.send(bodies)
            #expect(results.map(\.status) == Array(repeating: 200, count: 20))
            #expect(client.accessTokenFetches == 2)
            #expect(sandbox.issuedAccessTokens() == 2)
            // No message lost: each was refused once with the old token and accepted once with the new one.
            #expect(Set(sandbox.accepted().map(\.body)) == Set([Self.liveActivity(0)] + bodies))
            #expect(sandbox.accepted().count == 21)
            #expect(sandbox.messages().filter { $0.status == 401 }.allSatisfy { $0.errorCode == "UNAUTHENTICATED" })
        }
    }

    @Test func tokenRenewedBeforeExpiry() async throws {
        // A 60-second token is reused for 30 seconds (half its lifetime), then renewed before FCM refuses it.
        try await Self.withMinuteTokens { sandbox, client, clock in
            #expect(await client.send([Self.liveActivity(0)]).map(\.status) == [200])
            clock.advance(by: 20)
            #expect(await client.send([Self.liveActivity(1)]).map(\.status) == [200])
            #expect(client.accessTokenFetches == 1)
            clock.advance(by: 15)
            #expect(await client.send([Self.liveActivity(2)]).map(\.status) == [200])
            try await Self.settle(client)
            #expect(client.accessTokenFetches == 2)
            #expect(sandbox.issuedAccessTokens() == 2)
            #expect(sandbox.messages().allSatisfy { $0.isAccepted })
        }
    }

    /// A sandbox issuing 60-second access tokens, and a client on a test clock that starts at their issue.
    static func withMinuteTokens(_ body: (FCMSandbox, FCMClient, TestClock) async throws -> Void) async throws {
        let clock = TestClock()
        try await withSandbox(FCMSandbox.Configuration(accessTokenLifetime: .seconds(60)), clock: clock) {
            try await body($0, $1, clock)
        }
    }

    /// Waits (at most 10 s) for a background token renewal to end.
    static func settle(_ client: FCMClient) async throws {
        for _ in 0..<1000 where client.accessTokenExchangeInFlight { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!client.accessTokenExchangeInFlight)
    }

    @Test func failedEarlyRenewalKeepsTheCurrentToken() async throws {
        // A 60-second token is renewed in the background after 30 s while it goes on serving; that
        // renewal is refused, and the token serves until 6 s (a tenth of its life) before it expires,
        // the renewal tried again 30 s later or at that point. Past that, a refused renewal fails the send.
        try await Self.withMinuteTokens { sandbox, client, clock in
            #expect(await client.send([Self.liveActivity(0)]).map(\.status) == [200])
            clock.advance(by: 35)
            sandbox.inject(.refuseToken, count: 1)
            #expect(await client.send([Self.liveActivity(1)]).map(\.status) == [200])
            try await Self.settle(client)
            #expect(client.accessTokenFetches == 2 && sandbox.issuedAccessTokens() == 1)
            clock.advance(by: 10)
            #expect(await client.send([Self.liveActivity(2)]).map(\.status) == [200])
            #expect(client.accessTokenFetches == 2, "not tried again at once")
            clock.advance(by: 10)
            #expect(await client.send([Self.liveActivity(3)]).map(\.status) == [200])
            #expect(client.accessTokenFetches == 3 && sandbox.issuedAccessTokens() == 2)
            clock.advance(by: 55)
            sandbox.inject(.refuseToken, count: 1)
            #expect(await client.send([Self.liveActivity(4)]).map(\.status) == [nil])
        }
    }

    @Test func refusedTokenIsNotServedWhileItIsRenewed() async throws {
        // The token is being renewed in the background when FCM refuses it (revoked): the resend waits
        // for the renewal and uses the new token, never the refused one.
        try await Self.withMinuteTokens { sandbox, client, clock in
            #expect(await client.send([Self.liveActivity(0)]).map(\.status) == [200])
            clock.advance(by: 35)
            sandbox.expireAccessTokens()
            #expect(await client.send([Self.liveActivity(1)]).map(\.status) == [200])
            try await Self.settle(client)
            #expect(sandbox.issuedAccessTokens() == 2)
            #expect(sandbox.messages().filter { $0.status == 401 }.count <= 1)
        }
    }

    @Test func neverLogsTheKeyTheJWTOrAnAccessToken() async throws {
        let recorder = LogRecorder()
        try await Self.withSandbox(logger: recorder.logger(label: "fcm-log-check")) { sandbox, client in
            #expect(await client.send([Self.liveActivity(0)]).map(\.status) == [200])
            sandbox.expireAccessTokens()
            #expect(await client.send([Self.liveActivity(1)]).map(\.status) == [200])
            sandbox.expireAccessTokens()
            sandbox.inject(.refuseToken, count: 1)
            #expect(await client.send([Self.liveActivity(2)]).map(\.status) == [nil])
            sandbox.inject(.unregistered, count: 1)
            #expect(await client.send([Self.liveActivity(3)]).map(\.status) == [404])
            let account = try ServiceAccount(contentsOfFile: sandbox.serviceAccountPath)
            let keyLine = account.privateKeyPEM.split(separator: "\n")[1]
            let logged = recorder.entries.map { "\($0.message) \($0.metadata)" }
            #expect(!logged.isEmpty)
            for line in logged {
                #expect(!line.contains("ya29.") && !line.contains("eyJ") && !line.contains("PRIVATE KEY"), "\(line)")
                #expect(!line.contains(keyLine))
            }
        }
    }

    @Test func refusedTokenExchangeIsAuthorizationFailure() async throws {
        try await Self.withSandbox { sandbox, client in
            sandbox.inject(.refuseToken, count: 1)
            let results = await client.send([Self.liveActivity(1), Self.liveActivity(2)])
            #expect(results.count == 2)
            for result in results {
                #expect(result.status == nil)
                guard case .authorization(let reason) = result.failure else {
                    Issue.record("expected an authorization failure, got \(result)")
                    continue
                }
                #expect(reason.hasPrefix("token endpoint answered HTTP 400: invalid_grant"))
            }
            #expect(sandbox.messages().isEmpty)
            // The refusal is not cached: the next send exchanges again and goes through.
            #expect(await client.send([Self.liveActivity(1)]).map(\.status) == [200])
            #expect(client.accessTokenFetches == 2)
        }
    }

    @Test func droppedConnectionIsTransportFailure() async throws {
        try await Self.withSandbox { sandbox, client in
            sandbox.inject(.drop, count: 1)
            let result = await client.send([Self.liveActivity(1)])[0]
            #expect(result.status == nil)
            guard case .transport = result.failure else {
                Issue.record("expected a transport failure, got \(result)")
                return
            }
            // A new connection for the next send.
            #expect(await client.send([Self.liveActivity(1)]).map(\.status) == [200])
        }
    }

    @Test func slowAnswerTimesOut() async throws {
        try await Self.withSandbox(requestTimeout: .milliseconds(500)) { sandbox, client in
            // The token and the connection first: on a loaded machine the handshake and the token
            // exchange may themselves take longer than the 500 ms, so until one message is answered.
            var warm = false
            for _ in 0..<10 where !warm { warm = await client.send([Self.liveActivity(0)])[0].status == 200 }
            #expect(warm, "no message answered within 500 ms in ten tries")
            sandbox.inject(.delay(.seconds(3)), count: 1)
            let result = await client.send([Self.liveActivity(1)])[0]
            #expect(result.status == nil)
            #expect(result.failure.map { "\($0)".hasPrefix("transport: timeout") } == true, "\(result)")
        }
    }
}
