import ChildProcess
import Foundation
import ScoreFeedTesting
import Synchronization

/// `scorefeed serve` (or `apns-sandbox`) run as a real process, as operators run it.
final class ServeProcess: Sendable {
    let port: Int
    let folder: String
    private let pid = ProcessID()
    private let finished: Task<ChildProcess.Output, any Error>

    /// Starts `scorefeed ARGUMENTS --port 0` and waits until it listens: for `serve`, until it writes
    /// its port to `--port-file`; for `apns-sandbox`, until it writes its `env` file in `--dir`.
    init(_ arguments: [String], environment: [String: String]) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sandbox = arguments.first == "apns-sandbox"
        let portFile = sandbox ? folder + "/env" : folder + "/port"
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["SCOREFEED_LOG_LEVEL"] = env["SCOREFEED_LOG_LEVEL"] ?? "info"
        let command =
            [try scorefeedExecutable().path] + arguments + ["--port", "0"]
            + (sandbox ? ["--dir", folder] : ["--port-file", portFile])
        let pid = self.pid
        finished = Task { try await ChildProcess.run(command, environment: env) { pid.set($0) } }
        var port = 0
        for _ in 0..<600 where port == 0 {
            let text = (try? String(contentsOfFile: portFile, encoding: .utf8)) ?? ""
            port =
                sandbox
                ? (text.contains("SCOREFEED_APNS_URL") ? 1 : 0) : Int(text.trimmingCharacters(in: .newlines)) ?? 0
            if port == 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard port != 0 else {
            pid.signal(SIGTERM)
            let output = try await finished.value
            throw TestDatabaseError("scorefeed \(arguments.first ?? "") did not start: \(output.stderr)")
        }
        self.port = port
    }

    /// Sends SIGTERM and waits for the process to end.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) async throws -> ChildProcess.Output {
        pid.signal(signal)
        return try await finished.value
    }

    /// The kernel's memory figures of the running process, in kB: `VmRSS` now and `VmHWM` (its peak).
    func memory() throws -> (rss: Int, peak: Int) {
        let status = try String(contentsOfFile: "/proc/\(pid.current)/status", encoding: .utf8)
        func kilobytes(_ key: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return (kilobytes("VmRSS"), kilobytes("VmHWM"))
    }

    /// Waits for the process to end by itself.
    func wait() async throws -> ChildProcess.Output { try await finished.value }
}

/// A child's process id, set once it runs.
final class ProcessID: Sendable {
    private let value = Atomic<Int32>(0)

    func set(_ pid: Int32) { value.store(pid, ordering: .relaxed) }

    var current: Int32 { value.load(ordering: .relaxed) }

    /// Sends `signal` to the process, if it runs.
    func signal(_ signal: Int32) {
        let pid = value.load(ordering: .relaxed)
        if pid > 0 { kill(pid, signal) }
    }
}
