import Foundation
import Testing

@testable import ScoreDomain

/// ``JSONValue/parse(_:keeping:)``: only the named members are built, at every depth; the skipped
/// values are checked as strictly as parsed ones.
@Suite("JSONParser: keeping only the members a reader reads")
struct JSONMemberFilterTests {
    static let filter = JSONMemberFilter(words: "id plays score")

    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONValue.parse(Data(text.utf8), keeping: filter)
    }

    @Test("members of other names are left out at every depth; arrays and scalars stay whole")
    func keeps() throws {
        let text = """
            {"id": 7, "meta": {"id": 1, "x": [1, 2]}, "plays": [
              {"id": 1, "desc": "a \\"quoted\\" é text", "score": {"home": 1, "id": "s1"}, "xy": [1.5, -2e3]},
              {"id": 2, "qualifiers": [{"id": 9}, null, true, false], "score": null},
              {"other": {"deep": [[[{"id": 3}]]]}}
            ], "score": [1, "two", {"id": 3, "z": 4}]}
            """
        let expected: JSONValue = .object([
            "id": .int(7),
            "plays": .array([
                .object(["id": .int(1), "score": .object(["id": .string("s1")])]),
                .object(["id": .int(2), "score": .null]),
                .object([:]),
            ]),
            "score": .array([.int(1), .string("two"), .object(["id": .int(3)])]),
        ])
        #expect(try Self.parse(text) == expected)
        // Without a filter, everything is kept.
        let whole = try JSONValue.parse(Data(text.utf8))
        if case .object(let root) = whole {
            #expect(root.keys.sorted() == ["id", "meta", "plays", "score"])
        } else {
            Issue.record("not an object: \(whole)")
        }
    }

    @Test("a skipped value is checked like a parsed one: the same error at the same column")
    func skippedErrors() {
        let bad = [
            #"{"x": [1, 2}"#,  // wrong closing bracket
            #"{"x": {"a" 1}}"#,  // missing colon
            #"{"x": {1: 2}}"#,  // a key that is not a string
            "{\"x\": \"tab\u{09}in\"}",  // a control character in a string
            #"{"x": "\q"}"#,  // an invalid escape
            #"{"x": "\ud800"}"#,  // a lone surrogate
            #"{"x": 01}"#,  // a leading zero
            #"{"x": 1.}"#,  // no digit after the point
            #"{"x": tru}"#,  // a broken literal
            #"{"x": "open"#,  // unterminated
            #"{"x": [1, 2"#,  // truncated
            "{\"x\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",  // too deep
        ]
        for text in bad {
            var full: JSONSyntaxError?
            var skipped: JSONSyntaxError?
            do { _ = try JSONValue.parse(Data(text.utf8)) } catch { full = error }
            do { _ = try Self.parse(text) } catch { skipped = error }
            #expect(full != nil, "\(text)")
            #expect(skipped == full, "\(text)")
        }
        // Invalid UTF-8 in a skipped string.
        let invalid = Data(#"{"x": ""#.utf8) + Data([0xC3, 0x28]) + Data(#""}"#.utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(invalid, keeping: Self.filter) }
    }

    @Test("duplicate keys are refused among the kept members only")
    func duplicates() throws {
        #expect(throws: JSONSyntaxError.self) { try Self.parse(#"{"id": 1, "id": 2}"#) }
        #expect(try Self.parse(#"{"x": 1, "x": 2, "id": 3}"#) == .object(["id": .int(3)]))
    }

    @Test("a name written name{} is kept where its value is an object only; unions keep what either reads")
    func objectsOnly() throws {
        let filter = JSONMemberFilter(words: "plays summary{} home")
        let text = #"{"summary": {"home": 1}, "plays": [{"summary": "a long description", "home": 2}]}"#
        let expected: JSONValue = .object([
            "summary": .object(["home": .int(1)]), "plays": .array([.object(["home": .int(2)])]),
        ])
        #expect(try JSONValue.parse(Data(text.utf8), keeping: filter) == expected)
        // Another filter that reads `summary` whatever it is wins in a union; two that read objects only agree.
        #expect(filter.union(JSONMemberFilter(words: "summary")).objectsOnly.isEmpty)
        #expect(filter.union(JSONMemberFilter(words: "summary{}")).objectsOnly == ["summary"])
        #expect(filter.union(JSONMemberFilter(words: "other")).objectsOnly == ["summary"])
    }
}
