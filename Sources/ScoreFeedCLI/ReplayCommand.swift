import ArgumentParser
import Foundation
import LiveActivity
import Providers
import ScoreStore

/// `scorefeed replay PATH...`: feed files through ingest → log → projection → pushes.
struct ReplayCommand: AsyncParsableCommand {
    enum Format: String, CaseIterable {
        case canonical, retrosheet
        case mlbFeed = "mlb-feed"
    }

    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay feed files and print the Live Activity pushes a phone would receive.",
        discussion: """
            Prints, as JSON lines on stdout (or --out FILE), the pushes an activity registered 15 minutes \
            before each game's first pitch receives, planned by the server's own planner (instant replays \
            run on the events' own clock, --speed replays on the wall clock): \
            {"gameId":…,"event":…,"expiration":…,"payload":{"aps":{…}},"priority":…,"reason":…,"timestamp":…}. \
            Registered activities of the games get their pushes in the outbox too (see `scorefeed pushes`). \
            A summary goes to stderr, with a progress bar when stderr is a terminal. Replaying the same \
            input again appends nothing and prints no push (it says how many messages an earlier run had \
            already projected). Messages \
            an earlier run stored but did not project (it was killed in between) are projected now, and \
            their pushes printed.

            canonical: JSON Lines files (docs/feed-format.md). Every line is checked before anything is \
            stored: a bad line stops the replay with a non-zero exit naming the file and line.

            retrosheet: Retrosheet event files (.EVA/.EVN) or folders of them; team names come from a \
            TEAMyyyy file beside them. Each game is stored whole or not at all. A game that breaks the \
            event file spec is reported with file, line and reason: the replay stops there (the games \
            before it stay stored), or with --keep-going skips to the next game and exits non-zero at \
            the end.

            mlb-feed: saved MLB Stats API live feed documents (GUMBO, .json) or folders of them (in name \
            order), replayed in the given order through the differ of `follow mlb`, starting from what \
            the log already holds for the game (mlb-GAMEPK). Every document is read before anything is \
            stored: a bad one stops the replay with a non-zero exit naming the file and field. Documents \
            older than the newest one applied are ignored.

            A provider's format (docs/providers.md, the list in `scorefeed convert --help`): each file \
            is one game's document, converted as `scorefeed convert` does; every file is converted \
            before anything is stored.
            """
    )

    @Argument(help: "Feed files, or folders of them.")
    var paths: [String]

    @Option(help: "Input format: canonical, retrosheet, mlb-feed or a provider's (scorefeed convert --help).")
    var format = "canonical"

    @Option(help: "Write the pushes to this file instead of stdout.")
    var out: String?

    @Option(parsing: .unconditional, help: "Replay at N times the real time between messages (default: instant).")
    var speed: Double?

    @Flag(help: "Retrosheet: skip a game that breaks the spec and go on with the next one.")
    var keepGoing = false

    @Flag(
        help:
            "Then deliver the registered targets' pushes until none is left: to APNs (--apns-*) and, with FCM settings, through FCM (--fcm-*)."
    )
    var deliver = false

    @OptionGroup var apns: APNsOptions

    @OptionGroup var fcm: FCMOptions

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one feed file or folder") }
        if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a positive number") }
        guard Format(rawValue: format) != nil || ProviderFormats.named(format) != nil else {
            let known = Format.allCases.map(\.rawValue) + ProviderFormats.all.map { $0.name }
            throw ValidationError("--format: unknown format \"\(format)\" (known: \(known.joined(separator: ", ")))")
        }
    }

    func run() async throws {
        let started = ContinuousClock.now
        // A bad APNs or FCM setting fails before anything is stored.
        let delivery = deliver ? try DeliverySettings(apns: apns, fcm: fcm) : nil
        let sink = try CommandSink(path: out)
        let connection = try await Runtime.openDatabase()
        // Instant replays run the push throttles on the events' own clock (the same pushes every
        // time); a replay at a chosen speed runs them on the wall clock, like the live service.
        let clock: PushClock = speed == nil ? .eventTime : .wall({ Date() })
        let replayer = Replayer(
            ingestor: Ingestor(connection: connection), projector: Projector(clock: clock), speed: speed)
        let write: PushSink = { try sink.write($1.jsonLine(gameId: $0) + "\n") }
        var summary: ReplaySummary
        switch Format(rawValue: format) {
        case .canonical?:
            let files = try FeedSources.expand(paths) { $0.hasSuffix(".jsonl") || $0.hasSuffix(".ndjson") }
            summary = try await replayer.replay(files: files, emit: write)
        case .retrosheet?:
            summary = try await replayRetrosheet(replayer, emit: write)
        case .mlbFeed?:
            summary = try await replayMLB(replayer, emit: write)
        case nil:
            // A provider's format: every file converted first, then replayed.
            let files = try FeedSources.expand(paths) { $0.hasSuffix(".json") }
            var messages: [SourcedMessage] = []
            for file in files {
                messages += try ConvertCommand.convert([file], format: format).enumerated().map {
                    SourcedMessage(message: $1, file: file, line: $0 + 1)
                }
            }
            summary = try await replayer.replay(messages: messages, emit: write)
        }
        try sink.close()
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        Output.error(
            "replayed \(summary.games.count) game(s): \(summary.messages) events (\(summary.accepted) accepted, "
                + "\(summary.duplicates) duplicates), \(summary.pushes) pushes in \(String(format: "%.2f", seconds)) s"
        )
        if summary.projectedEarlier > 0 {
            Output.error(
                "\(summary.projectedEarlier) duplicate(s) had been projected by an earlier run: their pushes were "
                    + "planned then and are not printed again (duplicates an earlier run stored but did not project "
                    + "are projected now and printed)")
        }
        if let delivery {
            // Traced like `deliver` when an OTLP endpoint is set (the replay before it is not).
            let totals = try await TracingBootstrap.withTracing(Runtime.environment) {
                try await DeliverCommand.deliver(connection, settings: delivery, untilEmpty: true)
            }
            DeliverCommand.report(totals)
            if let paused = totals.paused { throw CLIError("delivery paused: \(paused)") }
        }
        await connection.close()
        if !summary.failures.isEmpty {
            for failure in summary.failures { Output.error("skipped: \(failure)") }
            throw CLIError("\(summary.failures.count) game(s) skipped, see above")
        }
    }

    private func replayRetrosheet(
        _ replayer: Replayer, emit: PushSink
    ) async throws -> ReplaySummary {
        let files = try FeedSources.expand(paths, accept: FeedSources.isEventFile)
        var games: [[SourcedMessage]] = []
        var failures: [String] = []
        for result in try FeedSources.retrosheetGames(files) {
            switch result {
            case .success(let messages): games.append(messages)
            case .failure(let error):
                guard keepGoing else {
                    // The games before the bad one are stored, then the replay stops.
                    let summary = try await replayGames(replayer, games, emit: emit)
                    Output.error(
                        "replayed \(summary.games.count) game(s) before the error: \(summary.messages) events, "
                            + "\(summary.pushes) pushes")
                    throw CLIError(error.description)
                }
                failures.append(error.description)
            }
        }
        var summary = try await replayGames(replayer, games, emit: emit)
        summary.failures = failures + summary.failures
        return summary
    }

    private func replayGames(
        _ replayer: Replayer, _ games: [[SourcedMessage]], emit: PushSink
    ) async throws -> ReplaySummary {
        if speed != nil { return try await replayer.replay(messages: games.flatMap { $0 }, emit: emit) }
        let bar = ProgressBar(totalGames: games.count)
        defer { bar.finish() }
        return try await replayer.replay(games: games, keepGoing: keepGoing, emit: emit) { done, summary in
            bar.update(games: done, events: summary.messages)
        }
    }
}

/// Where replayed pushes go: stdout or a file.
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
