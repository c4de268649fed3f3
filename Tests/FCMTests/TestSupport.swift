import Crypto
import CryptoExtras
import FCM
import Foundation
import Logging
import Synchronization

/// Shared values of the FCM tests.
enum Fixture {
    /// A 2048-bit RSA key, made once per test run.
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let keyPEM = key.pkcs8PEMRepresentation
    static let clientEmail = "scorefeed@example-project.iam.gserviceaccount.com"
    static let keyId = "0123456789abcdef0123456789abcdef01234567"
    static let projectId = "example-project"
    static let tokenURI = "https://oauth2.googleapis.com/token"

    /// The fields of a service-account key file, as Google writes it.
    static var fields: [String: Any] {
        [
            "type": "service_account",
            "project_id": projectId,
            "private_key_id": keyId,
            "private_key": keyPEM,
            "client_email": clientEmail,
            "client_id": "123456789012345678901",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": tokenURI,
        ]
    }

    static func json(_ fields: [String: Any] = fields) -> Data {
        try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    }

    static let account = try! ServiceAccount(json: json())

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("fcm-tests-\(UUID())-\(name)").path
    }

    /// Writes `data` to a new temporary file and returns its path.
    static func write(_ data: Data, name: String = "service-account.json") -> String {
        let path = temporaryPath(name)
        _ = FileManager.default.createFile(atPath: path, contents: data)
        return path
    }

    static let logger = Logger(label: "fcm-tests", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// The real time plus an offset the test moves forward.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }

    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
}
