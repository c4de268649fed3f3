import ChildProcess
import Foundation
import ScoreFeedTesting
import Testing

/// docs/api-examples.md runs: every `curl` of the page, in its order, against a `scorefeed serve` with
/// the page's own keys, answers the status the page documents for it (the first `# NNN` after it;
/// 200 where it documents a body only). The page cannot drift from the server.
@Suite("docs/api-examples.md against a running server", .timeLimit(.minutes(3)))
struct APIExamplesTests {
    /// One `curl` of the page: its text and the status it documents.
    struct Example: CustomStringConvertible {
        var command: String
        var status: Int
        var description: String { "\(status) ← \(command.prefix(140))" }
    }

    /// The page's shell blocks, in order.
    static func blocks(_ page: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else if line == "```sh" {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Every `curl` of the blocks with the status documented after it.
    static func examples(_ blocks: [String]) -> [Example] {
        var examples: [Example] = []
        for block in blocks {
            let lines = block.split(separator: "\n").map(String.init)
            var index = 0
            while index < lines.count {
                guard lines[index].hasPrefix("curl ") else {
                    index += 1
                    continue
                }
                var command = lines[index]
                while command.hasSuffix("\\"), index + 1 < lines.count {
                    index += 1
                    command += "\n" + lines[index]
                }
                // The documented status: in the command's own comment, or a comment line after it
                // (after a body quoted over several lines) before the next curl.
                var comments = [command.components(separatedBy: " # ").dropFirst().joined()]
                var next = index + 1
                while next < lines.count, !lines[next].hasPrefix("curl ") {
                    if lines[next].hasPrefix("#") { comments.append(String(lines[next].dropFirst())) }
                    next += 1
                }
                let status = comments.lazy.compactMap { text -> Int? in
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    guard trimmed.count >= 3, let code = Int(trimmed.prefix(3)), (100...599).contains(code) else {
                        return nil
                    }
                    return code
                }.first
                examples.append(Example(command: command, status: status ?? 200))
                index += 1
            }
        }
        return examples
    }

    /// The value the page's first block gives a variable (`APP_KEY=ak_… # comment` → `ak_…`).
    static func value(_ name: String, in block: String) throws -> String {
        let line = try #require(block.split(separator: "\n").first { $0.hasPrefix(name + "=") })
        return String(line.dropFirst(name.count + 1).split(separator: " ").first ?? "")
    }

    @Test("every curl of the page answers the status it documents")
    func pageRuns() async throws {
        let page = try String(
            contentsOf: repositoryRoot.appendingPathComponent("docs/api-examples.md"), encoding: .utf8)
        let blocks = Self.blocks(page)
        let settings = try #require(blocks.first)
        let examples = Self.examples(Array(blocks.dropFirst()))
        #expect(examples.count >= 20, "\(examples.count) curl commands found")
        let appKey = try Self.value("APP_KEY", in: settings)
        try await TestDatabase.withSchema { url in
            var environment = ProcessInfo.processInfo.environment
            environment["SCOREFEED_DATABASE_URL"] = url
            environment["SCOREFEED_INGEST_KEYS"] = try Self.value("INGEST_KEY", in: settings)
            environment["SCOREFEED_INGEST_SECRET"] = try Self.value("SECRET", in: settings)
            environment["SCOREFEED_APP_KEYS"] = "ios:\(appKey)"
            environment["SCOREFEED_LOG_LEVEL"] = "warning"
            let serve = try await ServeProcessForLogs(environment: environment)
            let base = "http://127.0.0.1:\(serve.port)"
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("examples-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // Each curl dumps its answer's headers to a numbered file; streams end after 2 s.
            let script =
                """
                set -u
                n=0
                curl() { n=$((n+1)); command curl -D "\(folder.path)/$n" --max-time 2 "$@"; echo; }
                \(settings)
                BASE=\(base)
                \(blocks.dropFirst().joined(separator: "\n").replacingOccurrences(of: "http://127.0.0.1:8080", with: "$BASE"))
                """
            let run = try await ChildProcess.run(["/bin/bash", "-c", script], environment: environment)
            let log = try await serve.stop()
            for (number, example) in examples.enumerated() {
                let headers =
                    (try? String(contentsOf: folder.appendingPathComponent("\(number + 1)"), encoding: .utf8)) ?? ""
                let status = headers.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                #expect(
                    status == example.status,
                    "curl \(number + 1) answered \(status.map(String.init) ?? "nothing"), the page says \(example)\n\(run.stdout.suffix(1500))\n\(log.suffix(1500))"
                )
            }
        }
    }

    @Test("the page's examples are found with their documented statuses")
    func parsing() {
        let blocks = Self.blocks(
            """
            text
            ```sh
            curl -sS "$BASE/a" \\
              -H "X: y"
            # 202 {"ok":1}; 409 otherwise
            curl -sS "$BASE/b"    # {"status":"ok"}
            curl -sS -X POST "$BASE/c" -d '[{"a":1},
                 {"b":2}]'
            # 201 {"id":1}
            ```
            ```json
            curl no
            ```
            """)
        #expect(blocks.count == 1)
        let examples = Self.examples(blocks)
        #expect(examples.map(\.status) == [202, 200, 201])
        #expect(examples.first?.command.contains("X: y") == true)
    }
}
