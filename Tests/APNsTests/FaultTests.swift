import APNs
import APNsSandbox
import Foundation
import Testing

@Suite("Injected faults seen by the client")
struct FaultTests {
    /// (fault, expected status, reason, 410 timestamp, action)
    @Test(arguments: [
        (Fault.tooManyRequests, 429, "TooManyRequests", nil, APNsAction.retry),
        (.tooManyProviderTokenUpdates, 429, "TooManyProviderTokenUpdates", nil, .keepTokenLongerAndRetry),
        (.internalServerError, 500, "InternalServerError", nil, .retry),
        (.serviceUnavailable, 503, "ServiceUnavailable", nil, .retry),
        (.shutdown, 503, "Shutdown", nil, .retry),
        (
            .unregistered(timestamp: 1_700_000_123_456), 410, "Unregistered", 1_700_000_123_456,
            .deactivate(reason: "Unregistered")
        ),
        (.respond(status: 410, reason: "ExpiredToken"), 410, "ExpiredToken", nil, .deactivate(reason: "ExpiredToken")),
    ])
    func statusFaultThenRetrySucceeds(
        fault: Fault,
        status: Int,
        reason: String,
        timestamp: Int64?,
        action: APNsAction
    ) async throws {
        try await Fixture.withSandbox { sandbox, client in
            await sandbox.inject(fault)
            let request = APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload)
            let failed = await client.send(request)
            #expect(failed.status == status)
            #expect(failed.reason == reason)
            #expect(failed.apnsId == request.apnsId)
            if let timestamp {
                #expect(failed.timestamp == timestamp)
            } else if status == 410 {
                #expect(failed.timestamp != nil)  // the sandbox stamps 410 answers with the current time
            } else {
                #expect(failed.timestamp == nil)
            }
            #expect(failed.action == action)
            // Under load the sandbox may take the request a little after the client gave up on it.
            for _ in 0..<100 where !(await sandbox.pendingFaults().isEmpty) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(await sandbox.pendingFaults().isEmpty)

            let retried = await client.send(request)
            #expect(retried.status == 200)
            let recorded = await sandbox.deliveries()
            #expect(recorded.map(\.outcome) == [.faulted, .delivered])
            #expect(recorded.first?.fault == fault.description)
            #expect(await sandbox.delivered().count == 1)
        }
    }

    @Test func delayBeyondTheTimeoutIsATimeoutThenRetrySucceeds() async throws {
        try await Fixture.withSandbox { sandbox, client in
            // Warm up: the connection is open before the timed request starts.
            #expect(await client.send(APNsRequest(deviceToken: Fixture.token(9), payload: Fixture.payload)).isDelivered)
            await sandbox.inject(.delay(.seconds(3)), token: Fixture.token())
            let request = APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload)
            let started = ContinuousClock.now
            let timedOut = await client.send(request, timeout: .seconds(1))
            #expect(ContinuousClock.now - started < .milliseconds(2500))
            #expect(timedOut.status == nil)
            #expect(timedOut.error?.code == .timeout)
            #expect(timedOut.action == .retry)
            // Under load the sandbox may take the request a little after the client gave up on it.
            for _ in 0..<100 where !(await sandbox.pendingFaults().isEmpty) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(await sandbox.pendingFaults().isEmpty)

            let retried = await client.send(request)
            #expect(retried.status == 200, "\(retried)")
            // The delayed request wakes up after 3 s, finds the client gone and is recorded as abandoned.
            var recorded: [Delivery] = []
            for _ in 0..<100 where recorded.count < 3 {
                try await Task.sleep(for: .milliseconds(50))
                recorded = await sandbox.deliveries()
            }
            #expect(recorded.map(\.outcome) == [.delivered, .delivered, .abandoned], "\(recorded)")
            #expect(recorded.last?.fault == "delay:3000ms")
            #expect(recorded.last?.status == nil)
            #expect(await sandbox.delivered().count == 2)
        }
    }

    @Test func shortDelayStillDelivers() async throws {
        try await Fixture.withSandbox(requestTimeout: .seconds(5)) { sandbox, client in
            await sandbox.inject(.delay(.milliseconds(200)))
            let started = ContinuousClock.now
            let result = await client.send(APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload))
            #expect(ContinuousClock.now - started >= .milliseconds(200))
            #expect(result.status == 200)
            #expect(await sandbox.deliveries().map(\.fault) == ["delay:200ms"])
        }
    }

    @Test func droppedConnectionIsATransportErrorThenRetrySucceeds() async throws {
        try await Fixture.withSandbox { sandbox, client in
            #expect(
                await client.send(APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload)).status == 200)
            await sandbox.inject(.dropConnection)
            let request = APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload)
            let dropped = await client.send(request)
            #expect(dropped.status == nil)
            #expect(dropped.error?.code == .connectionClosed)
            #expect(dropped.action == .retry)

            let retried = await client.send(request)
            #expect(retried.status == 200, "\(retried)")
            #expect(await sandbox.deliveries().map(\.outcome) == [.delivered, .dropped, .delivered])
            #expect(sandbox.connectionCount() == 2)
        }
    }

    @Test func faultsApplyToTheirTokenAndCount() async throws {
        try await Fixture.withSandbox { sandbox, client in
            await sandbox.inject(.serviceUnavailable, count: 2, token: Fixture.token(1).uppercased())
            func send(_ index: Int) async -> Int? {
                await client.send(APNsRequest(deviceToken: Fixture.token(index), payload: Fixture.payload)).status
            }
            #expect(await send(2) == 200)
            #expect(await send(1) == 503)
            #expect(await send(2) == 200)
            #expect(await send(1) == 503)
            #expect(await send(1) == 200)
            #expect(await sandbox.pendingFaults().isEmpty)
        }
    }

    @Test func configuredFaultsComeFirst() async throws {
        var configuration = Fixture.sandboxConfiguration()
        configuration.faults = [try ScriptedFault(parsing: "429:TooManyRequests*2")]
        defer { try? FileManager.default.removeItem(atPath: configuration.caCertificateOutput!) }
        try await APNsSandbox.withRunning(configuration) { sandbox in
            await sandbox.inject(.internalServerError)
            let client = APNsClient(
                configuration: try Fixture.clientConfiguration(for: sandbox), logger: Fixture.logger)
            var statuses: [Int?] = []
            for _ in 0..<4 {
                statuses.append(
                    await client.send(APNsRequest(deviceToken: Fixture.token(), payload: Fixture.payload)).status)
            }
            try await client.shutdown()
            #expect(statuses == [429, 429, 500, 200])
        }
    }
}
