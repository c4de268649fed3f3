import Crypto
import FCM
import Foundation
import ScoreDomain
import Testing

@Suite("Service account key file")
struct ServiceAccountTests {
    @Test func parsesGoogleKeyFile() throws {
        let account = try ServiceAccount(json: Fixture.json())
        #expect(account.clientEmail == "scorefeed@example-project.iam.gserviceaccount.com")
        #expect(account.privateKeyId == "0123456789abcdef0123456789abcdef01234567")
        #expect(account.projectId == "example-project")
        #expect(account.tokenURI == "https://oauth2.googleapis.com/token")
        #expect(account.privateKeyPEM == Fixture.keyPEM)
        #expect(account.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func readsFile() throws {
        let path = Fixture.write(Fixture.json())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ServiceAccount(contentsOfFile: path) == Fixture.account)
    }

    @Test func unreadableFile() {
        #expect(
            throws: FCMConfigurationError(
                field: "service_account", reason: "cannot read the key file at /nonexistent/sa.json")
        ) {
            try ServiceAccount(contentsOfFile: "/nonexistent/sa.json")
        }
    }

    @Test(arguments: ["client_email", "private_key", "private_key_id", "project_id", "token_uri"])
    func missingField(_ field: String) {
        var fields = Fixture.fields
        fields[field] = nil
        #expect(throws: FCMConfigurationError(field: field, reason: "is missing")) {
            try ServiceAccount(json: Fixture.json(fields))
        }
    }

    nonisolated(unsafe) static let badFields: [(String, Any, FCMConfigurationError)] = [
        ("client_email", "", FCMConfigurationError(field: "client_email", reason: "must be a non-empty string")),
        ("client_email", 42, FCMConfigurationError(field: "client_email", reason: "must be a non-empty string")),
        ("client_email", "scorefeed", FCMConfigurationError(field: "client_email", reason: "is not an e-mail address")),
        ("private_key_id", "", FCMConfigurationError(field: "private_key_id", reason: "must be a non-empty string")),
        (
            "private_key_id", "has space",
            FCMConfigurationError(field: "private_key_id", reason: "must be non-empty printable ASCII")
        ),
        (
            "project_id", "my/project",
            FCMConfigurationError(field: "project_id", reason: "must be " + FirebaseProjectId.rule)
        ),
        ("project_id", true, FCMConfigurationError(field: "project_id", reason: "must be a non-empty string")),
        (
            "token_uri", "http://oauth2.googleapis.com/token",
            FCMConfigurationError(field: "token_uri", reason: "must be an https URL with a host")
        ),
        ("token_uri", "token", FCMConfigurationError(field: "token_uri", reason: "must be an https URL with a host")),
        (
            "private_key", P256.Signing.PrivateKey().pemRepresentation,
            FCMConfigurationError(field: "private_key", reason: "is not a PEM RSA private key of 2048 bits or more")
        ),
        (
            "private_key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
            FCMConfigurationError(field: "private_key", reason: "is not a PEM RSA private key of 2048 bits or more")
        ),
        ("type", "authorized_user", FCMConfigurationError(field: "type", reason: "must be service_account")),
    ]

    @Test(arguments: badFields.indices)
    func badField(_ index: Int) {
        let (field, value, expected) = Self.badFields[index]
        var fields = Fixture.fields
        fields[field] = value
        #expect(throws: expected) { try ServiceAccount(json: Fixture.json(fields)) }
    }

    @Test(arguments: ["", "[]", "{", "\"service_account\""])
    func notAnObject(_ text: String) {
        #expect(throws: FCMConfigurationError(field: "service_account", reason: "is not a JSON object")) {
            try ServiceAccount(json: Data(text.utf8))
        }
    }

    @Test func descriptionHidesKey() {
        let text = "\(Fixture.account)"
        #expect(
            text
                == "ServiceAccount(clientEmail: scorefeed@example-project.iam.gserviceaccount.com, projectId: "
                + "example-project, privateKeyId: 0123456789abcdef0123456789abcdef01234567, "
                + "tokenURI: https://oauth2.googleapis.com/token)")
        let keyBody = Fixture.keyPEM.split(separator: "\n")[1]
        #expect(!text.contains(keyBody))
        let configuration = try! FCMConfiguration(serviceAccount: Fixture.account)
        #expect(!"\(configuration)".contains(keyBody))
    }
}
