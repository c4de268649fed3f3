import Dispatch
import Foundation
import ScoreDomain
import ScoreFeedTesting
import Testing

#if os(Linux)
    import Glibc

    /// `scorefeed convert`'s peak memory on a 50 MB provider document (issue 27 point 4: under four
    /// times its size), measured on the built binary as a child process (its VmHWM, and `wait4`'s
    /// `ru_maxrss` where that is its own). Linux only: /proc.
    @Suite("convert: peak memory of a 50 MB provider document")
    struct ConvertMemoryTests {
        /// Issue 27 point 4: the peak under four times the document's size. Measured 3.5 (debug build;
        /// docs/performance.md): the parsed tree (objects share their keys, a play's values are one
        /// array) and the format's records of the plays.
        static let bound = 4.0

        @Test(
            "a 50 MB nba-live play-by-play (the real game's plays repeated) converts, and its peak memory is measured")
        func fiftyMegabytes() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "convert-50mb-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let real = fixture("providers/nba-live/playbyplay_0022000180.json")
            let large = folder.appendingPathComponent("playbyplay_0022000180-50mb.json")
            let game = try LongGame.write(from: real, to: large, atLeast: 50_000_000)
            let executable = try scorefeedExecutable().path

            let small = try await PeakMemory.run(
                [executable, "convert", real], output: folder.appendingPathComponent("small"))
            let big = try await PeakMemory.run(
                [executable, "convert", large.path], output: folder.appendingPathComponent("big"))
            #expect(small.status == 0 && big.status == 0, "\(big.stderr)")

            // One long valid game: its messages fold to the real game's final score.
            var state: ScoreState?
            for line in try String(contentsOf: folder.appendingPathComponent("big.out"), encoding: .utf8).split(
                separator: "\n")
            {
                state = try ScoreFold.apply(try FeedParser.parse(line), to: state)
            }
            #expect(state?.status == .closed)
            #expect(state.map { [$0.homeScore, $0.awayScore] } == [game.finalHome, game.finalAway])

            let added = Double(big.maxRSS - small.maxRSS) / Double(game.bytes)
            let whole = Double(big.maxRSS) / Double(game.bytes)
            print(
                "convert \(game.bytes) bytes (\(game.actions) actions): peak RSS \(big.maxRSS) bytes (\(whole)x), "
                    + "small document \(small.maxRSS) bytes, added \(added)x")
            #expect(whole < Self.bound, "peak memory: \(whole) times the document's size")
        }
    }

    /// A real nba-live play-by-play made one long valid game: every action that is not a made shot or a
    /// period's or the game's start or end is repeated in place (same period, clock and running score),
    /// each copy with its own `actionNumber` and `orderNumber`, until the document has the size asked.
    enum LongGame {
        struct Written {
            var bytes: Int
            var actions: Int
            var finalHome: Int
            var finalAway: Int
        }

        static func write(from source: String, to target: URL, atLeast size: Int) throws -> Written {
            guard case .object(var root) = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: source))),
                case .object(var game)? = root["game"], case .array(let actions)? = game["actions"]
            else { throw LongGameError(description: "not an nba-live play-by-play: \(source)") }
            let kept = actions.map(isKept)
            let repeatedBytes = zip(actions, kept).filter { !$0.1 }.reduce(0) { $0 + $1.0.serialized().utf8.count + 1 }
            let copies = max(1, size / max(1, repeatedBytes) + 1)
            // The document around the actions: `{"game":{"actions":[` … `],"gameId":…},"meta":…}`.
            game["actions"] = .array([])
            root["game"] = .object(game)
            let frame = JSONValue.object(root).serialized()
            guard let hole = frame.range(of: "\"actions\":[]") else {
                throw LongGameError(description: "no actions member in \(source)")
            }
            _ = FileManager.default.createFile(atPath: target.path, contents: nil)
            let handle = try FileHandle(forWritingTo: target)
            defer { try? handle.close() }
            var bytes = Array(frame[..<hole.lowerBound].utf8) + Array("\"actions\":[".utf8)
            var number = 0
            var finalHome = 0
            var finalAway = 0
            for (action, keep) in zip(actions, kept) {
                guard case .object(var members) = action else { continue }
                for _ in 0..<(keep ? 1 : copies) {
                    number += 1
                    members["actionNumber"] = .int(number)
                    members["orderNumber"] = .int(number * 10_000)
                    if number > 1 { bytes.append(UInt8(ascii: ",")) }
                    JSONValue.object(members).write(to: &bytes)
                    if bytes.count > 1 << 20 {
                        try handle.write(contentsOf: bytes)
                        bytes.removeAll(keepingCapacity: true)
                    }
                }
                if case .string(let home)? = members["scoreHome"], let value = Int(home) { finalHome = value }
                if case .string(let away)? = members["scoreAway"], let value = Int(away) { finalAway = value }
            }
            bytes += Array("]".utf8) + Array(frame[hole.upperBound...].utf8)
            try handle.write(contentsOf: bytes)
            let written = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int ?? 0
            return Written(bytes: written, actions: number, finalHome: finalHome, finalAway: finalAway)
        }

        /// Made shots and the periods' and game's start and end stay single.
        private static func isKept(_ action: JSONValue) -> Bool {
            guard case .object(let members) = action else { return true }
            if case .string(let type)? = members["actionType"], type == "period" || type == "game" { return true }
            return members["shotResult"] == .string("Made")
        }
    }

    struct LongGameError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a program with its output in files and reports its peak resident memory, from `wait4`.
    enum PeakMemory {
        struct Result: Sendable {
            var status: Int32
            /// `ru_maxrss` of the child, in bytes.
            var maxRSS: Int
            var stderr: String
        }

        /// Runs `arguments` (an absolute program path first) with stdout in `output.out` and stderr in
        /// `output.err`; the blocking wait runs on a dispatch queue.
        static func run(_ arguments: [String], output: URL) async throws -> Result {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Swift.Result { try runBlocking(arguments, output: output) })
                }
            }
        }

        private static func runBlocking(_ arguments: [String], output: URL) throws -> Result {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output.path + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, output.path + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var environment = ProcessInfo.processInfo.environment
            environment["SCOREFEED_LOG_LEVEL"] = "warning"
            let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { envp.forEach { free($0) } }
            var pid = pid_t()
            let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
            guard spawned == 0 else {
                throw LongGameError(description: "could not run \(arguments[0]): \(String(cString: strerror(spawned)))")
            }
            // wait4's ru_maxrss alone is not the child's: posix_spawn starts it sharing this process's
            // memory (vfork) and Linux counts that memory's peak into the child's when it execs. So the
            // child's own peak (its VmHWM) is also read while it runs; wait4's counts when it is above
            // this process's peak (then it can only be the child's).
            var status: Int32 = 0
            var usage = rusage()
            var polled = 0
            while true {
                let waited = wait4(pid, &status, WNOHANG, &usage)
                if waited == pid { break }
                guard waited == 0 || errno == EINTR else {
                    throw LongGameError(description: "wait4: \(String(cString: strerror(errno)))")
                }
                polled = max(polled, highWaterMark(of: pid))
                usleep(2_000)
            }
            var own = rusage()
            getrusage(RUSAGE_SELF.rawValue, &own)
            let reported = Int(usage.ru_maxrss) * 1024  // Linux reports kilobytes
            let peak = reported > Int(own.ru_maxrss) * 1024 ? reported : polled
            let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            let stderr = (try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? ""
            return Result(status: exitCode, maxRSS: peak, stderr: stderr)
        }

        /// `VmHWM` of `/proc/PID/status` in bytes (0 when it cannot be read).
        private static func highWaterMark(of pid: pid_t) -> Int {
            guard let status = FileManager.default.contents(atPath: "/proc/\(pid)/status") else { return 0 }
            for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
                return (Int(line.dropFirst(6).filter(\.isNumber)) ?? 0) * 1024
            }
            return 0
        }
    }
#endif
