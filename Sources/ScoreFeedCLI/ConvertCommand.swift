import ArgumentParser
import Foundation
import MLBFeed
import Providers
import ScoreDomain

/// `scorefeed convert FILE... [--format NAME]`: a provider's documents of one game → canonical messages.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a provider's documents of one game to canonical feed messages (JSON lines on stdout).",
        discussion: """
            The documents of one game (a format may take a second one, such as a match file or a box \
            score) become the game's messages in game order, with ids derived from the provider's own \
            (docs/providers.md), so converting again gives the same messages. Nothing is written to \
            stdout unless every document converts; a failure exits non-zero naming the format and the \
            field. Formats (--format auto detects them from the first document):
            """ + "\n"
                + ProviderFormats.all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n") + "\n"
                + "  mlb-feed: MLB Stats API live feed documents (GUMBO) of one game, in order (docs/mlb-feed.md)\n"
                + "  retrosheet: Retrosheet event files (.EVA/.EVN), every game in them (TEAMyyyy beside them)"
    )

    @Argument(help: "The game's documents (JSON).")
    var files: [String]

    @Option(help: "The document format: auto (the default) or a name listed below.")
    var format = "auto"

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give the game's document") }
        guard ["auto", "mlb-feed", "retrosheet"].contains(format) || ProviderFormats.named(format) != nil else {
            throw ValidationError(
                "--format: unknown format \"\(format)\" (known: auto, "
                    + ProviderFormats.all.map { $0.name }.joined(separator: ", ") + ", mlb-feed, retrosheet)")
        }
    }

    func run() async throws {
        let messages: [FeedMessage]
        switch format {
        case "retrosheet": messages = try Self.retrosheet(files)
        case "mlb-feed": messages = try Self.mlbFeed(files)
        default: messages = try Self.convert(files, format: format)
        }
        // In slices of a thousand lines: never the whole output as one more copy beside the messages.
        var start = 0
        while start < messages.count {
            let end = min(start + 1000, messages.count)
            Output.write(messages[start..<end].map { $0.canonicalJSON() + "\n" }.joined())
            start = end
        }
    }

    /// Retrosheet event files: every game in them, in file order; the first bad game stops it.
    static func retrosheet(_ files: [String]) throws -> [FeedMessage] {
        var messages: [FeedMessage] = []
        for game in try FeedSources.retrosheetGames(files) {
            switch game {
            case .success(let sourced): messages += sourced.map(\.message)
            case .failure(let error): throw CLIError("retrosheet: \(error.description)")
            }
        }
        return messages
    }

    /// MLB live feed documents of one game, in the given order, through the differ of `follow mlb`
    /// from an empty view: the messages the log would get.
    static func mlbFeed(_ files: [String]) throws -> [FeedMessage] {
        var view: MLBGameView?
        var messages: [FeedMessage] = []
        for file in files {
            let snapshot: MLBSnapshot
            do {
                snapshot = try MLBSnapshot(data: try Data(contentsOf: URL(fileURLWithPath: file)))
            } catch {
                throw CLIError("\(file): mlb-feed: \(error)")
            }
            let diff = MLBDiffer.diff(view ?? MLBGameView(gamePk: snapshot.gamePk), snapshot)
            view = diff.view
            messages += diff.messages
        }
        return messages
    }

    /// Reads and converts the documents; `format` is `auto` or a format's name. Each file is parsed
    /// in place, keeping only the members the format reads, and its bytes released before the next is
    /// read (ProviderDocuments), so the peak is about the documents' trees.
    static func convert(_ files: [String], format: String) throws -> [FeedMessage] {
        let named = ProviderFormats.named(format)
        var documents: [JSONValue] = []
        for (index, file) in files.enumerated() {
            do throws(ProviderDocuments.ReadError) {
                documents.append(
                    try ProviderDocuments.parse(contentsOf: file, keeping: ProviderFormats.reads(named)))
            } catch .unreadable(let reason) {
                throw CLIError("\(file): cannot read the file: \(reason)")
            } catch .syntax(let error) {
                throw CLIError("\(files[0]): \(named?.name ?? "auto"): document \(index + 1) is not JSON: \(error)")
            }
        }
        do {
            return try ProviderDocuments.convert(documents, format: named).messages
        } catch {
            throw CLIError("\(files[0]): \(error)")
        }
    }
}
