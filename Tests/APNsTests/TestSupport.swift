import APNs
import APNsSandbox
import Foundation
import Logging

/// Shared values and helpers of the APNs tests.
enum Fixture {
    static let keyId = "KEY1234567"
    static let teamId = "TEAM123456"
    static let bundleId = "com.example.scorefeed"
    static let topic = "com.example.scorefeed.push-type.liveactivity"
    static let keys = APNsTestKeyPair()
    static let payload = Array(
        (#"{"aps":{"timestamp":1700000000,"event":"update","content-state":"#
            + #"{"status":{"status":"inprogress","homeScore":2,"awayScore":3,"inning":"Top 4th"}}}}"#).utf8
    )

    /// A 64-hex-character device token, distinct per `index`.
    static func token(_ index: Int = 0) -> String {
        String(format: "%08x", index) + String(repeating: "ab", count: 28)
    }

    static func sandboxConfiguration(deliveryLog: String? = nil) -> APNsSandbox.Configuration {
        APNsSandbox.Configuration(
            bundleId: bundleId,
            teamId: teamId,
            keyId: keyId,
            publicKeyPEM: keys.publicKeyPEM,
            caCertificateOutput: temporaryPath("ca.pem"),
            deliveryLog: deliveryLog
        )
    }

    static func clientConfiguration(
        for sandbox: APNsSandbox,
        privateKeyPEM: String = keys.privateKeyPEM,
        keyId: String = keyId,
        teamId: String = teamId,
        bundleId: String = bundleId
    ) throws -> APNsConfiguration {
        try APNsConfiguration(
            signingKeyPEM: privateKeyPEM,
            keyId: keyId,
            teamId: teamId,
            bundleId: bundleId,
            environment: .custom(sandbox.url),
            additionalCAFile: sandbox.caCertificatePath
        )
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("apns-tests-\(UUID())-\(name)").path
    }

    static let logger = Logger(label: "apns-tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs `body` with a serving sandbox and a client trusting its CA; shuts both down afterwards.
    static func withSandbox(
        requestTimeout: Duration = .seconds(30),
        clock: TestClock? = nil,
        connections: Int = 1,
        maximumConcurrentStreams: Int? = nil,
        client makeConfiguration: (APNsSandbox) throws -> APNsConfiguration = { try clientConfiguration(for: $0) },
        _ body: (APNsSandbox, APNsClient) async throws -> Void
    ) async throws {
        var sandboxConfiguration = sandboxConfiguration()
        if let maximumConcurrentStreams { sandboxConfiguration.maximumConcurrentStreams = maximumConcurrentStreams }
        defer { try? FileManager.default.removeItem(atPath: sandboxConfiguration.caCertificateOutput!) }
        // `APNS_DEBUG=1 swift test` prints the sandbox's debug lines (connections, streams, failures).
        var debugLogger = Logger(label: "sandbox-debug")
        debugLogger.logLevel = ProcessInfo.processInfo.environment["APNS_DEBUG"] == nil ? .info : .debug
        try await APNsSandbox.withRunning(sandboxConfiguration, logger: debugLogger) { sandbox in
            let configuration = try makeConfiguration(sandbox)
            let provider = clock.map { clock in
                APNsTokenProvider(configuration: configuration, clock: { clock.now })
            }
            let client = APNsClient(
                configuration: configuration,
                requestTimeout: requestTimeout,
                connections: connections,
                tokenProvider: provider,
                logger: logger
            )
            do {
                try await body(sandbox, client)
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }
}

/// A settable clock for the token provider.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = start
    }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(seconds: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        current = current.addingTimeInterval(seconds)
    }

    func set(_ date: Date) {
        lock.lock()
        defer { lock.unlock() }
        current = date
    }
}
