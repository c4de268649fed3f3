import Foundation

/// Where a sandbox writes what clients need: the configured directory, or a temporary folder.
struct Files: Sendable {
    var caCertificate: String
    var serviceAccount: String
    /// `messages.jsonl`, only with a configured directory.
    var messageLog: String?
    /// `env`, only with a configured directory.
    var env: String?
    /// The folder to remove at stop (no directory configured).
    var temporaryFolder: String?

    /// Creates the folder (the configured one, with its parents, or a new temporary one).
    init(directory: String?) throws(FCMSandboxError) {
        let folder: URL
        if let directory {
            folder = URL(fileURLWithPath: directory).standardizedFileURL
        } else {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("fcm-sandbox-\(UUID())")
            temporaryFolder = folder.path
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FCMSandboxError(.cannotWriteFile, "cannot create the folder \(folder.path): \(error)")
        }
        caCertificate = folder.appendingPathComponent("ca.pem").path
        serviceAccount = folder.appendingPathComponent("service-account.json").path
        if directory != nil {
            messageLog = folder.appendingPathComponent("messages.jsonl").path
            env = folder.appendingPathComponent("env").path
        }
    }

    /// Writes the CA certificate, the key file (readable by its owner only) and the env file.
    func write(caCertificatePEM: String, serviceAccountJSON: String, url: URL) throws(FCMSandboxError) {
        try Self.write(caCertificatePEM, to: caCertificate, permissions: 0o644)
        try Self.write(serviceAccountJSON, to: serviceAccount, permissions: 0o600)
        if let env {
            let text = """
                SCOREFEED_FCM_CREDENTIALS=\(serviceAccount)
                SCOREFEED_FCM_URL=\(url.absoluteString)
                SCOREFEED_FCM_CA_FILE=\(caCertificate)

                """
            try Self.write(text, to: env, permissions: 0o644)
        }
    }

    /// Removes the temporary folder, if there is one.
    func removeTemporary() {
        if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) }
    }

    /// Replaces `path` with a new file created with `permissions` from the start.
    private static func write(_ text: String, to path: String, permissions: Int) throws(FCMSandboxError) {
        try? FileManager.default.removeItem(atPath: path)
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: permissions])
        else { throw FCMSandboxError(.cannotWriteFile, "cannot write \(path)") }
    }
}
