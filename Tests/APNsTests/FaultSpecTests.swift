import APNsSandbox
import Testing

@Suite("Fault descriptions")
struct FaultSpecTests {
    @Test(arguments: [
        ("429:TooManyRequests", ScriptedFault(.tooManyRequests)),
        ("500:InternalServerError*3", ScriptedFault(.internalServerError, count: 3)),
        ("503:ServiceUnavailable@ABCDEF", ScriptedFault(.serviceUnavailable, token: "abcdef")),
        (
            "410:Unregistered:1700000000000*2@ab",
            ScriptedFault(.unregistered(timestamp: 1_700_000_000_000), count: 2, token: "ab")
        ),
        ("delay:250ms", ScriptedFault(.delay(.milliseconds(250)))),
        ("delay:1.5s*4", ScriptedFault(.delay(.milliseconds(1500)), count: 4)),
        ("drop", ScriptedFault(.dropConnection)),
        (" drop@00ff ", ScriptedFault(.dropConnection, token: "00ff")),
    ])
    func parses(text: String, expected: ScriptedFault) throws {
        let parsed = try ScriptedFault(parsing: text)
        #expect(parsed == expected)
        #expect(try ScriptedFault(parsing: parsed.description) == expected)
    }

    @Test(arguments: [
        "", "429", "429:", "abc:Reason", "99:Reason", "600:Reason", "delay", "delay:soon", "delay:-1s", "drop:now",
        "drop*0", "drop*x", "drop@", "410:Unregistered:yesterday",
    ])
    func rejects(text: String) {
        let error = #expect(throws: APNsSandboxError.self) { try ScriptedFault(parsing: text) }
        #expect(error?.code == .invalidFaultSpec)
    }
}
