import Foundation
import LiveActivity
import ScoreDomain
import Testing

/// The app contracts as a client would use them: the Swift types `docs/app-contract.md` gives, compiled
/// as they are (ActivityKit's protocol stubbed) and decoding with Foundation's `JSONDecoder` every
/// golden payload's `content-state` and the `attributes` of push-to-start payloads; and every key
/// `docs/android-contract.md` promises, with its type, in every golden Android data message.
@Suite("the app contracts, used as a client would")
struct AppContractTests {
    static let root = ContentStateSchemaTests.root
    static let fixtures = ["plain-nine", "extra-innings-walkoff", "delayed-postponed"]

    @Test("the documented Swift types decode every golden content-state and every start's attributes")
    func swiftTypesDecodeGoldenPayloads() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/app-contract.md"), encoding: .utf8)
        let types = try #require(
            Self.codeBlocks(doc, language: "swift").first { $0.contains("struct ScoreWidgetAttributes") },
            "docs/app-contract.md has no swift block declaring ScoreWidgetAttributes")
        var states: [String] = []
        var attributes: [String] = []
        for name in Self.fixtures {
            for file in ["pushes", "broadcasts"] {
                let text = try String(
                    contentsOf: Self.root.appendingPathComponent("fixtures/\(name).\(file).jsonl"), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let push = try JSONValue.parse(Data(line.utf8))
                    let state = SchemaCheck.member(push, "payload", "aps", "content-state")
                    states.append(state.serialized())
                }
            }
            // A push-to-start for every state the fixture's game goes through.
            for state in try Self.states(of: name) {
                let start = try JSONValue.parse(
                    Data(StartPayload.json(state: state, timestamp: 0, channelId: nil).utf8))
                attributes.append(SchemaCheck.member(start, "aps", "attributes").serialized())
                states.append(SchemaCheck.member(start, "aps", "content-state").serialized())
            }
        }
        // Every clock sport: the pushes of its fixture games and a push-to-start for every state.
        for name in S.fixtureNames {
            let changes = S.changes(try S.fixture(name))
            for push in S.pushes(changes) { states.append(try S.contentState(push.payload).serialized()) }
            for change in changes {
                let start = try JSONValue.parse(
                    Data(StartPayload.json(state: change.next, timestamp: 0, channelId: "c").utf8))
                attributes.append(SchemaCheck.member(start, "aps", "attributes").serialized())
                states.append(SchemaCheck.member(start, "aps", "content-state").serialized())
            }
        }
        let output = try Self.compileAndRun(
            types: types, inputs: ["states.jsonl": states, "attributes.jsonl": attributes])
        #expect(output == "decoded \(states.count) content states and \(attributes.count) attributes\n")
        #expect(states.count > 5000 && attributes.count > 2000)
    }

    @Test(
        "the clock's dates decode, with the documented type and Foundation's default decoder, to the anchor's instants")
    func clockDatesDecode() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/app-contract.md"), encoding: .utf8)
        let types = try #require(
            Self.codeBlocks(doc, language: "swift").first { $0.contains("struct ScoreWidgetAttributes") })
        var clocks: [GameClock] = []
        var states: [String] = []
        for name in ["nba-overtime", "knockout-shootout", "nfl-missed-xp"] {
            for change in S.changes(try S.fixture(name)) {
                guard let clock = change.next.clock, change.previous?.clock != clock else { continue }
                clocks.append(clock)
                let start = try JSONValue.parse(
                    Data(StartPayload.json(state: change.next, timestamp: 0, channelId: nil).utf8))
                states.append(SchemaCheck.member(start, "aps", "content-state").serialized())
            }
        }
        let main = """
            import Foundation
            let text = try! String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8)
            for line in text.split(separator: "\\n") {
                let state = try! JSONDecoder().decode(ScoreWidgetAttributes.ContentState.self, from: Data(line.utf8))
                let clock = state.status.clock!
                let paused = clock.pausedAt.map { String(Int(($0.timeIntervalSince1970 * 1000).rounded())) } ?? "-"
                print(Int((clock.start.timeIntervalSince1970 * 1000).rounded()),
                      Int((clock.end.timeIntervalSince1970 * 1000).rounded()), paused, clock.countsDown)
            }

            """
        let output = try Self.compileAndRun(types: types, inputs: ["states.jsonl": states], main: main)
        let lines = output.split(separator: "\n")
        #expect(lines.count == clocks.count && clocks.count > 50)
        for (line, clock) in zip(lines, clocks) {
            let fields = line.split(separator: " ")
            guard fields.count == 4, Int(fields[0]) != nil, Int(fields[1]) != nil else {
                Issue.record("unexpected output: \(line)")
                continue
            }
            let (start, end) = (Int(fields[0])!, Int(fields[1])!)
            let at = Int((clock.at.timeIntervalSince1970 * 1000).rounded())
            // What the widget's timer text shows at the anchor's instant is the anchor's value.
            #expect(clock.countsDown ? end - at == clock.ms : at - start == clock.ms, "\(line) \(clock)")
            #expect(fields[2] == (clock.running ? "-" : Substring(String(at))), "\(line) \(clock)")
            #expect(fields[3] == (clock.countsDown ? "true" : "false"))
        }
    }

    @Test("every golden Android message carries every documented key, with its documented type, and no other")
    func androidMessagesKeepTheContract() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/android-contract.md"), encoding: .utf8)
        let promised = Self.androidKeys(doc)
        #expect(promised.count == 18, "\(promised.keys.sorted())")
        var checked = 0
        for name in Self.fixtures {
            let text = try String(
                contentsOf: Self.root.appendingPathComponent("fixtures/\(name).android.jsonl"), encoding: .utf8)
            for (index, line) in text.split(separator: "\n").enumerated() {
                guard case .object(let data) = SchemaCheck.member(try JSONValue.parse(Data(line.utf8)), "data") else {
                    Issue.record("\(name) line \(index + 1) has no data object")
                    continue
                }
                #expect(Set(data.keys) == Set(promised.keys), "\(name) line \(index + 1)")
                for (key, type) in promised {
                    guard case .string(let value)? = data[key] else {
                        Issue.record("\(name) line \(index + 1): \(key) is not a string")
                        continue
                    }
                    #expect(type.accepts(value), "\(name) line \(index + 1): \(key) = \"\(value)\" is not \(type)")
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test(
        "every clock-sport fixture game's Android message carries every common key and only documented sport keys, typed"
    )
    func androidSportMessagesKeepTheContract() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/android-contract.md"), encoding: .utf8)
        let common = Self.androidKeys(doc)
        let sport = Self.androidKeys(doc, section: "### The keys of the clock sports")
        #expect(sport.count == 15, "\(sport.keys.sorted())")
        #expect(Set(common.keys).isDisjoint(with: sport.keys))
        var seen: Set<String> = []
        var checked = 0
        for name in S.fixtureNames {
            for (index, message) in S.androidMessages(S.changes(try S.fixture(name))).enumerated() {
                guard case .object(let data) = try S.json(message.payload) else {
                    Issue.record("\(name) message \(index + 1) is not an object")
                    continue
                }
                #expect(Set(common.keys).isSubset(of: data.keys), "\(name) message \(index + 1)")
                for (key, value) in data {
                    guard let type = common[key] ?? sport[key] else {
                        Issue.record("\(name) message \(index + 1): undocumented key \(key)")
                        continue
                    }
                    guard case .string(let text) = value else {
                        Issue.record("\(name) message \(index + 1): \(key) is not a string")
                        continue
                    }
                    #expect(type.accepts(text), "\(name) message \(index + 1): \(key) = \"\(text)\" is not \(type)")
                    seen.insert(key)
                }
                checked += 1
            }
        }
        #expect(checked > 1000)
        #expect(Set(sport.keys).isSubset(of: seen), "never seen: \(Set(sport.keys).subtracting(seen).sorted())")
    }

    /// The type a key of the Android data map has on the wire, as the contract's table words it.
    enum WireType: CustomStringConvertible {
        case integer
        case oneOf([String])
        case text

        init(_ words: String) {
            let choices = words.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 1
            }.map { String($0.element) }
            if words.contains("decimal integer") || words.contains("Unix seconds") {
                self = .integer
            } else if !choices.isEmpty {
                self = .oneOf(choices)
            } else {
                self = .text
            }
        }

        func accepts(_ value: String) -> Bool {
            switch self {
            case .integer: !value.isEmpty && value.allSatisfy(\.isASCII) && Int64(value) != nil
            case .oneOf(let choices): choices.contains(value)
            case .text: true
            }
        }

        var description: String {
            switch self {
            case .integer: "a string of a decimal integer"
            case .oneOf(let choices): "one of \(choices)"
            case .text: "a string"
            }
        }
    }

    /// The keys of the data map table (`| \`key\`, \`key\` | type | meaning | example |`), with their
    /// types; `status` takes its values from the meaning column.
    static func androidKeys(_ doc: String, section: String = "### The data map") -> [String: WireType] {
        guard let start = doc.range(of: section) else { return [:] }
        var keys: [String: WireType] = [:]
        for line in doc[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("#") { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("| `"), cells.count >= 3 else { continue }
            let names = cells[0].split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
            }
            let type = cells[1] == "string" && names == ["status"] ? WireType(cells[2]) : WireType(cells[1])
            for name in names { keys[name] = type }
        }
        return keys
    }

    /// The states a fixture's game goes through, folded from its messages.
    static func states(of name: String) throws -> [ScoreState] {
        let data = try Data(contentsOf: root.appendingPathComponent("fixtures/\(name).jsonl"))
        var messages: [FeedMessage] = []
        FeedParser.forEachEntry(ndjson: data) { entry in
            if case .success(let message) = entry.result { messages.append(message) }
        }
        var states: [ScoreState] = []
        var state: ScoreState?
        for message in messages {
            guard let next = try? ScoreFold.apply(message, to: state) else { continue }
            states.append(next)
            state = next
        }
        return states
    }

    static func codeBlocks(_ markdown: String, language: String) -> [String] {
        markdown.components(separatedBy: "```\(language)\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first
        }
    }

    /// Compiles the contract's types with a stub of ActivityKit and a decoder that reads every line of
    /// `states.jsonl` as `ContentState` and of `attributes.jsonl` as `ScoreWidgetAttributes`.
    static func compileAndRun(types: String, inputs: [String: [String]], main: String? = nil) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stub = """
            import Foundation
            /// ActivityKit's protocol, as Apple declares it (ActivityKit exists on Apple's systems only).
            public protocol ActivityAttributes: Decodable, Encodable {
                associatedtype ContentState: Decodable, Encodable, Hashable
            }

            """
        let decoder = """
            import Foundation
            func decodeAll<T: Decodable>(_ type: T.Type, file: String) -> Int {
                let text = try! String(contentsOfFile: file, encoding: .utf8)
                var count = 0
                for (index, line) in text.split(separator: "\\n").enumerated() {
                    do {
                        _ = try JSONDecoder().decode(T.self, from: Data(line.utf8))
                        count += 1
                    } catch {
                        print("\\(file) line \\(index + 1): \\(error)")
                        exit(1)
                    }
                }
                return count
            }
            let states = decodeAll(ScoreWidgetAttributes.ContentState.self, file: CommandLine.arguments[1])
            let attributes = decodeAll(ScoreWidgetAttributes.self, file: CommandLine.arguments[2])
            print("decoded \\(states) content states and \\(attributes) attributes")

            """
        try stub.write(to: folder.appendingPathComponent("ActivityKitStub.swift"), atomically: true, encoding: .utf8)
        try types.replacingOccurrences(of: "import ActivityKit", with: "import Foundation")
            .write(to: folder.appendingPathComponent("Contract.swift"), atomically: true, encoding: .utf8)
        try (main ?? decoder).write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        for (file, lines) in inputs {
            try (lines.joined(separator: "\n") + "\n").write(
                to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let binary = folder.appendingPathComponent("contract").path
        let compile = try run(
            swiftc(),
            ["-swift-version", "6", "-o", binary]
                + ["ActivityKitStub.swift", "Contract.swift", "main.swift"].map {
                    folder.appendingPathComponent($0).path
                })
        #expect(compile.status == 0, "the documented types do not compile: \(compile.output)")
        guard compile.status == 0 else { return compile.output }
        return try run(
            binary,
            ["states.jsonl", "attributes.jsonl"].filter { inputs[$0] != nil }.map {
                folder.appendingPathComponent($0).path
            }
        ).output
    }

    /// `swiftc` of the toolchain running the tests (on `PATH`, or beside `swift` in /opt/swift).
    static func swiftc() -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/swiftc" } + ["/opt/swift/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "swiftc"
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
