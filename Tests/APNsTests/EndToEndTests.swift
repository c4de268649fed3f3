import APNs
import APNsSandbox
import Foundation
import Testing

@Suite("Client and sandbox over HTTP/2 + TLS")
struct EndToEndTests {
    @Test func validPushIsDeliveredAndRecorded() async throws {
        try await Fixture.withSandbox { sandbox, client in
            let id = UUID()
            let request = APNsRequest(
                deviceToken: Fixture.token(1),
                payload: Fixture.payload,
                priority: .consideringDevicePower,
                expiration: 1_700_003_600,
                apnsId: id
            )
            let result = await client.send(request)
            #expect(result == APNsResult(status: 200, apnsId: id))
            #expect(result.action == .delivered)
            let deliveries = await sandbox.deliveries()
            #expect(deliveries.count == 1)
            let delivery = try #require(deliveries.first)
            #expect(delivery.outcome == .delivered)
            #expect(delivery.method == "POST")
            #expect(delivery.path == "/3/device/\(Fixture.token(1))")
            #expect(delivery.token == Fixture.token(1))
            #expect(delivery.apnsId == id.uuidString.lowercased())
            #expect(delivery.pushType == "liveactivity")
            #expect(delivery.topic == Fixture.topic)
            #expect(delivery.priority == 5)
            #expect(delivery.expiration == 1_700_003_600)
            #expect(delivery.payload == Fixture.payload)
            #expect(delivery.status == 200)
            #expect(delivery.reason == nil)
            #expect(delivery.headers["apns-id"] == id.uuidString.lowercased())
            #expect(delivery.headers["content-type"] == "application/json")
            #expect(delivery.headers["authorization"]?.hasPrefix("bearer ey") == true)
            #expect(delivery.headers["authorization"]?.count == 17)  // shortened, no usable JWT stored
        }
    }

    @Test func twoHundredConcurrentPushesShareOneHTTP2Connection() async throws {
        try await Fixture.withSandbox { sandbox, client in
            // Every request waits 1 s on the server, so they can only finish quickly if they run together.
            await sandbox.inject(.delay(.seconds(1)), count: 200)
            let started = ContinuousClock.now
            let results = await withTaskGroup(of: APNsResult.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        await client.send(APNsRequest(deviceToken: Fixture.token(index), payload: Fixture.payload))
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let elapsed = ContinuousClock.now - started
            #expect(results.count == 200)
            #expect(results.allSatisfy { $0.status == 200 })
            #expect(Set(results.compactMap(\.apnsId)).count == 200)
            #expect(await sandbox.delivered().count == 200)
            #expect(sandbox.connectionCount() == 1)
            let peak = await sandbox.peakConcurrentRequests()
            #expect(peak >= 100, "peak \(peak)")
            #expect(elapsed < .seconds(10))
        }
    }

    @Test func expiredProviderTokenIsRefreshedOnRetry() async throws {
        let clock = TestClock(Date().addingTimeInterval(-3700))
        try await Fixture.withSandbox(clock: clock) { sandbox, client in
            let request = APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload)
            let expired = await client.send(request)
            #expect(expired.status == 403)
            #expect(expired.reason == "ExpiredProviderToken")
            #expect(expired.action == .refreshTokenAndRetry)
            clock.set(Date())
            let retried = await client.send(request)
            #expect(retried.status == 200)
            #expect(client.tokenProvider.generatedCount == 2)
            #expect(await sandbox.deliveries().map(\.outcome) == [.rejected, .delivered])
        }
    }

    @Test func recordsAreAppendedToTheDeliveryLog() async throws {
        let log = Fixture.temporaryPath("deliveries.jsonl")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let configuration = Fixture.sandboxConfiguration(deliveryLog: log)
        defer { try? FileManager.default.removeItem(atPath: configuration.caCertificateOutput!) }
        try await APNsSandbox.withRunning(configuration) { sandbox in
            let client = APNsClient(
                configuration: try Fixture.clientConfiguration(for: sandbox), logger: Fixture.logger)
            await sandbox.inject(.serviceUnavailable)
            _ = await client.send(APNsRequest(deviceToken: Fixture.token(3), payload: Fixture.payload))
            _ = await client.send(APNsRequest(deviceToken: Fixture.token(3), payload: Fixture.payload))
            try await client.shutdown()
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        let second = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect(first?["outcome"] as? String == "faulted")
        #expect(first?["status"] as? Int == 503)
        #expect(first?["fault"] as? String == "503:ServiceUnavailable")
        #expect(second?["outcome"] as? String == "delivered")
        #expect(second?["token"] as? String == Fixture.token(3))
        #expect(second?["payload"] as? String == String(decoding: Fixture.payload, as: UTF8.self))
    }

    @Test func stopEndsRunAndFreesThePort() async throws {
        let configuration = Fixture.sandboxConfiguration()
        defer { try? FileManager.default.removeItem(atPath: configuration.caCertificateOutput!) }
        let sandbox = try await APNsSandbox.start(configuration)
        let client = APNsClient(configuration: try Fixture.clientConfiguration(for: sandbox), logger: Fixture.logger)
        let before = await client.send(APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload))
        #expect(before.status == 200, "\(before)")
        await sandbox.stop()
        let after = await client.send(
            APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload),
            timeout: .seconds(3)
        )
        #expect(after.status == nil)
        #expect(after.action == .retry)
        try await client.shutdown()
    }
}
