import APNs
import APNsSandbox
import Foundation
import HTTP2Client
import NIOCore
import NIOHPACK
import NIOSSL
import Testing

@Suite("HTTP/2 connection pool")
struct HTTP2PoolTests {
    @Test func errorRateGuardTripsOnlyAboveItsMaximum() {
        var guarding = ErrorRateGuard(policy: .init(window: 4, maximumErrors: 2))
        let tripped = [true, false, true, true, false].map { guarding.record(isError: $0) }
        // 3 errors of 4 trip; then the oldest error leaves the window: 2 of 4.
        #expect(tripped == [false, false, false, true, false])
    }

    @Test func errorRateGuardForgetsOldAnswers() {
        var guarding = ErrorRateGuard(policy: .init(window: 3, maximumErrors: 1))
        let tripped = [true, false, false, true, true].map { guarding.record(isError: $0) }
        #expect(tripped == [false, false, false, false, true])
        #expect(guarding.errors == 2)
    }

    @Test func aBatchSpreadsOverTheConfiguredConnections() async throws {
        try await Fixture.withSandbox(connections: 3) { sandbox, client in
            let requests = (0..<300).map { APNsRequest(deviceToken: Fixture.token($0), payload: Fixture.payload) }
            let results = await client.send(requests)
            #expect(results.map(\.status) == Array(repeating: 200, count: 300))
            #expect(results.map(\.apnsId) == requests.map(\.apnsId))
            #expect(sandbox.connectionCount() == 3)
            #expect(await sandbox.delivered().count == 300)
        }
    }

    @Test func atMostTheServersConcurrentStreamsAreOpen() async throws {
        try await Fixture.withSandbox(maximumConcurrentStreams: 10) { sandbox, client in
            await sandbox.inject(.delay(.milliseconds(200)), count: 40)
            let requests = (0..<40).map { APNsRequest(deviceToken: Fixture.token($0), payload: Fixture.payload) }
            let results = await client.send(requests)
            #expect(results.allSatisfy { $0.status == 200 })
            let peak = await sandbox.peakConcurrentRequests()
            #expect(peak <= 10 && peak >= 5, "peak \(peak)")
            #expect(sandbox.connectionCount() == 1)
        }
    }

    @Test func aConnectionMakingTooManyErrorsIsReplaced() async throws {
        try await withPool(errorPolicy: .init(window: 10, maximumErrors: 5)) { sandbox, pool in
            // No provider token: every answer is 403 MissingProviderToken.
            let first = await pool.execute(
                Array(repeating: Self.unauthorized(sandbox), count: 20), deadline: .now() + .seconds(10))
            #expect(first.allSatisfy { (try? $0.get().status) == 403 })
            let second = await pool.execute([Self.unauthorized(sandbox)], deadline: .now() + .seconds(10))
            #expect((try? second[0].get().status) == 403)
            #expect(sandbox.connectionCount() == 2)
        }
    }

    /// 300 bodies of 60,000 bytes: 18 MB against the server's 65,535-byte connection and stream windows
    /// and its 16,384-byte frames. The client holds DATA back until the server's WINDOW_UPDATEs; a
    /// byte beyond a window would be a flow-control error that ends the connection.
    @Test func bodiesLargerThanTheServersWindowsWaitForThem() async throws {
        try await withPool { sandbox, pool in
            var request = Self.unauthorized(sandbox)
            request.body = ByteBuffer(repeating: 0x20, count: 60_000)
            let outcomes = await pool.execute(Array(repeating: request, count: 300), deadline: .now() + .seconds(60))
            #expect(outcomes.allSatisfy { (try? $0.get().status).map { $0 >= 400 } == true }, "\(outcomes[0])")
            #expect(sandbox.connectionCount() == 1)
        }
    }

    @Test func pingsKeepAnIdleConnection() async throws {
        try await withPool(pingInterval: .milliseconds(50)) { sandbox, pool in
            _ = await pool.execute([Self.unauthorized(sandbox)], deadline: .now() + .seconds(10))
            try await Task.sleep(for: .milliseconds(400))
            #expect(pool.openConnections == 1)
            let later = await pool.execute([Self.unauthorized(sandbox)], deadline: .now() + .seconds(10))
            #expect((try? later[0].get().status) == 403)
            #expect(sandbox.connectionCount() == 1)
        }
    }

    @Test func aRefusedConnectionIsAnErrorPerRequest() async throws {
        var configuration = HTTP2ConnectionPool.Configuration(
            host: "127.0.0.1", port: 1, tls: .makeClientConfiguration(), connections: 2)
        configuration.connectTimeout = .seconds(2)
        let pool = try HTTP2ConnectionPool(configuration, logger: Fixture.logger)
        let outcomes = await pool.execute(
            Array(repeating: HTTP2Request(headers: [":method": "GET"], body: ByteBuffer()), count: 3),
            deadline: .now() + .seconds(5))
        #expect(outcomes.count == 3)
        for outcome in outcomes {
            guard case .failure(let error) = outcome else {
                Issue.record("expected a failure")
                continue
            }
            #expect(error.code == .connectFailed)
        }
        await pool.shutdown()
        let after = await pool.execute([HTTP2Request(headers: [:], body: ByteBuffer())], deadline: .now() + .seconds(1))
        if case .failure(let error) = after[0] {
            #expect(error.code == .shutDown)
        } else {
            Issue.record("sent after shutdown")
        }
    }

    private static func unauthorized(_ sandbox: APNsSandbox) -> HTTP2Request {
        let headers: HPACKHeaders = [
            ":method": "POST", ":scheme": "https", ":authority": "127.0.0.1:\(sandbox.url.port ?? 443)",
            ":path": "/3/device/\(Fixture.token())", "apns-push-type": "liveactivity", "apns-topic": Fixture.topic,
        ]
        return HTTP2Request(headers: headers, body: ByteBuffer(bytes: Fixture.payload))
    }

    private func withPool(
        errorPolicy: ErrorRateGuard.Policy = .init(), pingInterval: TimeAmount = .seconds(60),
        _ body: (APNsSandbox, HTTP2ConnectionPool) async throws -> Void
    ) async throws {
        try await Fixture.withSandbox { sandbox, _ in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(sandbox.caCertificatePath)]
            var configuration = HTTP2ConnectionPool.Configuration(
                host: "127.0.0.1", port: sandbox.url.port!, tls: tls, connections: 1)
            configuration.errorPolicy = errorPolicy
            configuration.pingInterval = pingInterval
            let pool = try HTTP2ConnectionPool(configuration, logger: Fixture.logger)
            do {
                try await body(sandbox, pool)
            } catch {
                await pool.shutdown()
                throw error
            }
            await pool.shutdown()
        }
    }
}
