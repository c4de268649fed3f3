import APNs
import APNsSandbox
import Foundation
import ScoreFeedCLI

/// Runs `body` with an APNs client (a throw-away key and fixed ids) that sends to `url`, trusting
/// `caFile`, or, without a URL, to an in-process local APNs server (handed to `body`). The client
/// is shut down and the server stopped afterwards, also when `body` throws.
func withBenchAPNs<T: Sendable>(
    url: String? = nil, caFile: String? = nil, envFile: String? = nil, connections: Int = 1,
    _ body: (APNsClient, APNsSandbox?) async throws -> T
) async throws -> T {
    let (pair, keyId, teamId, bundleId) = (APNsTestKeyPair(), "KEY0000001", "TEAM000001", "com.example.scores")
    func run(_ configuration: APNsConfiguration, _ sandbox: APNsSandbox?) async throws -> T {
        let client = APNsClient(configuration: configuration, connections: connections, logger: Runtime.logger)
        do {
            let result = try await body(client, sandbox)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
    func withClient(_ base: URL, trusting ca: String?, _ sandbox: APNsSandbox?) async throws -> T {
        try await run(
            try APNsConfiguration(
                signingKeyPEM: pair.privateKeyPEM, keyId: keyId, teamId: teamId, bundleId: bundleId,
                environment: .custom(base), additionalCAFile: ca),
            sandbox)
    }
    if let envFile {
        return try await run(try envFileConfiguration(envFile), nil)
    }
    if let url {
        guard let base = URL(string: url) else { throw CLIError("--url \(url) is not a URL") }
        return try await withClient(base, trusting: caFile, nil)
    }
    let configuration = APNsSandbox.Configuration(
        bundleId: bundleId, teamId: teamId, keyId: keyId, publicKeyPEM: pair.publicKeyPEM)
    return try await APNsSandbox.withRunning(configuration) { sandbox in
        try await withClient(sandbox.url, trusting: sandbox.caCertificatePath, sandbox)
    }
}

/// The APNs client settings of an env file (`NAME=value` lines, as `scorefeed apns-sandbox` writes).
func envFileConfiguration(_ path: String) throws -> APNsConfiguration {
    let text: String
    do {
        text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw CLIError("cannot read the env file \(path): \(error.localizedDescription)")
    }
    var variables: [String: String] = [:]
    for line in text.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "=") else { continue }
        variables[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    do {
        return try APNsConfiguration.fromEnvironment(variables)
    } catch {
        throw CLIError("\(path): \(error.message)")
    }
}
