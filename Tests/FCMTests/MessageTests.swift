import FCM
import ScoreDomain
import Testing

@Suite("Message bodies")
struct MessageTests {
    static let aps =
        #"{"aps": {"timestamp":1700000000,"event":"update","content-state":{"inning":"Top 4th ⚾︎","home":2},"# + "\n"
        + #"  "stale-date":1700000900}}"#

    static let liveActivityCases: [(FCMAddress, String, Int, Int, String)] = [
        (
            .token("fcm-token-1"), "la-token-1", 5, 1_700_000_900,
            #"{"message":{"token":"fcm-token-1","apns":{"headers":{"apns-expiration":"1700000900","apns-priority":"5"},"#
                + #""live_activity_token":"la-token-1","payload":"# + aps + "}}}"
        ),
        (
            .fid("fid-1"), "la-token-2", 10, 0,
            #"{"message":{"fid":"fid-1","apns":{"headers":{"apns-expiration":"0","apns-priority":"10"},"#
                + #""live_activity_token":"la-token-2","payload":"# + aps + "}}}"
        ),
        (
            .token("a\"b\\c"), "la\n", 1, 42,
            #"{"message":{"token":"a\"b\\c","apns":{"headers":{"apns-expiration":"42","apns-priority":"5"},"#
                + #""live_activity_token":"la\n","payload":"# + aps + "}}}"
        ),
    ]

    @Test(arguments: liveActivityCases.indices)
    func liveActivity(_ index: Int) {
        let (target, token, priority, expiration, expected) = Self.liveActivityCases[index]
        let body = FCMMessage.liveActivity(
            target: target, liveActivityToken: token, priority: priority, expiration: expiration, apsPayload: Self.aps)
        #expect(body == expected)
        // The payload is embedded byte for byte.
        #expect(Array(body.utf8).firstRange(of: Array(Self.aps.utf8)) != nil)
    }

    static let data = #"{"seq":"17","state":"{\"home\":2,\"away\":3}","chip":"4-5 B11"}"#

    @Test(arguments: [
        (
            FCMAddress.token("fcm-token-1"), 60,
            #"{"message":{"token":"fcm-token-1","android":{"priority":"high","ttl":"60s"},"data":"# + data + "}}"
        ),
        (
            .fid("fid-1"), 0,
            #"{"message":{"fid":"fid-1","android":{"priority":"high","ttl":"0s"},"data":"# + data + "}}"
        ),
        (
            .fid("fid-1"), -5,
            #"{"message":{"fid":"fid-1","android":{"priority":"high","ttl":"0s"},"data":"# + data + "}}"
        ),
        (
            .token("t"), 10_000_000,
            #"{"message":{"token":"t","android":{"priority":"high","ttl":"2419200s"},"data":"# + data + "}}"
        ),
    ])
    func androidData(_ target: FCMAddress, _ ttl: Int, _ expected: String) {
        let body = FCMMessage.data(target: target, dataJSON: Self.data, ttlSeconds: ttl)
        #expect(body == expected)
        #expect(!body.contains("collapse_key"))
    }
}
