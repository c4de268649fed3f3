import ArgumentParser
import Foundation
import Providers
import ScoreDomain

/// `scorefeed-bench convert --json`: `scorefeed convert`'s parse and conversion per provider format,
/// against Python's `json.loads` of the same bytes in the same run (issue 27 point 5).
struct ConvertBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert each provider format's fixture documents many times; compare with Python's json.loads.",
        discussion: """
            Per format with documents under FIXTURES/<format>/: every document the format converts (alone, \
            or with one companion document of the same folder such as a box score or a match file) is \
            parsed and converted from its bytes in memory, repeated to about --megabytes per round; the \
            best of --rounds rounds gives MB/s (10^6 bytes) and documents/s. In the same run a python3 \
            child parses the same bytes with json.loads (json.load is json.loads of the file's read) the \
            same number of times, its rounds interleaved with ours, best round; ratio is ours over Python's speed \
            (parseOnlyRatio: JSONValue.parse alone, without the format's conversion).
            """
    )

    @Flag(help: "Print JSON (the only format).")
    var json = false

    @Option(help: "Folder of the providers' fixture folders.")
    var fixtures = "fixtures/providers"

    @Option(help: "More documents to measure on their own (format detected), such as a generated large one.")
    var document: [String] = []

    @Option(help: "Bytes to convert per round, in MB (10^6 bytes); a larger document is converted once per round.")
    var megabytes = 20.0

    @Option(help: "Rounds; the best one counts, for both sides.")
    var rounds = 5

    @Option(help: "Measure only these formats (by name; repeatable). Default: every format with fixtures.")
    var only: [String] = []

    @Option(help: "The Python interpreter.")
    var python = "/usr/bin/python3"

    /// One measured set: the documents of a format's games, each game's documents converted together.
    struct Workload {
        var label: String
        var format: any ProviderFormat.Type
        var games: [(names: [String], documents: [Data])]
        var bytes: Int { games.reduce(0) { $0 + $1.documents.reduce(0) { $0 + $1.count } } }
        var documentCount: Int { games.reduce(0) { $0 + $1.documents.count } }
    }

    func run() async throws {
        var workloads = try ProviderFormats.all.filter { only.isEmpty || only.contains($0.name) }
            .compactMap { try fixtureWorkload($0) }
        for path in document {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let (format, _) = try ProviderFormats.convert([data], format: nil)
            let name = URL(fileURLWithPath: path).lastPathComponent
            workloads.append(Workload(label: "\(format.name) (\(name))", format: format, games: [([name], [data])]))
        }
        var results: [[String: Any]] = []
        for workload in workloads {
            results.append(try measure(workload))
        }
        try printJSON([
            "benchmark": "convert", "rounds": rounds, "megabytesPerRound": megabytes, "formats": results,
            "python": try pythonVersion(),
        ])
    }

    /// The format's fixture games: each detected document alone, or with the first companion that
    /// makes it convert; `nil` when the format has no fixture folder.
    private func fixtureWorkload(_ format: any ProviderFormat.Type) throws -> Workload? {
        let folder = URL(fileURLWithPath: fixtures).appendingPathComponent(format.name)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        var files: [(name: String, data: Data, detected: Bool)] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let detected = (try? JSONValue.parse(data)).map { format.detect($0) } ?? false
            files.append((name, data, detected))
        }
        var games: [(names: [String], documents: [Data])] = []
        for file in files where file.detected {
            let candidates = [[file]] + files.filter { $0.name != file.name }.map { [file, $0] }
            if let game = candidates.first(where: {
                (try? ProviderFormats.convert($0.map(\.data), format: format)) != nil
            }) {
                games.append((game.map(\.name), game.map(\.data)))
            }
        }
        return games.isEmpty ? nil : Workload(label: format.name, format: format, games: games)
    }

    private func measure(_ workload: Workload) throws -> [String: Any] {
        let repeats = max(1, Int((megabytes * 1_000_000 / Double(workload.bytes)).rounded()))
        var messages = 0
        for game in workload.games {
            messages += try ProviderFormats.convert(game.documents, format: workload.format).messages.count
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("convert-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, data) in workload.games.flatMap(\.documents).enumerated() {
            let path = folder.appendingPathComponent("\(index).json").path
            try data.write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        // Interleaved, so that both sides see the same load: each round converts, parses, then lets
        // Python parse; the best round of each counts.
        var best = Double.infinity
        var parseBest = Double.infinity
        var python = Double.infinity
        for _ in 0..<rounds {
            var began = ContinuousClock.now
            for _ in 0..<repeats {
                for game in workload.games {
                    _ = try ProviderFormats.convert(game.documents, format: workload.format)
                }
            }
            best = min(best, (ContinuousClock.now - began) / .seconds(1))
            // The parse alone (JSONValue.parse keeping the members the format reads, as the conversion
            // parses), to tell the parse from the format's conversion.
            let filter = ProviderFormats.reads(workload.format)
            began = ContinuousClock.now
            for _ in 0..<repeats {
                for game in workload.games {
                    for document in game.documents { _ = try JSONValue.parse(document, keeping: filter) }
                }
            }
            parseBest = min(parseBest, (ContinuousClock.now - began) / .seconds(1))
            python = min(python, try pythonRound(paths, repeats: repeats))
        }
        let bytes = Double(workload.bytes * repeats)
        let ours = bytes / best / 1_000_000
        let parsed = bytes / parseBest / 1_000_000
        let theirs = bytes / python / 1_000_000
        return [
            "format": workload.label, "documents": workload.games.map { $0.names.joined(separator: " + ") },
            "bytes": workload.bytes, "messages": messages, "repeatsPerRound": repeats,
            "bestRoundSeconds": rounded(best, places: 4), "mbPerSecond": rounded(ours, places: 1),
            "documentsPerSecond": rounded(Double(workload.documentCount * repeats) / best, places: 0),
            "pythonJsonLoadsBestRoundSeconds": rounded(python, places: 4),
            "pythonJsonLoadsMbPerSecond": rounded(theirs, places: 1), "ratio": rounded(ours / theirs, places: 2),
            "parseOnlyMbPerSecond": rounded(parsed, places: 1), "parseOnlyRatio": rounded(parsed / theirs, places: 2),
        ]
    }

    /// One round of Python's `json.loads` over the documents at `paths`, `repeats` times each, read
    /// into memory before its clock starts: the seconds it took.
    private func pythonRound(_ paths: [String], repeats: Int) throws -> Double {
        let script = """
            import json, sys, time
            repeats = int(sys.argv[1])
            blobs = [open(p, 'rb').read() for p in sys.argv[2:]]
            began = time.perf_counter()
            for _ in range(repeats):
                for blob in blobs:
                    json.loads(blob)
            print(time.perf_counter() - began)
            """
        let output = try runPython(["-c", script, String(repeats)] + paths)
        guard let seconds = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ValidationError("python3 printed no time: \(output)")
        }
        return seconds
    }

    private func pythonVersion() throws -> String {
        try runPython(["-c", "import sys; print(sys.version.split()[0])"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    private func runPython(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError("python3 failed (\(process.terminationStatus))")
        }
        return String(decoding: output, as: UTF8.self)
    }
}
