import ArgumentParser
import Foundation
import LiveActivity
import ScoreStore

/// `scorefeed replay FILE.jsonl...`: feed files through ingest → log → projection → commands.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay canonical JSON Lines feed files and print the Live Activity commands they produce.",
        discussion: """
            Commands are printed as JSON lines on stdout (or --out FILE); a summary goes to stderr.
            Replaying a file again appends nothing and prints no command. A bad line stops the replay
            with a non-zero exit and a message naming the file and line; nothing of it is stored.
            """
    )

    @Argument(help: "Feed files in canonical JSON Lines (docs/feed-format.md).")
    var files: [String]

    @Option(help: "Write the commands to this file instead of stdout.")
    var out: String?

    @Option(help: "Replay at N times the real time between messages (default: instant).")
    var speed: Double?

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one feed file") }
        if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a positive number") }
    }

    func run() async throws {
        let sink = try CommandSink(path: out)
        let connection = try await Runtime.openDatabase()
        // Instant replays run the push throttles on the events' own clock (the same pushes every
        // time); a replay at a chosen speed runs them on the wall clock, like the live service.
        let clock: PushClock = speed == nil ? .eventTime : .wall({ Date() })
        let replayer = Replayer(
            ingestor: Ingestor(connection: connection), projector: Projector(clock: clock), speed: speed)
        let started = ContinuousClock.now
        let summary = try await replayer.replay(files: files) { command in try sink.write(command.jsonLine() + "\n") }
        try sink.close()
        await connection.close()
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        Output.error(
            "replayed \(summary.messages) messages of \(summary.games.count) game(s): \(summary.accepted) accepted, "
                + "\(summary.duplicates) duplicates, \(summary.commands) commands in \(String(format: "%.2f", seconds)) s"
        )
    }
}

/// Where replayed commands go: stdout or a file.
final class CommandSink {
    private let handle: FileHandle
    private let ownsHandle: Bool

    init(path: String?) throws {
        guard let path else {
            handle = .standardOutput
            ownsHandle = false
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw CLIError("cannot write --out file \(path): \(String(cString: strerror(errno)))")
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        ownsHandle = true
    }

    func write(_ text: String) throws {
        try handle.write(contentsOf: Data(text.utf8))
    }

    func close() throws {
        if ownsHandle { try handle.close() }
    }
}
