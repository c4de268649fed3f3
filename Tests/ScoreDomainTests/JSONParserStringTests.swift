import Foundation
import Testing

@testable import ScoreDomain

/// The parser's strings and keys, read eight bytes at a time where it can: every kind of byte that
/// ends the fast scan (quote, backslash, control character, non-ASCII) at every offset around a word.
@Suite("JSONParser: strings and keys at every offset")
struct JSONParserStringTests {
    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONValue.parse(Data(text.utf8))
    }

    @Test("escapes, non-ASCII text and long keys read the same at every offset")
    func texts() throws {
        for offset in 0..<20 {
            let pad = String(repeating: "a", count: offset)
            let cases: [(json: String, text: String)] = [
                (#""\#(pad)""#, pad),
                (#""\#(pad)\n\"x\\y""#, pad + "\n\"x\\y"),
                (#""\#(pad)é€😀z""#, pad + "é€😀z"),
                (#""\#(pad)\u00e9\ud83d\ude00""#, pad + "é😀"),
                (#""é\#(pad)""#, "é" + pad),
            ]
            for (json, text) in cases {
                #expect(try Self.parse(json) == .string(text), "\(json)")
                #expect(try Self.parse("{\(json):1}") == .object([text: .int(1)]), "key \(json)")
            }
        }
    }

    @Test("a control character, invalid UTF-8 or a missing quote is refused at every offset")
    func refusals() {
        for offset in 0..<20 {
            let pad = Array(String(repeating: "a", count: offset).utf8)
            for prefix in [Array("\"".utf8), Array("{\"".utf8)] {
                let control = prefix + pad + [0x0A] + Array("b\"".utf8)
                #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data(control)) }
                let invalid = prefix + pad + [0xC3, 0x28] + Array("\"".utf8)
                #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data(invalid)) }
                let open = prefix + pad
                #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data(open)) }
            }
        }
    }

    @Test("a long key recurring in many objects is read the same each time")
    func longKeys() throws {
        let json =
            "["
            + (0..<50).map { #"{"homeTeamDefendingSide":\#($0),"homeTeamDefendingSidf":1}"# }.joined(
                separator: ",") + "]"
        guard case .array(let objects) = try Self.parse(json) else { throw JSONSyntaxError(message: "", column: 0) }
        for (index, object) in objects.enumerated() {
            #expect(object == .object(["homeTeamDefendingSide": .int(index), "homeTeamDefendingSidf": .int(1)]))
        }
        #expect(throws: JSONSyntaxError.self) {
            try Self.parse(#"{"homeTeamDefendingSide":1,"homeTeamDefendingSide":2}"#)
        }
    }

    @Test("thousands of distinct keys, in a small and a large document: each read back as written")
    func manyKeys() throws {
        for count in [40, 3_000] {  // a table of 64 slots, then one of 1,024 probed full and replaced
            let names = (0..<count).map { "key\($0)" + String(repeating: "x", count: $0 % 20) }
            let object = names.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",")
            let text =
                "[{\(object)},{\(object)},{\(names.reversed().enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ","))}]"
            guard case .array(let objects) = try Self.parse(text), objects.count == 3 else {
                Issue.record("not three objects")
                continue
            }
            for (position, name) in names.enumerated() {
                guard case .object(let first) = objects[0], case .object(let last) = objects[2] else { continue }
                #expect(first[name] == .int(position))
                #expect(last[name] == .int(count - 1 - position))
            }
            #expect(objects[0] == objects[1])
        }
    }
}
