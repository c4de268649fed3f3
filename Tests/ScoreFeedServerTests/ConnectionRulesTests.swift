import Hummingbird
import NIOCore
import NIOEmbedded
import ScoreFeedTesting
import Testing

@testable import ScoreFeedServer

/// A time `ms` milliseconds after the clock's origin.
private func at(_ ms: Int64) -> NIODeadline { .uptimeNanoseconds(UInt64(ms) * 1_000_000) }

/// One case of ``ConnectionTimeouts``: events at times (ms) with the action each must give, then the
/// deadline (ms and reason) and what the connection waits for (`nil`: busy, or closing).
struct TimeoutScript: Sendable, CustomTestStringConvertible {
    var name: String
    var steps: [(Int64, ConnectionTimeouts.Event, ConnectionTimeouts.Action)]
    var deadline: (Int64, ConnectionTimeouts.Reason)?
    var waiting: ConnectionTimeouts.Waiting?
    var testDescription: String { name }
}

private let get: [(Int64, ConnectionTimeouts.Event, ConnectionTimeouts.Action)] = [
    (1100, .bytes, .proceed), (1100, .requestHead, .proceed), (1100, .requestEnd, .proceed),
    (1100, .readRequested, .proceed),
]

private let answered: [(Int64, ConnectionTimeouts.Event, ConnectionTimeouts.Action)] =
    get + [(1400, .responseHead(closes: false), .proceed), (1500, .responseEnd, .proceed)]

@Suite("connection rules")
struct ConnectionRulesTests {
    // Opened at 1000 ms; header 5 s, idle 30 s, body 10 s, linger 2 s.
    static let limits = ConnectionTimeouts.Limits(
        header: .seconds(5), idle: .seconds(30), body: .seconds(10), linger: .seconds(2))

    static let scripts: [TimeoutScript] = [
        TimeoutScript(
            name: "a silent new connection is closed at the header timeout",
            steps: [(5999, .timer, .proceed), (6000, .timer, .close(.headerTimeout))], deadline: nil, waiting: nil),
        TimeoutScript(
            name: "a slowloris's trickle does not move the header deadline of the first request",
            steps: [
                (2000, .bytes, .proceed), (3000, .bytes, .proceed), (3000, .readRequested, .proceed),
                (5000, .bytes, .proceed), (6000, .timer, .close(.headerTimeout)),
            ], deadline: nil, waiting: nil),
        TimeoutScript(
            name: "no timeout while the handler runs", steps: get + [(900_000, .timer, .proceed)], deadline: nil,
            waiting: nil),
        TimeoutScript(
            name: "a live stream's long response is never cut",
            steps: get + [(1200, .responseHead(closes: false), .proceed), (3_600_000, .timer, .proceed)],
            deadline: nil, waiting: nil),
        TimeoutScript(
            name: "a keep-alive connection waits the idle timeout after its response",
            steps: answered + [(31_499, .timer, .proceed)], deadline: (31_500, .idleTimeout),
            waiting: .nextRequest),
        TimeoutScript(
            name: "a silent keep-alive connection is closed",
            steps: answered + [(31_500, .timer, .close(.idleTimeout))], deadline: nil, waiting: nil),
        TimeoutScript(
            name: "the next request's headers are due a header timeout after its first byte",
            steps: answered + [(10_000, .bytes, .proceed), (12_000, .bytes, .proceed)],
            deadline: (15_000, .headerTimeout), waiting: .request),
        TimeoutScript(
            name: "a request read in full starts no clock",
            steps: answered + [(10_000, .bytes, .proceed), (10_000, .requestHead, .proceed)], deadline: nil,
            waiting: nil),
        TimeoutScript(
            name: "a body the server asks for must keep arriving",
            steps: [
                (1100, .bytes, .proceed), (1100, .requestHead, .proceed), (1100, .readRequested, .proceed),
                (5000, .bytes, .proceed), (5000, .readRequested, .proceed), (14_999, .timer, .proceed),
            ], deadline: (15_000, .bodyTimeout), waiting: nil),
        TimeoutScript(
            name: "a body that stops arriving is closed",
            steps: [
                (1100, .bytes, .proceed), (1100, .requestHead, .proceed), (1100, .readRequested, .proceed),
                (11_100, .timer, .close(.bodyTimeout)),
            ], deadline: nil, waiting: nil),
        TimeoutScript(
            name: "a body the handler is not reading (back-pressure) starts no clock",
            steps: [
                (1100, .bytes, .proceed), (1100, .requestHead, .proceed), (1100, .readRequested, .proceed),
                (1200, .bytes, .proceed), (60_000, .timer, .proceed),
            ], deadline: nil, waiting: nil),
        TimeoutScript(
            name: "a Connection: close answer closes the output, then drains the input for the linger",
            steps: [
                (1100, .bytes, .proceed), (1100, .requestHead, .proceed), (1100, .readRequested, .proceed),
                (1200, .responseHead(closes: true), .proceed), (1300, .responseEnd, .closeOutput),
                (1400, .bytes, .discard), (1400, .readRequested, .proceed),
            ], deadline: (3300, .lingerEnded), waiting: nil),
        TimeoutScript(
            name: "the drain ends when the client closes its side",
            steps: [
                (1100, .bytes, .proceed), (1100, .requestHead, .proceed),
                (1200, .responseHead(closes: true), .proceed), (1300, .responseEnd, .closeOutput),
                (1400, .inputEnded, .close(.lingerEnded)), (1500, .bytes, .discard),
            ], deadline: nil, waiting: nil),
        TimeoutScript(
            name: "the drain ends at the linger",
            steps: [
                (1100, .bytes, .proceed), (1100, .requestHead, .proceed),
                (1200, .responseHead(closes: true), .proceed), (1300, .responseEnd, .closeOutput),
                (3300, .timer, .close(.lingerEnded)),
            ], deadline: nil, waiting: nil),
        TimeoutScript(
            name: "a client that closes its side before its headers are complete is closed at once",
            steps: [(1100, .bytes, .proceed), (1200, .inputEnded, .close(.clientLeft))], deadline: nil,
            waiting: nil),
        TimeoutScript(
            name: "a client that closes its side after its request still gets its answer",
            steps: get + [(1200, .inputEnded, .proceed)], deadline: nil, waiting: nil),
        TimeoutScript(
            name: "a pipelined request waits for the one before it",
            steps: get + [
                (1200, .bytes, .proceed), (1200, .requestHead, .proceed), (1200, .requestEnd, .proceed),
                (1300, .responseEnd, .proceed), (90_000, .timer, .proceed), (90_000, .responseEnd, .proceed),
            ], deadline: (120_000, .idleTimeout), waiting: .nextRequest),
    ]

    @Test("which timeout applies, and when", arguments: scripts)
    func timeouts(_ script: TimeoutScript) {
        var machine = ConnectionTimeouts(limits: Self.limits, openedAt: at(1000))
        for (ms, event, expected) in script.steps {
            #expect(machine.receive(event, at: at(ms)) == expected, "at \(ms) ms: \(event)")
        }
        #expect(machine.deadline?.at == script.deadline.map { at($0.0) })
        #expect(machine.deadline?.reason == script.deadline?.1)
        #expect(machine.waiting == script.waiting)
    }

    @Test("a new connection waits for its request, with its header deadline")
    func newConnection() {
        let machine = ConnectionTimeouts(limits: Self.limits, openedAt: at(1000))
        #expect(machine.deadline?.at == at(6000))
        #expect(machine.deadline?.reason == .headerTimeout)
        #expect(machine.waiting == .request)
    }

    @Test("at the cap, the half-open connection waiting longest is closed; a busy one is passed over")
    func evictsOldestWaiting() {
        var table = ConnectionTable(capacity: 3)
        #expect(table.admit(1, at: at(0)) == (.admit, nil))
        #expect(table.admit(2, at: at(0)) == (.admit, nil))
        #expect(table.admit(3, at: at(0)) == (.admit, nil))
        #expect(table.admit(4, at: at(0)) == (.admitEvicting(1), .init(evicted: 1, refused: 0)))
        table.waiting(2, nil)
        #expect(table.admit(5, at: at(1)) == (.admitEvicting(3), nil))
        #expect(table.count == 3)
        // 2 answered its request and is kept alive: it goes after every half-open connection, even younger ones.
        table.waiting(2, .nextRequest)
        #expect(table.admit(6, at: at(2)) == (.admitEvicting(4), nil))
        #expect(table.admit(7, at: at(3)) == (.admitEvicting(5), nil))
        #expect(table.admit(8, at: at(4)) == (.admitEvicting(6), nil))
        table.waiting(7, nil)
        table.waiting(8, nil)
        #expect(table.admit(9, at: at(5)) == (.admitEvicting(2), nil))
    }

    @Test("an idle kept-alive connection older than every half-open one is closed only when none is left")
    func idleKeptAliveGoesLast() {
        var table = ConnectionTable(capacity: 3)
        _ = table.admit(1, at: at(0))
        table.waiting(1, nil)
        table.waiting(1, .nextRequest)
        _ = table.admit(2, at: at(0))
        _ = table.admit(3, at: at(0))
        #expect(table.admit(4, at: at(0)).0 == .admitEvicting(2))
        #expect(table.admit(5, at: at(0)).0 == .admitEvicting(3))
        #expect(table.admit(6, at: at(0)).0 == .admitEvicting(4))
        table.waiting(5, nil)
        table.waiting(6, nil)
        #expect(table.admit(7, at: at(0)).0 == .admitEvicting(1))
    }

    @Test("a kept-alive connection that sends part of its next request's headers is half-open from then")
    func keptAliveStartingARequestIsHalfOpen() {
        var table = ConnectionTable(capacity: 3)
        _ = table.admit(1, at: at(0))
        table.waiting(1, nil)
        table.waiting(1, .nextRequest)
        _ = table.admit(2, at: at(0))
        table.waiting(1, .request)
        table.waiting(1, .request)  // the same state again keeps its place
        _ = table.admit(3, at: at(0))
        #expect(table.admit(4, at: at(0)).0 == .admitEvicting(2))
        #expect(table.admit(5, at: at(0)).0 == .admitEvicting(1))
        #expect(table.admit(6, at: at(0)).0 == .admitEvicting(3))
    }

    @Test("an evicted connection found busy counts again")
    func restoredCountsAgain() {
        var table = ConnectionTable(capacity: 1)
        _ = table.admit(1, at: at(0))
        #expect(table.admit(2, at: at(0)).0 == .admitEvicting(1))
        table.restore(1)
        #expect(table.count == 2)
        #expect(table.admit(3, at: at(0)).0 == .admitEvicting(2))
        #expect(table.admit(4, at: at(0)).0 == .admitEvicting(3))
        table.waiting(4, nil)
        #expect(table.admit(5, at: at(0)).0 == .refuse)
    }

    @Test("at the cap with every connection busy, the new one is refused; a closed one makes room")
    func refusesWhenAllBusy() {
        var table = ConnectionTable(capacity: 2)
        _ = table.admit(1, at: at(0))
        _ = table.admit(2, at: at(0))
        table.waiting(1, nil)
        table.waiting(2, nil)
        #expect(table.admit(3, at: at(0)) == (.refuse, .init(evicted: 0, refused: 1)))
        #expect(table.count == 2)
        table.remove(1)
        #expect(table.admit(4, at: at(0)) == (.admit, nil))
        // Removing an evicted or unknown connection changes nothing.
        table.remove(1)
        table.remove(99)
        #expect(table.count == 2)
    }

    @Test("the cap is logged at most once per interval, with what happened since")
    func noticeIsRateLimited() {
        var table = ConnectionTable(capacity: 1, noticeInterval: .seconds(10))
        _ = table.admit(1, at: at(0))
        #expect(table.admit(2, at: at(1000)).1 == .init(evicted: 1, refused: 0))
        table.waiting(2, nil)
        #expect(table.admit(3, at: at(2000)) == (.refuse, nil))
        table.waiting(2, .nextRequest)
        #expect(table.admit(4, at: at(5000)) == (.admitEvicting(2), nil))
        #expect(table.admit(5, at: at(11_000)) == (.admitEvicting(4), .init(evicted: 2, refused: 1)))
    }

    @Test("keep-alive connections waiting again and again leave the queues bounded and the order right")
    func manyRequestsPerConnection() {
        var table = ConnectionTable(capacity: 2)
        _ = table.admit(1, at: at(0))
        _ = table.admit(2, at: at(0))
        for _ in 0..<10_000 {
            table.waiting(1, .request)
            table.waiting(1, nil)
            table.waiting(1, .nextRequest)
        }
        #expect(table.admit(3, at: at(0)) == (.admitEvicting(2), .init(evicted: 1, refused: 0)))
        #expect(table.admit(4, at: at(0)) == (.admitEvicting(3), nil))
        table.waiting(4, nil)
        #expect(table.admit(5, at: at(0)) == (.admitEvicting(1), nil))
    }

    @Test(
        "the registry has the evicted connection close on its own event loop, unless it got busy by then; one warning"
    )
    func registryEvictsAndLogs() throws {
        let recorder = LogRecorder()
        let registry = ConnectionRegistry(
            capacity: 2, limits: Self.limits, metrics: ServerMetrics(), logger: recorder.logger())
        var channels: [EmbeddedChannel] = []
        var watches: [ConnectionWatch] = []
        for _ in 0..<5 {
            let channel = EmbeddedChannel()
            let watch = ConnectionWatch(channel: channel, registry: registry)
            try channel.pipeline.syncOperations.addHandler(ConnectionBytesHandler(watch: watch))
            try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
            channels.append(channel)
            watches.append(watch)
        }
        watches[0].start()
        watches[1].start()
        #expect(recorder.entries.isEmpty)
        watches[2].start()
        #expect(!channels[0].isActive)
        for watch in watches[1...2] {
            _ = watch.receive(.bytes)
            _ = watch.receive(.requestHead)
        }
        // 1's request head was decoded on its event loop, but the registry's view is older: evicted by
        // the registry, it finds itself busy, stays open and counts again.
        registry.waiting(1, .request)
        watches[3].start()
        #expect(channels[1].isActive)
        watches[4].start()
        #expect(!channels[3].isActive)
        #expect(channels[1].isActive && channels[2].isActive && channels[4].isActive)
        let warnings = recorder.entries.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("HTTP connection cap reached") == true)
        #expect(warnings.first?.metadata["connections.evicted"] == "1")
        #expect(warnings.first?.metadata["connections.cap"] == "2")
    }

    @Test("the timeouts and the cap are read from the environment, fractions of seconds allowed")
    func settings() throws {
        let defaults = try ServerConfiguration.fromEnvironment([:])
        #expect(defaults.headerTimeout == .seconds(5))
        #expect(defaults.idleTimeout == .seconds(30))
        #expect(defaults.bodyTimeout == .seconds(10))
        #expect(defaults.maxConnections == nil)
        let set = try ServerConfiguration.fromEnvironment([
            "SCOREFEED_HEADER_TIMEOUT_SECONDS": "2.5", "SCOREFEED_IDLE_TIMEOUT_SECONDS": "75",
            "SCOREFEED_BODY_TIMEOUT_SECONDS": "0.25", "SCOREFEED_MAX_CONNECTIONS": "5000",
        ])
        #expect(set.headerTimeout == .milliseconds(2500))
        #expect(set.idleTimeout == .seconds(75))
        #expect(set.bodyTimeout == .milliseconds(250))
        #expect(set.maxConnections == 5000)
    }

    @Test(
        "a timeout or cap out of range is refused, naming the variable",
        arguments: [
            ("SCOREFEED_HEADER_TIMEOUT_SECONDS", "0"), ("SCOREFEED_HEADER_TIMEOUT_SECONDS", "five"),
            ("SCOREFEED_IDLE_TIMEOUT_SECONDS", "3601"), ("SCOREFEED_BODY_TIMEOUT_SECONDS", "-1"),
            ("SCOREFEED_MAX_CONNECTIONS", "0"), ("SCOREFEED_MAX_CONNECTIONS", "1.5"),
        ])
    func badSettings(_ name: String, _ value: String) {
        #expect {
            try ServerConfiguration.fromEnvironment([name: value])
        } throws: { error in
            "\(error)".hasPrefix(name)
        }
    }

    @Test(
        "the default cap leaves room below the open-file limit",
        arguments: [(20_000, 19_000), (1024, 768), (65_536, 62_260), (100, 16)])
    func defaultCapacity(_ descriptors: Int, _ capacity: Int) {
        #expect(ConnectionLimits.defaultCapacity(descriptors: descriptors) == capacity)
    }

    @Test(
        "a known path with another method is named with its methods",
        arguments: [
            ("/v1/feed", ["POST"]), ("/v1/games/g1", ["GET"]), ("/v1/games/g1/stream", ["GET"]),
            ("/v1/activities/abc", ["DELETE", "GET", "PATCH"]), ("/v1/followers", ["POST", "GET", "DELETE"]),
            ("/v1/nothing", nil), ("/v1/games/g1/other", nil),
        ] as [(String, [String]?)])
    func allowedMethods(_ path: String, _ allowed: [String]?) {
        let routes = [
            ("POST", "/v1/feed"), ("GET", "/v1/games"), ("GET", "/v1/games/{id}"), ("GET", "/v1/games/{id}/stream"),
            ("DELETE", "/v1/activities/{token}"), ("GET", "/v1/activities/{token}"),
            ("PATCH", "/v1/activities/{token}"), ("POST", "/v1/followers"), ("GET", "/v1/followers"),
            ("DELETE", "/v1/followers"),
        ].map { (method: $0.0, path: $0.1) }
        let middleware = MethodNotAllowedMiddleware<BasicRequestContext>(routes: routes)
        #expect(middleware.allowed(for: path) == allowed)
    }
}
