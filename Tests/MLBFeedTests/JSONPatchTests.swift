import Foundation
import MLBFeed
import ScoreDomain
import ScoreFeedTesting
import Testing

/// Parses a JSON literal of a test.
func json(_ text: String) -> JSONValue {
    do {
        return try JSONValue.parse(Data(text.utf8))
    } catch {
        fatalError("bad test JSON \(text): \(error)")
    }
}

@Suite("RFC 6902 JSON Patch and RFC 6901 pointers")
struct JSONPatchTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var document: String
        var patch: String
        var expected: String
        var description: String { name }
    }

    static let applies: [Case] = [
        Case(
            name: "add a member", document: #"{"a":1}"#, patch: #"[{"op":"add","path":"/b","value":2}]"#,
            expected: #"{"a":1,"b":2}"#),
        Case(
            name: "add replaces an existing member", document: #"{"a":1}"#,
            patch: #"[{"op":"add","path":"/a","value":[1]}]"#, expected: #"{"a":[1]}"#),
        Case(
            name: "add inserts into an array", document: #"{"a":[1,3]}"#,
            patch: #"[{"op":"add","path":"/a/1","value":2}]"#, expected: #"{"a":[1,2,3]}"#),
        Case(
            name: "add at the array's end by index", document: #"{"a":[1]}"#,
            patch: #"[{"op":"add","path":"/a/1","value":2}]"#, expected: #"{"a":[1,2]}"#),
        Case(
            name: "add - appends", document: #"{"a":[1]}"#, patch: #"[{"op":"add","path":"/a/-","value":{"x":null}}]"#,
            expected: #"{"a":[1,{"x":null}]}"#),
        Case(
            name: "add null is a value", document: #"{}"#, patch: #"[{"op":"add","path":"/n","value":null}]"#,
            expected: #"{"n":null}"#),
        Case(
            name: "add the whole document", document: #"{"a":1}"#, patch: #"[{"op":"add","path":"","value":[true]}]"#,
            expected: #"[true]"#),
        Case(
            name: "escapes ~1 and ~0", document: #"{"a/b":{"c~d":1}}"#,
            patch: #"[{"op":"replace","path":"/a~1b/c~0d","value":2}]"#, expected: #"{"a/b":{"c~d":2}}"#),
        Case(
            name: "the empty member name", document: #"{"":{"":1}}"#,
            patch: #"[{"op":"replace","path":"//","value":5}]"#,
            expected: #"{"":{"":5}}"#),
        Case(
            name: "remove a member", document: #"{"a":1,"b":2}"#, patch: #"[{"op":"remove","path":"/a"}]"#,
            expected: #"{"b":2}"#),
        Case(
            name: "remove an element", document: #"{"a":[1,2,3]}"#, patch: #"[{"op":"remove","path":"/a/0"}]"#,
            expected: #"{"a":[2,3]}"#),
        Case(
            name: "replace deep", document: #"{"liveData":{"linescore":{"outs":1}}}"#,
            patch: #"[{"op":"replace","path":"/liveData/linescore/outs","value":2}]"#,
            expected: #"{"liveData":{"linescore":{"outs":2}}}"#),
        Case(
            name: "replace an element", document: #"[1,2]"#, patch: #"[{"op":"replace","path":"/1","value":"x"}]"#,
            expected: #"[1,"x"]"#),
        Case(
            name: "replace the whole document", document: #"{"a":1}"#,
            patch: #"[{"op":"replace","path":"","value":3}]"#,
            expected: "3"),
        Case(
            name: "move a member", document: #"{"a":{"b":1},"c":{}}"#,
            patch: #"[{"op":"move","from":"/a/b","path":"/c/d"}]"#,
            expected: #"{"a":{},"c":{"d":1}}"#),
        Case(
            name: "move an element within its array", document: #"[1,2,3,4]"#,
            patch: #"[{"op":"move","from":"/1","path":"/3"}]"#, expected: "[1,3,4,2]"),
        Case(
            name: "move onto itself", document: #"{"a":1}"#, patch: #"[{"op":"move","from":"/a","path":"/a"}]"#,
            expected: #"{"a":1}"#),
        Case(
            name: "copy a member", document: #"{"a":{"x":[1]}}"#, patch: #"[{"op":"copy","from":"/a","path":"/b"}]"#,
            expected: #"{"a":{"x":[1]},"b":{"x":[1]}}"#),
        Case(
            name: "copy into an array", document: #"{"a":[1,2]}"#,
            patch: #"[{"op":"copy","from":"/a/1","path":"/a/0"}]"#,
            expected: #"{"a":[2,1,2]}"#),
        Case(
            name: "test passes with members in another order", document: #"{"a":{"x":1,"y":[true,null]}}"#,
            patch: #"[{"op":"test","path":"/a","value":{"y":[true,null],"x":1}}]"#,
            expected: #"{"a":{"x":1,"y":[true,null]}}"#),
        Case(
            name: "test compares numbers by value", document: #"{"a":1}"#,
            patch: #"[{"op":"test","path":"/a","value":1.0}]"#,
            expected: #"{"a":1}"#),
        Case(
            name: "operations apply in order", document: #"{}"#,
            patch:
                #"[{"op":"add","path":"/a","value":[]},{"op":"add","path":"/a/-","value":1},{"op":"copy","from":"/a/0","path":"/a/-"},{"op":"test","path":"/a","value":[1,1]},{"op":"move","from":"/a","path":"/b"}]"#,
            expected: #"{"b":[1,1]}"#),
        Case(
            name: "extra members are ignored", document: #"{"a":1}"#,
            patch: #"[{"op":"remove","path":"/a","value":7,"comment":"x"}]"#, expected: "{}"),
    ]

    @Test("operations apply", arguments: applies)
    func apply(_ example: Case) throws {
        let patch = try JSONPatch(parsing: json(example.patch))
        let result = try patch.applied(to: json(example.document))
        #expect(result.serialized() == json(example.expected).serialized())
    }

    struct Failure: Sendable, CustomStringConvertible {
        var name: String
        var document: String
        var patch: String
        var code: JSONPatchError.Code
        var operation: Int?
        var description: String { name }
    }

    static let failures: [Failure] = [
        Failure(
            name: "add under a missing parent", document: #"{}"#, patch: #"[{"op":"add","path":"/a/b","value":1}]"#,
            code: .pathNotFound, operation: 0),
        Failure(
            name: "add beyond the array", document: #"[1]"#, patch: #"[{"op":"add","path":"/2","value":1}]"#,
            code: .invalidIndex, operation: 0),
        Failure(
            name: "leading zero index", document: #"[1,2]"#, patch: #"[{"op":"replace","path":"/01","value":1}]"#,
            code: .invalidIndex, operation: 0),
        Failure(
            name: "- for replace", document: #"[1]"#, patch: #"[{"op":"replace","path":"/-","value":1}]"#,
            code: .invalidIndex, operation: 0),
        Failure(
            name: "remove a missing member", document: #"{"a":1}"#, patch: #"[{"op":"remove","path":"/b"}]"#,
            code: .pathNotFound, operation: 0),
        Failure(
            name: "remove the whole document", document: #"{}"#, patch: #"[{"op":"remove","path":""}]"#,
            code: .invalidTarget, operation: 0),
        Failure(
            name: "replace a missing member", document: #"{}"#, patch: #"[{"op":"replace","path":"/a","value":1}]"#,
            code: .pathNotFound, operation: 0),
        Failure(
            name: "a member of a number", document: #"{"a":1}"#, patch: #"[{"op":"add","path":"/a/b","value":1}]"#,
            code: .pathNotFound, operation: 0),
        Failure(
            name: "move from a missing path", document: #"{}"#, patch: #"[{"op":"move","from":"/a","path":"/b"}]"#,
            code: .pathNotFound, operation: 0),
        Failure(
            name: "move into its own child", document: #"{"a":{"b":{}}}"#,
            patch: #"[{"op":"move","from":"/a","path":"/a/b/c"}]"#, code: .invalidTarget, operation: 0),
        Failure(
            name: "copy from a missing path", document: #"{}"#, patch: #"[{"op":"copy","from":"/x","path":"/y"}]"#,
            code: .pathNotFound, operation: 0),
        Failure(
            name: "test of another value", document: #"{"a":[1,2]}"#,
            patch: #"[{"op":"test","path":"/a","value":[2,1]}]"#,
            code: .testFailed, operation: 0),
        Failure(
            name: "test string against number", document: #"{"a":"1"}"#,
            patch: #"[{"op":"test","path":"/a","value":1}]"#,
            code: .testFailed, operation: 0),
        Failure(
            name: "test of a missing path", document: #"{}"#, patch: #"[{"op":"test","path":"/a","value":null}]"#,
            code: .pathNotFound, operation: 0),
        Failure(
            name: "a later operation fails", document: #"{"a":1}"#,
            patch: #"[{"op":"replace","path":"/a","value":2},{"op":"remove","path":"/zz"}]"#, code: .pathNotFound,
            operation: 1),
    ]

    @Test("failing operations fail the whole patch and leave the document untouched", arguments: failures)
    func fail(_ example: Failure) throws {
        let patch = try JSONPatch(parsing: json(example.patch))
        var document = json(example.document)
        let before = document
        let error = #expect(throws: JSONPatchError.self) { try patch.apply(to: &document) }
        #expect(error?.code == example.code)
        #expect(error?.operation == example.operation)
        #expect(document == before)
    }

    static let unreadable: [(String, JSONPatchError.Code)] = [
        (#"{"op":"add"}"#, .invalidPatch),
        (#"[1]"#, .invalidPatch),
        (#"[{"path":"/a"}]"#, .invalidPatch),
        (#"[{"op":"frobnicate","path":"/a"}]"#, .invalidPatch),
        (#"[{"op":"add","path":"/a"}]"#, .invalidPatch),
        (#"[{"op":"replace","path":"/a"}]"#, .invalidPatch),
        (#"[{"op":"test","path":"/a"}]"#, .invalidPatch),
        (#"[{"op":"move","path":"/a"}]"#, .invalidPatch),
        (#"[{"op":"copy","from":1,"path":"/a"}]"#, .invalidPatch),
        (#"[{"op":"remove","path":"a"}]"#, .invalidPointer),
        (#"[{"op":"remove","path":"/a~2"}]"#, .invalidPointer),
        (#"[{"op":"remove","path":"/a~"}]"#, .invalidPointer),
    ]

    @Test("patch documents that are not patches are refused", arguments: unreadable)
    func unreadablePatch(_ text: String, _ code: JSONPatchError.Code) {
        let error = #expect(throws: JSONPatchError.self) { try JSONPatch(parsing: json(text)) }
        #expect(error?.code == code)
    }

    @Test("pointers parse, print and resolve")
    func pointers() throws {
        let pointer = try JSONPointer(parsing: "/a~1b/~0/0")
        #expect(pointer.tokens == ["a/b", "~", "0"])
        #expect(pointer.description == "/a~1b/~0/0")
        #expect(try JSONPointer(parsing: "").tokens == [])
        #expect(try JSONPointer(parsing: "/").tokens == [""])
        #expect(try JSONPointer(parsing: "/~01").tokens == ["~1"])
        let document = json(#"{"a/b":{"~":[7]}}"#)
        #expect(pointer.resolve(in: document) == .int(7))
        #expect(try JSONPointer(parsing: "/a~1b/~0/1").resolve(in: document) == nil)
        #expect(try JSONPointer(parsing: "/a").isProperPrefix(of: JSONPointer(parsing: "/a/b")))
        #expect(try !JSONPointer(parsing: "/a").isProperPrefix(of: JSONPointer(parsing: "/a")))
    }

    @Test("a large document is patched in place without losing untouched parts")
    func largeDocument() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture("mlb/full-game/13-final.json")))
        let document = try JSONValue.parse(data)
        let patch = try JSONPatch(
            parsing: json(
                #"[{"op":"test","path":"/metaData/timeStamp","value":"20260402_021500"},{"op":"replace","path":"/metaData/timeStamp","value":"20260402_030000"},{"op":"copy","from":"/liveData/plays/allPlays/3","path":"/liveData/plays/allPlays/-"},{"op":"move","from":"/liveData/plays/allPlays/0","path":"/liveData/plays/currentPlay"}]"#
            ))
        let patched = try patch.applied(to: document)
        let snapshot = try MLBSnapshot(json: patched)
        #expect(snapshot.timecode.text == "20260402_030000")
        #expect(snapshot.awayRuns == 3)
        #expect(snapshot.homeRuns == 5)
        #expect(try MLBSnapshot(json: document).timecode.text == "20260402_021500")
    }

    @Test("limits against a hostile provider: pointer length, operation count, nesting depth")
    func limits() throws {
        let long = String(repeating: "/a", count: JSONPointer.maximumTokens + 1)
        #expect(throws: JSONPatchError.self) { try JSONPointer(parsing: long) }
        #expect(try JSONPointer(parsing: String(repeating: "/a", count: JSONPointer.maximumTokens)).tokens.count == 256)
        let many =
            "["
            + Array(repeating: #"{"op":"test","path":"","value":{}}"#, count: JSONPatch.maximumOperations + 1)
            .joined(separator: ",") + "]"
        let tooMany = #expect(throws: JSONPatchError.self) { try JSONPatch(parsing: json(many)) }
        #expect(tooMany?.code == .tooLarge)
        // Copying a subtree into itself again and again would nest without end: refused, document untouched.
        let deep = String(repeating: "/x", count: 200)
        var operations = [#"{"op":"add","path":"/x","value":{}}"#]
        var path = ""
        for _ in 0..<199 {
            path += "/x"
            operations.append(#"{"op":"add","path":"\#(path)/x","value":{}}"#)
        }
        operations += Array(repeating: #"{"op":"copy","from":"","path":"\#(deep)/y"}"#, count: 3)
        let patch = try JSONPatch(parsing: json("[" + operations.joined(separator: ",") + "]"))
        var document = json("{}")
        let error = #expect(throws: JSONPatchError.self) { try patch.apply(to: &document) }
        #expect(error?.code == .tooLarge)
        #expect(document == json("{}"))
    }
}
