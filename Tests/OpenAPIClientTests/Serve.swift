import ChildProcess
import Foundation
import ScoreFeedTesting
import Synchronization

/// `scorefeed serve` on a free port of 127.0.0.1, as an operator runs it, with the development keys of
/// docs/api-examples.md.
final class Serve: Sendable {
    /// The keys of docs/api-examples.md's first block (what `scripts/demo --serve` runs with).
    static let ingestKey = "pk_live_4f1c0a9e7b2d"
    static let secret = "whsec_8a4f2c91d07e5b36"
    static let appKey = "ak_scores_ios_0000001"

    let url: URL
    private let pid = ChildID()
    private let finished: Task<ChildProcess.Output, any Error>

    /// Starts the server on the database `databaseURL` and waits until it writes its port.
    init(databaseURL: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let portFile = folder.appendingPathComponent("port").path
        var environment = ProcessInfo.processInfo.environment
        environment["SCOREFEED_DATABASE_URL"] = databaseURL
        environment["SCOREFEED_INGEST_KEYS"] = Self.ingestKey
        environment["SCOREFEED_INGEST_SECRET"] = Self.secret
        environment["SCOREFEED_APP_KEYS"] = "ios:\(Self.appKey)"
        environment["SCOREFEED_LOG_LEVEL"] = "warning"
        let command = [try scorefeedExecutable().path, "serve", "--port", "0", "--port-file", portFile]
        let pid = self.pid
        finished = Task { [environment] in
            try await ChildProcess.run(command, environment: environment) { pid.value.store($0, ordering: .relaxed) }
        }
        var port = 0
        for _ in 0..<600 where port == 0 {
            let text = (try? String(contentsOfFile: portFile, encoding: .utf8)) ?? ""
            port = Int(text.trimmingCharacters(in: .newlines)) ?? 0
            if port == 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard port != 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            let pid = pid.value.load(ordering: .relaxed)
            if pid > 0 { kill(pid, SIGTERM) }
            throw TestDatabaseError("scorefeed serve did not start: \(try await finished.value.stderr.suffix(2000))")
        }
        self.url = url
    }

    /// Sends SIGTERM and returns what the process printed once it exits.
    @discardableResult
    func stopped() async throws -> String {
        let pid = pid.value.load(ordering: .relaxed)
        if pid > 0 { kill(pid, SIGTERM) }
        let output = try await finished.value
        return output.stdout + output.stderr
    }
}

/// The child's process id, once it runs.
final class ChildID: Sendable {
    let value = Atomic<Int32>(0)
}
