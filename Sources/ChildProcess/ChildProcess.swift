import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion and collects its exit status and output.
///
/// Built on `posix_spawn` and `waitpid`, with output going to temporary files rather than pipes:
/// `pg_ctl start` leaves a daemon behind, and nothing it inherits may keep the caller waiting.
/// The blocking wait runs on a dispatch queue, never on Swift's cooperative pool.
public enum ChildProcess {
    /// A finished child process.
    public struct Output: Sendable {
        /// The exit code, or 128 + the signal number when a signal killed it.
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The error when a program cannot be started at all.
    public struct SpawnError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Runs `arguments[0]` (an absolute path) with the rest as its arguments.
    ///
    /// - Parameters:
    ///   - environment: the child's environment; the current one when `nil`.
    ///   - mergeOutput: send stderr to the same place as stdout (then `stderr` is empty).
    ///   - started: told the child's process id once it runs (to send it a signal, say).
    public static func run(
        _ arguments: [String], environment: [String: String]? = nil, mergeOutput: Bool = false,
        started: (@Sendable (Int32) -> Void)? = nil
    ) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try runBlocking(arguments, environment: environment, mergeOutput: mergeOutput, started: started)
                    })
            }
        }
    }

    private static func runBlocking(
        _ arguments: [String], environment: [String: String]?, mergeOutput: Bool, started: (@Sendable (Int32) -> Void)?
    ) throws -> Output {
        precondition(!arguments.isEmpty, "no program to run")
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        let outPath = base + ".out"
        let errPath = base + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if mergeOutput {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        // The child gets only these three: a parent's sockets (a test's in-process server, NIO's
        // accepted connections, which are not close-on-exec) must not stay open in it.
        closeFrom(3, in: &actions)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }

        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw SpawnError(description: "could not run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        started?(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw SpawnError(description: "waiting for \(arguments[0]) failed: \(String(cString: strerror(errno)))")
            }
        }
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Output(
            status: exitCode, stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

/// Adds "close every descriptor from `lowest` up" to `actions`: glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
/// import, looked up once. Without it (an older libc), the child inherits the descriptors as before.
private func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
    guard let addCloseFrom else { return }
    _ = addCloseFrom(&actions, lowest)
}

private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

private let addCloseFrom: AddCloseFrom? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
}()
