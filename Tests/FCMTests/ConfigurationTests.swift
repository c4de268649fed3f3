import FCM
import Foundation
import Testing

@Suite("FCM configuration")
struct ConfigurationTests {
    @Test func defaults() throws {
        let configuration = try FCMConfiguration(serviceAccount: Fixture.account)
        #expect(configuration.baseURL.absoluteString == "https://fcm.googleapis.com")
        #expect(configuration.additionalCAFile == nil)
    }

    @Test(arguments: [
        ("https://fcm.googleapis.com/", "https://fcm.googleapis.com"),
        ("https://127.0.0.1:8443//", "https://127.0.0.1:8443"),
        ("https://example.com/fcm", "https://example.com/fcm"),
    ])
    func baseURLWithoutTrailingSlash(_ text: String, _ expected: String) throws {
        let configuration = try FCMConfiguration(serviceAccount: Fixture.account, baseURL: URL(string: text)!)
        #expect(configuration.baseURL.absoluteString == expected)
    }

    @Test(arguments: ["http://fcm.googleapis.com", "ftp://example.com", "https:///path", "fcm.googleapis.com"])
    func rejectsURL(_ text: String) {
        #expect(throws: FCMConfigurationError(field: "baseURL", reason: "must be an https URL with a host")) {
            try FCMConfiguration(serviceAccount: Fixture.account, baseURL: URL(string: text)!)
        }
    }

    @Test(arguments: [
        "https://fcm.googleapis.com/v1", "https://fcm.googleapis.com/v1/",
        "https://fcm.googleapis.com/v1/projects/example-project/messages:send", "https://example.com/fcm/v1",
    ])
    func rejectsURLWithTheSendPath(_ text: String) {
        let expected = FCMConfigurationError(
            field: "baseURL",
            reason: "must be the server only, like https://fcm.googleapis.com: "
                + "/v1/projects/<project_id>/messages:send is added to it")
        #expect(throws: expected) {
            try FCMConfiguration(serviceAccount: Fixture.account, baseURL: URL(string: text)!)
        }
    }

    @Test func rejectsUnreadableCA() {
        let expected = FCMConfigurationError(
            field: "additionalCAFile", reason: "cannot read a PEM CA certificate from /nonexistent/ca.pem")
        #expect(throws: expected) {
            try FCMConfiguration(serviceAccount: Fixture.account, additionalCAFile: "/nonexistent/ca.pem")
        }
    }

    @Test func rejectsCAFileWithoutCertificate() {
        let path = Fixture.write(Data("not a certificate\n".utf8), name: "ca.pem")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: FCMConfigurationError(
                field: "additionalCAFile", reason: "cannot read a PEM CA certificate from \(path)")
        ) {
            try FCMConfiguration(serviceAccount: Fixture.account, additionalCAFile: path)
        }
    }

    @Test(arguments: [[:], ["SCOREFEED_FCM_CREDENTIALS": ""], ["SCOREFEED_FCM_CREDENTIALS": "  "]])
    func offWithoutCredentials(_ env: [String: String]) throws {
        #expect(try FCMConfiguration.fromEnvironment(env) == nil)
    }

    @Test func fromEnvironmentWithFile() throws {
        let path = Fixture.write(Fixture.json())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = try #require(
            try FCMConfiguration.fromEnvironment([
                "SCOREFEED_FCM_CREDENTIALS": path, "SCOREFEED_FCM_URL": "https://127.0.0.1:9443/",
                "SCOREFEED_FCM_CA_FILE": "",
            ]))
        #expect(configuration.serviceAccount == Fixture.account)
        #expect(configuration.baseURL.absoluteString == "https://127.0.0.1:9443")
        #expect(configuration.additionalCAFile == nil)
    }

    @Test func fromEnvironmentWithInlineJSON() throws {
        let json = String(decoding: Fixture.json(), as: UTF8.self)
        let configuration = try #require(try FCMConfiguration.fromEnvironment(["SCOREFEED_FCM_CREDENTIALS": json]))
        #expect(configuration.serviceAccount == Fixture.account)
        #expect(configuration.baseURL.absoluteString == "https://fcm.googleapis.com")
    }

    @Test(arguments: ["'%@'", "\"%@\"", "\u{FEFF}%@"])
    func inlineJSONAsAnEnvFileLeavesIt(_ wrapping: String) throws {
        let json = String(decoding: Fixture.json(), as: UTF8.self)
        let value = wrapping.replacingOccurrences(of: "%@", with: json)
        let configuration = try #require(try FCMConfiguration.fromEnvironment(["SCOREFEED_FCM_CREDENTIALS": value]))
        #expect(configuration.serviceAccount == Fixture.account)
    }

    @Test func brokenInlineJSONIsNeverPrinted() {
        let json = String(decoding: Fixture.json(), as: UTF8.self)
        for value in ["x" + json, String(json.dropLast())] {
            do {
                _ = try FCMConfiguration.fromEnvironment(["SCOREFEED_FCM_CREDENTIALS": value])
                Issue.record("expected an error")
            } catch {
                #expect(error.field == "SCOREFEED_FCM_CREDENTIALS")
                #expect(!"\(error)".contains("PRIVATE KEY") && !"\(error)".contains(Fixture.account.clientEmail))
            }
        }
    }

    @Test("a value that is neither JSON nor a short path (the key's base64, its PEM alone) is never printed")
    func keyLikeValueIsNeverPrinted() throws {
        let json = Fixture.json()
        let pem = try #require(Fixture.fields["private_key"] as? String)
        for value in [json.base64EncodedString(), pem, String(repeating: "a", count: 256)] {
            do {
                _ = try FCMConfiguration.fromEnvironment(["SCOREFEED_FCM_CREDENTIALS": value])
                Issue.record("expected an error")
            } catch {
                #expect(error.field == "SCOREFEED_FCM_CREDENTIALS")
                #expect(
                    error.reason
                        == "service_account: is neither the key file's JSON nor the path of a readable file (a value "
                        + "of \(value.trimmingCharacters(in: .whitespacesAndNewlines).utf8.count) characters, not "
                        + "shown: it may hold the key; give the JSON itself or the file's path)")
            }
        }
    }

    static let environmentErrors: [([String: String], FCMConfigurationError)] = [
        (
            ["SCOREFEED_FCM_CREDENTIALS": "/nonexistent/sa.json"],
            FCMConfigurationError(
                field: "SCOREFEED_FCM_CREDENTIALS",
                reason: "service_account: cannot read the key file at /nonexistent/sa.json")
        ),
        (
            ["SCOREFEED_FCM_CREDENTIALS": #"{"type":"service_account"}"#],
            FCMConfigurationError(field: "SCOREFEED_FCM_CREDENTIALS", reason: "client_email: is missing")
        ),
        (
            ["SCOREFEED_FCM_URL": "http://127.0.0.1:9443"],
            FCMConfigurationError(field: "SCOREFEED_FCM_URL", reason: "must be an https URL with a host")
        ),
        (
            ["SCOREFEED_FCM_URL": "not a url"],
            FCMConfigurationError(field: "SCOREFEED_FCM_URL", reason: "must be an https URL with a host")
        ),
        (
            ["SCOREFEED_FCM_CA_FILE": "/nonexistent/ca.pem"],
            FCMConfigurationError(
                field: "SCOREFEED_FCM_CA_FILE", reason: "cannot read a PEM CA certificate from /nonexistent/ca.pem")
        ),
    ]

    @Test(arguments: environmentErrors)
    func environmentError(_ overrides: [String: String], _ expected: FCMConfigurationError) {
        let path = Fixture.write(Fixture.json())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let env = ["SCOREFEED_FCM_CREDENTIALS": path].merging(overrides) { $1 }
        #expect(throws: expected) { try FCMConfiguration.fromEnvironment(env) }
    }

    @Test func errorDescriptionHidesKey() {
        var fields = Fixture.fields
        fields["token_uri"] = "http://insecure"
        do {
            _ = try ServiceAccount(json: Fixture.json(fields))
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "fcm.config: token_uri: must be an https URL with a host")
        }
    }
}
