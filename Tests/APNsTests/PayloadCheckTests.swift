import Foundation
import Testing

@testable import APNsSandbox

/// The payload check: a whole, strict JSON document whose top level is an object with an `aps` object.
@Suite("Payload check")
struct PayloadCheckTests {
    static let accepted: [String] = [
        #"{"aps":{}}"#,
        #"{"aps":{"alert":"x"}}"#,
        " \t\r\n{ \"aps\" : { } } \n",
        "\u{FEFF}{\"aps\":{}}",
        #"{"a":1,"aps":{"b":[1,2,{"c":null}]},"z":true}"#,
        #"{"aps":{"n":[0,-0,1,-1,10,1.5,-0.25,1e3,1E+3,1e-3,-1.0E-0,123456789012345678901234567890]}}"#,
        #"{"aps":{"l":[true,false,null]}}"#,
        #"{"aps":{"s":"\"\\\/\b\f\n\r\t\u00e9\u0000\uD83D\uDE00"}}"#,
        "{\"aps\":{\"s\":\"é 😀 \u{7F}\"}}",
        #"{"\u0061ps":{}}"#,
        #"{"aps":1,"aps":{}}"#,
        #"{"aps":{"a":{"b":{"c":{"d":[[[[]]]]}}}}}"#,
        #"{"aps":{},"x":{"aps":1}}"#,
        #"{"x":"aps","aps":{}}"#,
        #"{"aps":{"":""}}"#,
        #"{"aps":{"deep":"#
            + String(repeating: "[", count: 509) + String(repeating: "]", count: 509) + "}}",
    ]

    static let rejected: [String] = [
        "",
        " ",
        "hello",
        "null",
        "[]",
        #"[{"aps":{}}]"#,
        #""aps""#,
        "{}",
        #"{"alert":"x"}"#,
        #"{"aps":1}"#,
        #"{"aps":null}"#,
        #"{"aps":[]}"#,
        #"{"aps":"{}"}"#,
        #"{"aps":{},"aps":1}"#,
        #"{"APS":{}}"#,
        #"{"aps ":{}}"#,
        #"{"ap":{}}"#,
        #"{"apss":{}}"#,
        #"{"x":{"aps":{}}}"#,
        #"{"aps":{}"#,
        #"{"aps":{}}}"#,
        #"{"aps":{}} x"#,
        #"{"aps":{}}{}"#,
        "{\"aps\":{}}\u{0}",
        #"{"aps":{},}"#,
        #"{"aps":{"a":[1,2,]}}"#,
        #"{"aps":{"a":[,1]}}"#,
        #"{"aps":{"a":1,,"b":2}}"#,
        #"{"aps" {}}"#,
        #"{"aps":{"a"}}"#,
        #"{"aps":{"a":}}"#,
        #"{aps:{}}"#,
        #"{'aps':{}}"#,
        #"{"aps":{"a":01}}"#,
        #"{"aps":{"a":-}}"#,
        #"{"aps":{"a":1.}}"#,
        #"{"aps":{"a":.5}}"#,
        #"{"aps":{"a":+1}}"#,
        #"{"aps":{"a":1e}}"#,
        #"{"aps":{"a":1e+}}"#,
        #"{"aps":{"a":0x10}}"#,
        #"{"aps":{"a":NaN}}"#,
        #"{"aps":{"a":Infinity}}"#,
        #"{"aps":{"a":tru}}"#,
        #"{"aps":{"a":nul}}"#,
        #"{"aps":{"a":True}}"#,
        #"{"aps":{"a":"x}}"#,
        #"{"aps":{"a":"\x"}}"#,
        #"{"aps":{"a":"\u12"}}"#,
        #"{"aps":{"a":"\u00zz"}}"#,
        #"{"aps":{"a":"\uD800"}}"#,
        #"{"aps":{"a":"\uDC00"}}"#,
        #"{"aps":{"a":"\uD800\u0041"}}"#,
        "{\"aps\":{\"a\":\"\u{1}\"}}",
        "{\"aps\":{\"a\":\"line\nbreak\"}}",
        "{\"aps\":{\"a\":\"tab\there\"}}",
        #"{"aps":{"a":1}}//"#,
        #"{"aps":{"deep":"#
            + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}}",
    ]

    static let invalidUTF8: [[UInt8]] = [
        Array(#"{"aps":{"a":""#.utf8) + [0xFF] + Array(#""}}"#.utf8),
        Array(#"{"aps":{"a":""#.utf8) + [0xC3] + Array(#""}}"#.utf8),  // truncated
        Array(#"{"aps":{"a":""#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8),  // overlong
        Array(#"{"aps":{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8),  // surrogate
        Array(#"{"aps":{"a":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}}"#.utf8),  // above U+10FFFF
        Array(#"{"aps":{}}"#.utf8) + [0xC2, 0xA0],  // no-break space is not JSON whitespace
    ]

    @Test(arguments: accepted)
    func accepts(_ payload: String) {
        #expect(PayloadCheck.hasApsObject(Array(payload.utf8)))
    }

    @Test(arguments: rejected)
    func rejects(_ payload: String) {
        #expect(!PayloadCheck.hasApsObject(Array(payload.utf8)))
    }

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8(_ payload: [UInt8]) {
        #expect(!PayloadCheck.hasApsObject(payload))
    }

    /// Where Foundation's parser is strict JSON too, both agree (it allows trailing commas, and rejects
    /// numbers beyond `Double`, so those are left out).
    @Test func agreesWithFoundation() {
        for payload in Self.accepted + Self.rejected where !payload.contains(",]") && !payload.contains(",}") {
            let foundation =
                (try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
                .map { $0["aps"] is [String: Any] } ?? false
            #expect(PayloadCheck.hasApsObject(Array(payload.utf8)) == foundation, "\(payload)")
        }
    }

    @Test(arguments: [
        ("00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"),
        ("0A1B2C3D-4E5F-6A7B-8C9D-0E1F2A3B4C5D", "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d"),
        ("0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d", "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d"),
    ])
    func uuid(_ text: String, lowercased: String) {
        #expect(SandboxRequest.lowercaseUUID(text) == lowercased)
        #expect(UUID(uuidString: text)?.uuidString.lowercased() == lowercased)
    }

    @Test(arguments: [
        "", "not-a-uuid", "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d", "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5",
        "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d0", "0a1b2c3d-4e5f-6a7b-8c9d_0e1f2a3b4c5d",
        "0a1b2c3-d4e5f-6a7b-8c9d-0e1f2a3b4c5d", "0a1b2c3g-4e5f-6a7b-8c9d-0e1f2a3b4c5d",
        "{0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d}",
    ])
    func notUUID(_ text: String) {
        #expect(SandboxRequest.lowercaseUUID(text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }

    @Test(
        arguments: [
            ("Unregistered", nil, #"{"reason":"Unregistered"}"#),
            ("Unregistered", 1_700_000_000_000, #"{"reason":"Unregistered","timestamp":1700000000000}"#),
            ("a/b\"c\\d\n\u{1}é", nil, #"{"reason":"a\/b\"c\\d\n\u0001é"}"#),
        ] as [(String, Int64?, String)])
    func errorBody(reason: String, timestamp: Int64?, json: String) {
        #expect(ErrorBody.json(reason: reason, timestamp: timestamp) == json)
    }
}
