import Foundation
import ScoreDomain
import Testing

/// Every golden push's `content-state` matches `docs/content-state.schema.json`, the schema the app
/// contract (`docs/app-contract.md`) publishes: what ScoreFeed sends is what an app can decode.
@Suite("the content-state JSON Schema of the app contract")
struct ContentStateSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    static func schema() throws -> JSONValue {
        try json(try String(contentsOf: root.appendingPathComponent("docs/content-state.schema.json"), encoding: .utf8))
    }

    @Test("every push of every golden file has a content-state the schema accepts")
    func goldenPushes() throws {
        let schema = try Self.schema()
        var checked = 0
        for name in ["plain-nine", "extra-innings-walkoff", "delayed-postponed"] {
            let text = try String(
                contentsOf: Self.root.appendingPathComponent("fixtures/\(name).pushes.jsonl"), encoding: .utf8)
            for (index, line) in text.split(separator: "\n").enumerated() {
                let push = try Self.json(String(line))
                let problems = SchemaCheck.problems(
                    SchemaCheck.member(push, "payload", "aps", "content-state"), against: schema)
                #expect(problems.isEmpty, "\(name) line \(index + 1): \(problems)")
                checked += 1
            }
        }
        #expect(checked > 600)
    }

    @Test("every push of every clock-sport fixture game has a content-state the schema accepts, with each new key")
    func sportsPushes() throws {
        let schema = try Self.schema()
        var keys: Set<String> = []
        var checked = 0
        for name in S.fixtureNames {
            let changes = S.changes(try S.fixture(name))
            for (index, push) in S.pushes(changes).enumerated() {
                let state = try S.contentState(push.payload)
                let problems = SchemaCheck.problems(state, against: schema)
                #expect(problems.isEmpty, "\(name) push \(index + 1): \(problems)")
                guard case .object(let status) = SchemaCheck.member(state, "status") else { continue }
                keys.formUnion(status.keys)
                checked += 1
                // The interval Text(timerInterval:pauseTime:) draws: start ≤ pausedAt ≤ end.
                if case .object(let clock) = status["clock"] {
                    let seconds = { (key: String) -> Double? in
                        switch clock[key] {
                        case .int(let value)?: Double(value)
                        case .double(let value)?: value
                        default: nil
                        }
                    }
                    let (start, end) = (try #require(seconds("start")), try #require(seconds("end")))
                    #expect(start <= end, "\(name) push \(index + 1)")
                    if let paused = seconds("pausedAt") { #expect(start <= paused && paused <= end) }
                }
            }
        }
        // The golden streams of the fixture games, once written (activity pushes and broadcasts).
        var golden = 0
        for name in S.fixtureNames {
            for line in S.golden(name, "pushes") + S.golden(name, "broadcasts") {
                let state = SchemaCheck.member(try S.json(line), "payload", "aps", "content-state")
                let problems = SchemaCheck.problems(state, against: schema)
                #expect(problems.isEmpty, "\(name) golden: \(problems)")
                golden += 1
            }
        }
        #expect(S.fixtureNames.count >= 12)
        #expect(checked > 1000)
        print("checked \(checked) planned and \(golden) golden clock-sport content states against the schema")
        let promised: Set<String> = [
            "sport", "clock", "shootout", "redCards", "possession", "down", "distance", "yardLine",
        ]
        #expect(promised.isSubset(of: keys), "never seen: \(promised.subtracting(keys))")
    }

    @Test(
        "the schema refuses what an app could not decode",
        arguments: [
            (
                #"{"status":{"awayScore":1,"bases":{"first":true,"second":false,"third":false},"homeScore":2,"inning":"Top 4th","outs":1,"status":"inprogress"}}"#,
                ""
            ),
            (#"{"status":{"awayScore":1,"homeScore":2,"inning":"Top 4th","outs":1,"status":"inprogress"}}"#, "bases"),
            (
                #"{"status":{"awayScore":"1","bases":{"first":true,"second":false,"third":false},"homeScore":2,"inning":"Top 4th","outs":1,"status":"inprogress"}}"#,
                "awayScore"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":true,"second":false,"third":false},"homeScore":2,"inning":"Top 4th","outs":4,"status":"inprogress"}}"#,
                "outs"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":true,"second":false,"third":false},"homeScore":2,"inning":"Top 4th","outs":1,"status":"finished"}}"#,
                "status"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":1,"second":false,"third":false},"homeScore":2,"inning":"Top 4th","outs":1,"status":"inprogress"}}"#,
                "first"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":true,"second":false,"third":false},"homeScore":2,"inning":"Top 4th","outs":1,"status":"inprogress","clock":3}}"#,
                "clock"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":false,"second":false,"third":false},"clock":{"countsDown":true,"end":794602858.5,"start":794602138.5},"homeScore":2,"inning":"Q4","outs":0,"sport":"basketball","status":"inprogress"}}"#,
                ""
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":false,"second":false,"third":false},"clock":{"countsDown":true,"end":"2026-03-08T20:00:00Z","start":794602138},"homeScore":2,"inning":"Q4","outs":0,"sport":"basketball","status":"inprogress"}}"#,
                "end"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":false,"second":false,"third":false},"clock":{"countsDown":true,"end":794602858},"homeScore":2,"inning":"Q4","outs":0,"sport":"basketball","status":"inprogress"}}"#,
                "start"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":false,"second":false,"third":false},"homeScore":2,"inning":"Q4","outs":0,"sport":"cricket","status":"inprogress"}}"#,
                "sport"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":false,"second":false,"third":false},"distance":10,"down":5,"homeScore":2,"inning":"Q4","outs":0,"possession":"home","sport":"football","status":"inprogress","yardLine":25}}"#,
                "down"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":false,"second":false,"third":false},"homeScore":2,"inning":"Pens","outs":0,"shootout":{"home":3},"sport":"soccer","status":"inprogress"}}"#,
                "away"
            ),
            (
                #"{"status":{"awayScore":1,"bases":{"first":false,"second":false,"third":false},"homeScore":2,"inning":"2nd Half","outs":0,"redCards":{"away":1,"home":null},"sport":"soccer","status":"inprogress"}}"#,
                "home"
            ),
            (#"{"score":{}}"#, "status"),
            (#"[]"#, "object"),
        ])
    func refuses(_ document: String, _ named: String) throws {
        let problems = SchemaCheck.problems(try Self.json(document), against: try Self.schema())
        if named.isEmpty {
            #expect(problems.isEmpty, "\(problems)")
        } else {
            #expect(problems.contains { $0.contains(named) }, "\(problems)")
        }
    }
}

/// The part of JSON Schema (draft 2020-12) the content-state schema uses: `type` (object, string,
/// integer, number, boolean), `properties`, `required`, `additionalProperties: false`, `enum`, `minimum`,
/// `maximum`. Anything else in a schema is reported, so the schema cannot silently outgrow it.
enum SchemaCheck {
    static let understood: Set<String> = [
        "$schema", "$id", "title", "description", "type", "properties", "required", "additionalProperties", "enum",
        "minimum", "maximum",
    ]

    static func problems(_ value: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        guard case .object(let keywords) = schema else { return ["\(path): a schema must be an object"] }
        var problems = keywords.keys.filter { !understood.contains($0) }.map { "\(path): unsupported keyword \($0)" }
        if case .string(let type) = keywords["type"], !matches(value, type) {
            return problems + ["\(path): must be \(type == "object" ? "an" : "a") \(type)"]
        }
        if case .array(let allowed) = keywords["enum"], !allowed.contains(value) {
            problems.append("\(path): must be one of \(allowed)")
        }
        if case .int(let number) = value {
            if case .int(let minimum) = keywords["minimum"], number < minimum {
                problems.append("\(path): below \(minimum)")
            }
            if case .int(let maximum) = keywords["maximum"], number > maximum {
                problems.append("\(path): above \(maximum)")
            }
        }
        guard case .object(let object) = value else { return problems }
        guard case .object(let properties) = keywords["properties"] ?? .object([:]) else {
            return problems + ["\(path): properties must be an object"]
        }
        if case .array(let required) = keywords["required"] {
            for case .string(let key) in required where object[key] == nil {
                problems.append("\(path): missing \(key)")
            }
        }
        if keywords["additionalProperties"] == .bool(false) {
            for key in object.keys where properties[key] == nil { problems.append("\(path): unexpected \(key)") }
        }
        for (key, child) in properties {
            if let member = object[key] { problems += self.problems(member, against: child, at: "\(path).\(key)") }
        }
        return problems
    }

    /// The value at a path of object keys, or null.
    static func member(_ value: JSONValue, _ keys: String...) -> JSONValue {
        keys.reduce(value) { current, key in
            if case .object(let members) = current { return members[key] ?? .null }
            return .null
        }
    }

    private static func matches(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("string", .string), ("boolean", .bool), ("integer", .int), ("number", .int),
            ("number", .double):
            return true
        default: return false
        }
    }
}
