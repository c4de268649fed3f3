import APNs
import APNsSandbox
import Crypto
import Foundation
import Testing

@Suite("APNs configuration")
struct ConfigurationTests {
    static func write(_ text: String) throws -> String {
        let path = Fixture.temporaryPath("file")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func environment(keyFile: String, overrides: [String: String] = [:]) -> [String: String] {
        var env = [
            "SCOREFEED_APNS_KEY_FILE": keyFile,
            "SCOREFEED_APNS_KEY_ID": Fixture.keyId,
            "SCOREFEED_APNS_TEAM_ID": Fixture.teamId,
            "SCOREFEED_APNS_BUNDLE_ID": Fixture.bundleId,
        ]
        env.merge(overrides) { $1 }
        return env
    }

    @Test func fromEnvironmentReadsEverything() async throws {
        let keyFile = try Self.write(Fixture.keys.privateKeyPEM)
        let sandbox = try await APNsSandbox.bind(Fixture.sandboxConfiguration())
        let caFile = sandbox.caCertificatePath
        await sandbox.stop()
        defer {
            try? FileManager.default.removeItem(atPath: keyFile)
            try? FileManager.default.removeItem(atPath: caFile)
        }
        let configuration = try APNsConfiguration.fromEnvironment(
            Self.environment(
                keyFile: keyFile,
                overrides: ["SCOREFEED_APNS_URL": "https://127.0.0.1:8443/", "SCOREFEED_APNS_CA_FILE": caFile]
            )
        )
        #expect(configuration.keyId == Fixture.keyId)
        #expect(configuration.teamId == Fixture.teamId)
        #expect(configuration.bundleId == Fixture.bundleId)
        #expect(configuration.topic == Fixture.topic)
        #expect(configuration.environment == .custom(URL(string: "https://127.0.0.1:8443")!))
        #expect(configuration.additionalCAFile == caFile)
        #expect(configuration.additionalCACertificates.count == 1)
        #expect(configuration.signingKey.publicKey.pemRepresentation == Fixture.keys.publicKeyPEM)
        #expect(!"\(configuration)".contains("PRIVATE"))
    }

    @Test(arguments: [
        ("", "https://api.push.apple.com"), ("production", "https://api.push.apple.com"),
        ("sandbox", "https://api.sandbox.push.apple.com"), ("https://localhost:2197", "https://localhost:2197"),
    ])
    func serverURL(value: String, expected: String) throws {
        #expect(try APNsConfiguration.parseEnvironment(value).baseURL.absoluteString == expected)
    }

    @Test(arguments: ["http://localhost:2197", "ftp://x", "staging", "https://"])
    func badServerURL(value: String) {
        #expect(throws: APNsConfigurationError.self) { try APNsConfiguration.parseEnvironment(value) }
    }

    @Test(arguments: [
        ("SCOREFEED_APNS_KEY_FILE", APNsConfigurationError.Code.missingVariable),
        ("SCOREFEED_APNS_KEY_ID", .missingVariable),
        ("SCOREFEED_APNS_TEAM_ID", .missingVariable),
        ("SCOREFEED_APNS_BUNDLE_ID", .missingVariable),
    ])
    func missingVariable(name: String, code: APNsConfigurationError.Code) throws {
        var env = Self.environment(keyFile: "/nonexistent/key.p8")
        env[name] = nil
        let error = #expect(throws: APNsConfigurationError.self) { try APNsConfiguration.fromEnvironment(env) }
        #expect(error?.code == code)
        #expect(error?.message.contains(name) == true)
    }

    @Test func unreadableFiles() throws {
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsConfiguration.fromEnvironment(Self.environment(keyFile: "/nonexistent/key.p8"))
        }
        #expect(error?.code == .keyFileUnreadable)
        let keyFile = try Self.write(Fixture.keys.privateKeyPEM)
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        let caError = #expect(throws: APNsConfigurationError.self) {
            try APNsConfiguration.fromEnvironment(
                Self.environment(keyFile: keyFile, overrides: ["SCOREFEED_APNS_CA_FILE": keyFile])
            )
        }
        #expect(caError?.code == .caFileUnreadable)
    }

    static let p384PEM = P384.Signing.PrivateKey().pemRepresentation

    @Test(arguments: [
        (p384PEM, Fixture.keyId, Fixture.teamId, Fixture.bundleId, APNsConfigurationError.Code.signingKeyNotP256),
        ("not a key", Fixture.keyId, Fixture.teamId, Fixture.bundleId, .invalidSigningKey),
        (Fixture.keys.publicKeyPEM, Fixture.keyId, Fixture.teamId, Fixture.bundleId, .invalidSigningKey),
        (Fixture.keys.privateKeyPEM, "", Fixture.teamId, Fixture.bundleId, .invalidKeyId),
        (Fixture.keys.privateKeyPEM, "KEY 123", Fixture.teamId, Fixture.bundleId, .invalidKeyId),
        (Fixture.keys.privateKeyPEM, Fixture.keyId, "", Fixture.bundleId, .invalidTeamId),
        (Fixture.keys.privateKeyPEM, Fixture.keyId, Fixture.teamId, "", .invalidBundleId),
        (Fixture.keys.privateKeyPEM, Fixture.keyId, Fixture.teamId, "com.example/app", .invalidBundleId),
    ])
    func invalidFields(key: String, keyId: String, teamId: String, bundleId: String, code: APNsConfigurationError.Code)
    {
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsConfiguration(
                signingKeyPEM: key,
                keyId: keyId,
                teamId: teamId,
                bundleId: bundleId,
                environment: .sandbox
            )
        }
        #expect(error?.code == code)
        #expect(error?.description.contains("BEGIN") == false)
    }

    @Test func customURLMustBeHTTPS() {
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsConfiguration(
                signingKeyPEM: Fixture.keys.privateKeyPEM,
                keyId: Fixture.keyId,
                teamId: Fixture.teamId,
                bundleId: Fixture.bundleId,
                environment: .custom(URL(string: "http://127.0.0.1:1")!)
            )
        }
        #expect(error?.code == .invalidURL)
    }

    @Test func redactsTokens() {
        #expect(APNsRedaction.token(Fixture.token(7)) == "00000007…")
        #expect(APNsRequest(deviceToken: "abc", payload: []).redactedToken == "abc")
    }
}
