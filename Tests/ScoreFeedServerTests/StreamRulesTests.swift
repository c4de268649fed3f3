import NIOCore
import Testing

@testable import ScoreFeedServer

@Suite("live stream rules")
struct StreamRulesTests {
    typealias Verdict = StreamLimits.Verdict

    static var limits: StreamLimits {
        var limits = StreamLimits()
        limits.queue = 100
        limits.writeTimeout = .seconds(20)
        limits.pageBytes = 1000
        return limits
    }

    @Test(
        "a client is ended only while a write waits: past its queue, or past the write deadline",
        arguments: [
            (0, nil, Verdict.keep),
            (5000, nil, .keep),
            (100, .seconds(1), .keep),
            (101, .seconds(1), .tooSlow(behind: 101)),
            (0, .seconds(19), .keep),
            (0, .seconds(20), .notReading(waited: .seconds(20))),
            (5000, .seconds(25), .notReading(waited: .seconds(25))),
        ] as [(Int, Duration?, Verdict)])
    func verdict(behind: Int, writing: Duration?, expected: Verdict) {
        #expect(Self.limits.verdict(behind: behind, writing: writing) == expected)
    }

    @Test("the last line says why, as an SSE comment")
    func comments() {
        #expect(StreamLimits.comment(.keep) == nil)
        #expect(
            StreamLimits.comment(.tooSlow(behind: 1234))
                == ": too slow: 1234 changes behind; reconnect with Last-Event-ID\n\n")
        #expect(
            StreamLimits.comment(.notReading(waited: .milliseconds(20_500)))
                == ": not reading: a write waited 20 s; reconnect with Last-Event-ID\n\n")
    }

    @Test(
        "a page holds as many events as fit, at least one",
        arguments: [
            ([], 0), ([10], 1), ([5000], 1), ([5000, 10], 1), ([400, 600, 1], 2), ([400, 601], 1),
            ([100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100], 10),
        ] as [([Int], Int)])
    func pages(sizes: [Int], count: Int) {
        #expect(Self.limits.pageCount(sizes) == count)
    }

    @Test("an event is the position, the type and the state")
    func event() {
        #expect(
            String(buffer: StreamLimits.event(position: 42, data: #"{"a":1}"#))
                == "id: 42\nevent: state\ndata: {\"a\":1}\n\n")
    }

    @Test("SCOREFEED_MAX_STREAM_CLIENTS: 1000 by default, 1 to 100000, else refused at start")
    func maxClientsSetting() throws {
        #expect(try ServerConfiguration.fromEnvironment([:]).streams.maxClients == 1000)
        let set = try ServerConfiguration.fromEnvironment(["SCOREFEED_MAX_STREAM_CLIENTS": "250"])
        #expect(set.streams.maxClients == 250)
        for bad in ["0", "100001", "many", "-5"] {
            #expect(throws: ConfigurationError.self) {
                try ServerConfiguration.fromEnvironment(["SCOREFEED_MAX_STREAM_CLIENTS": bad])
            }
        }
    }
}
