import ArgumentParser
import Foundation
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
            """ + "\n" + ProviderFormats.all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")
    )

    @Argument(help: "The game's documents (JSON).")
    var files: [String]

    @Option(help: "The document format: auto (the default) or a name listed below.")
    var format = "auto"

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give the game's document") }
        guard format == "auto" || ProviderFormats.named(format) != nil else {
            throw ValidationError(
                "unknown format \"\(format)\" (known: auto, "
                    + ProviderFormats.all.map { $0.name }.joined(separator: ", ") + ")")
        }
    }

    func run() async throws {
        let messages = try Self.convert(files, format: format)
        Output.write(messages.map { $0.canonicalJSON() + "\n" }.joined())
    }

    /// Reads and converts the documents; `format` is `auto` or a format's name.
    static func convert(_ files: [String], format: String) throws -> [FeedMessage] {
        var documents: [Data] = []
        for file in files {
            do {
                documents.append(try Data(contentsOf: URL(fileURLWithPath: file)))
            } catch {
                throw CLIError("\(file): cannot read the file: \(error.localizedDescription)")
            }
        }
        do {
            return try ProviderFormats.convert(documents, format: ProviderFormats.named(format)).messages
        } catch {
            throw CLIError("\(files[0]): \(error)")
        }
    }
}
