import Testing

@testable import FCMSandbox

@Suite("Fault specs")
struct FaultSpecTests {
    static let good: [(String, FCMScriptedFault)] = [
        ("404:UNREGISTERED", FCMScriptedFault(.unregistered)),
        ("403:SENDER_ID_MISMATCH", FCMScriptedFault(.senderIdMismatch)),
        ("429:QUOTA_EXCEEDED:30*3", FCMScriptedFault(.quotaExceeded(retryAfter: 30), count: 3)),
        ("429:QUOTA_EXCEEDED", FCMScriptedFault(.quotaExceeded(retryAfter: nil))),
        ("503:UNAVAILABLE@dXyz:APA91bH", FCMScriptedFault(.unavailable, token: "dXyz:APA91bH")),
        ("UNAVAILABLE*2", FCMScriptedFault(.unavailable, count: 2)),
        ("THIRD_PARTY_AUTH_ERROR", FCMScriptedFault(.thirdPartyAuthError)),
        ("500:INTERNAL", FCMScriptedFault(.internalError)),
        ("502:BAD_GATEWAY", FCMScriptedFault(.error(status: 502, code: "BAD_GATEWAY", retryAfter: nil))),
        ("delay:250ms", FCMScriptedFault(.delay(.milliseconds(250)))),
        ("delay:1.5s*2", FCMScriptedFault(.delay(.milliseconds(1500)), count: 2)),
        ("drop", FCMScriptedFault(.drop)),
        ("drop@tok1", FCMScriptedFault(.drop, token: "tok1")),
        ("oauth:invalid_grant", FCMScriptedFault(.refuseToken)),
        ("oauth:invalid_grant*4", FCMScriptedFault(.refuseToken, count: 4)),
        ("  400:INVALID_ARGUMENT  ", FCMScriptedFault(.invalidArgument)),
    ]

    @Test("good specs parse", arguments: good)
    func parses(text: String, expected: FCMScriptedFault) throws {
        #expect(try FCMScriptedFault(parsing: text) == expected)
    }

    static let roundTrips = [
        "404:UNREGISTERED", "429:QUOTA_EXCEEDED:30*3", "503:UNAVAILABLE@dXyz:APA91bH", "delay:250ms", "drop",
        "oauth:invalid_grant*2",
    ]

    @Test("the description reads back", arguments: roundTrips)
    func roundTrip(text: String) throws {
        #expect(try FCMScriptedFault(parsing: text).description == text)
    }

    static let bad: [(String, String)] = [
        ("", "fault '': empty"),
        ("404", "fault '404': expected STATUS:ERROR_CODE[:RETRY_AFTER], delay:DURATION, drop or oauth:invalid_grant"),
        ("200:OK", "fault '200:OK': status '200' is not an HTTP error status (400-599)"),
        ("abc:UNREGISTERED", "fault 'abc:UNREGISTERED': status 'abc' is not an HTTP error status (400-599)"),
        (
            "404:unregistered",
            "fault '404:unregistered': error code 'unregistered' is not like UNREGISTERED (capitals, digits, '_')"
        ),
        ("404:", "fault '404:': error code '' is not like UNREGISTERED (capitals, digits, '_')"),
        (
            "429:QUOTA_EXCEEDED:soon",
            "fault '429:QUOTA_EXCEEDED:soon': retry-after 'soon' is not a whole number of seconds"
        ),
        ("404:UNREGISTERED*0", "fault '404:UNREGISTERED*0': count '0' after '*' is not a positive integer"),
        ("404:UNREGISTERED*x", "fault '404:UNREGISTERED*x': count 'x' after '*' is not a positive integer"),
        ("404:UNREGISTERED@", "fault '404:UNREGISTERED@': no token after '@'"),
        ("delay:fast", "fault 'delay:fast': duration 'fast' is not like 250ms or 1.5s (at most a day)"),
        ("delay", "fault 'delay': expected delay:DURATION such as delay:250ms"),
        ("drop:now", "fault 'drop:now': 'drop' takes no ':' arguments"),
        ("oauth:expired", "fault 'oauth:expired': the only token endpoint fault is oauth:invalid_grant"),
        (
            "oauth:invalid_grant@tok",
            "fault 'oauth:invalid_grant@tok': oauth:invalid_grant applies to the token endpoint and cannot be limited to a token"
        ),
    ]

    @Test("bad specs name what is wrong", arguments: bad)
    func refuses(text: String, message: String) {
        #expect(throws: FCMSandboxError(.invalidFaultSpec, message)) { try FCMScriptedFault(parsing: text) }
    }

    @Test("faults are consumed in order, token-scoped ones only by their token")
    func queue() {
        var queue = FaultQueue([
            FCMScriptedFault(.unregistered, token: "b"), FCMScriptedFault(.unavailable, count: 2),
            FCMScriptedFault(.refuseToken),
        ])
        #expect(queue.takeMessageFault(device: "a") == .unavailable)
        #expect(queue.takeMessageFault(device: "b") == .unregistered)
        #expect(queue.takeMessageFault(device: "b") == .unavailable)
        #expect(queue.takeMessageFault(device: nil) == nil)
        #expect(queue.takeTokenFault() == true)
        #expect(queue.takeTokenFault() == false)
        #expect(queue.pending == [])
    }
}
