import Testing

@testable import ScoreFeedServer

@Suite("metric labels")
struct MetricLabelTests {
    @Test(
        "a push's reason label is its code, never the free text after it",
        arguments: [
            (nil, ""), ("BadDeviceToken", "BadDeviceToken"), ("UNREGISTERED", "UNREGISTERED"),
            ("transport: connectionClosed: the connection to 10.0.0.7:443 closed", "transport"),
            ("not sent: no access token: token endpoint answered HTTP 503", "not sent"),
            ("oauth: token endpoint answered HTTP 400: invalid_grant: Invalid JWT Signature.", "oauth"),
            (String(repeating: "X", count: 100), String(repeating: "X", count: 40)),
        ] as [(String?, String)])
    func reasonLabel(_ reason: String?, _ label: String) {
        #expect(ServerMetrics.reasonLabel(reason) == label)
    }
}
