import APNs
import APNsSandbox
import Foundation

/// Runs `body` with a local APNs server (its own CA and signing key pair, bundle id
/// `com.example.scores`) and a client configuration that trusts it and signs for it.
func withLocalAPNs<T: Sendable>(_ body: (APNsSandbox, APNsConfiguration) async throws -> T) async throws -> T {
    let pair = APNsTestKeyPair()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let sandboxConfiguration = APNsSandbox.Configuration(
        bundleId: "com.example.scores", teamId: "TEAM000001", keyId: "KEY0000001", publicKeyPEM: pair.publicKeyPEM,
        caCertificateOutput: folder.appendingPathComponent("ca.pem").path)
    return try await APNsSandbox.withRunning(sandboxConfiguration) { sandbox in
        let configuration = try APNsConfiguration(
            signingKeyPEM: pair.privateKeyPEM, keyId: "KEY0000001", teamId: "TEAM000001",
            bundleId: "com.example.scores", environment: .custom(sandbox.url),
            additionalCAFile: sandbox.caCertificatePath)
        return try await body(sandbox, configuration)
    }
}
