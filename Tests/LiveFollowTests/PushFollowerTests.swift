import AsyncHTTPClient
import Foundation
import LiveFollow
import LiveFollowTesting
import Providers
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("following a Sportradar push feed", .serialized, .timeLimit(.minutes(3)))
struct PushFollowerTests {
    static let game = "0cb301fa-629d-4209-a8a6-9f76dfc695be"
    static let path = fixture("providers/sportradar-nfl/sea-at-ne-2016-11-13.json")

    static func payload(_ event: String, game: String = game) -> String {
        #"{"payload":{"game":{"id":"\#(game)","status":"inprogress"},"event":{"id":"\#(event)","type":"play"}},"#
            + #""locale":"en","metadata":{"league":"NFL","operation":"create","version":"v7"}}"#
    }

    static let heartbeat = #"{"heartbeat":{"interval":5000}}"#

    /// The game's play-by-play as the REST feed answered it along the way: one quarter, two, three
    /// (`inprogress`), then the closed document as recorded.
    static func restDocuments() throws -> [String] {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let periods = try #require(root["periods"] as? [[String: Any]])
        var documents: [String] = []
        for count in 1...periods.count {
            var document = root
            document["periods"] = Array(periods.prefix(count))
            if count < periods.count { document["status"] = "inprogress" }
            documents.append(String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
        }
        return documents
    }

    @Test("a dropped stream, a refused connection and a stall: every play stored once, the final exact")
    func throughFaults() async throws {
        let official = try fold(
            SportradarNFL.convert([JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: Self.path)))]))
        let restPath = "/nfl/official/trial/v7/en/games/\(Self.game)/pbp.json"
        let rest = try await DocumentServer.start(documents: [restPath: try Self.restDocuments()])
        let push = try await PushServer.start(script: [
            .init(steps: [.line(Self.payload("a")), .line(Self.heartbeat), .line(Self.payload("b"))], end: .close),
            .init(status: 503, steps: [], end: .close),
            .init(
                steps: [.line(Self.heartbeat), .line("not json"), .line(Self.payload("c", game: "another-game"))],
                end: .stall),
            .init(
                steps: [
                    .line(Self.payload("d")), .pause(.milliseconds(150)), .line(Self.payload("e")),
                    .pause(.milliseconds(150)), .line(Self.payload("f")), .pause(.milliseconds(150)),
                    .line(Self.heartbeat),
                ], end: .stall),
        ])
        let streamClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(timeout: .init(connect: .seconds(5), read: .seconds(1))))
        let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        try await withStore { connection in
            let store = GameStore(replayer: Replayer(ingestor: Ingestor(connection: connection)))
            let base = rest.baseURL
            let follower = PushFollower(
                configuration: .init(
                    streamURL: push.streamURL + "?api_key=secret-in-url",
                    source: {
                        LiveSource.sportradar(
                            format: SportradarNFL.self, game: $0,
                            restURL: LiveSource.SportradarSport.nfl.restURL(base: base))
                    },
                    game: Self.game, apiKey: "the-key", maximumFailures: 10),
                streamClient: streamClient, client: DocumentClient(httpClient: httpClient), logger: quietLogger,
                sleep: { _ in }, random: { 1.0 })
            let summary = try await follower.run(
                load: { try await store.stream($0).map(\.message) },
                store: { _ = try await store.store($0, source: "test") { _, _ in } })
            let stream = try await store.stream("sr-nfl-\(Self.game)").map(\.message)
            LiveFollowTests.expectSameGame(try fold(stream), official)
            #expect(Set(stream.map(\.id)).count == stream.count)
            #expect(summary.connections >= 3)
            #expect(summary.unreadable == 1)
            #expect(summary.ended == [Self.game])
            #expect(push.requests.allSatisfy { $0.apiKey == "the-key" })
            #expect(rest.requests.allSatisfy { $0.apiKey == "the-key" })
            #expect(!rest.requests.contains { $0.path.contains("another-game") })
        }
        try await streamClient.shutdown()
        try await httpClient.shutdown()
        await push.stop()
        await rest.stop()
    }

    @Test("push lines: heartbeats, payloads with their game, other objects, broken lines")
    func lines() {
        #expect(PushLine.parse(Array(Self.heartbeat.utf8)) == .heartbeat)
        #expect(PushLine.parse(Array(Self.payload("x").utf8)) == .payload(game: Self.game, operation: "create"))
        #expect(
            PushLine.parse(Array(#"{"payload":{"sport_event":{"id":"sr:match:1"}}}"#.utf8))
                == .payload(game: "sr:match:1", operation: nil))
        #expect(PushLine.parse(Array(#"{"payload":{"event":{}}}"#.utf8)) == .other)
        #expect(PushLine.parse(Array("{\"pay".utf8)) == .unreadable)
        #expect(PushLine.parse(Array("  \r".utf8)) == nil)
        var splitter = LineSplitter(maximumLine: 8)
        #expect((try? splitter.lines(Array("ab\r\ncd".utf8))) == [Array("ab".utf8)])
        #expect((try? splitter.lines(Array("e\n".utf8))) == [Array("cde".utf8)])
        #expect((try? splitter.lines(Array("123456789".utf8))) == nil)
        #expect(PushFollower.redacted("https://x/s?a=1&api_key=K&b=2") == "https://x/s?a=1&api_key=[redacted]&b=2")
    }
}
