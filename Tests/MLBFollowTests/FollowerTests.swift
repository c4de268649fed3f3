import AsyncHTTPClient
import Foundation
import LiveFollow
import Logging
import MLBFeed
import MLBFeedTesting
import MLBFollow
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Synchronization
import Testing

/// Collects what a follower logs and how long it asked to sleep.
final class Recorder: Sendable {
    private let log = LogRecorder()
    private let sleepsSoFar = Mutex<[Duration]>([])

    var entries: [LogRecorder.Entry] { log.entries }
    var sleeps: [Duration] { sleepsSoFar.withLock { $0 } }

    func slept(_ duration: Duration) { sleepsSoFar.withLock { $0.append(duration) } }

    var logger: Logger { log.logger(label: "mlb-follow-test") }
}

struct Crash: Error {}

@Suite("following the MLB live feed over HTTP into the event log", .timeLimit(.minutes(2)))
struct FollowerTests {
    static let gamePk = 746001

    /// The full game's documents, and the messages the differ makes of them in order.
    static func fullGame() throws -> (documents: [String], ids: [String]) {
        let documents = try MLBFeedServer.documents(inFolder: fixture("mlb/full-game"))
        var view = MLBGameView(gamePk: gamePk)
        var ids: [String] = []
        for document in documents {
            let diff = MLBDiffer.diff(view, try MLBSnapshot(data: Data(document.utf8)))
            ids += diff.messages.map(\.id)
            view = diff.view
        }
        return (documents, ids)
    }

    /// Follows `gamePk` on `server` into `connection`'s log, from the log's view; sleeps only record.
    /// The request timeout is generous (a busy CI machine must not turn a slow answer into a retry)
    /// except where a test makes the server hang on purpose.
    static func follow(
        _ server: MLBFeedServer, _ connection: PostgresConnection, gamePk: Int = gamePk, recorder: Recorder,
        crashAfter: Int? = nil, requestTimeout: Duration = .seconds(20)
    ) async throws -> (view: MLBGameView, summary: MLBFollowSummary) {
        let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let store = GameStore(replayer: Replayer(ingestor: Ingestor(connection: connection)))
        let follower = MLBFollower(
            configuration: .init(gamePk: gamePk, interval: .zero, maximumFailures: 20),
            client: MLBFeedClient(baseURL: server.baseURL, httpClient: httpClient, requestTimeout: requestTimeout),
            logger: recorder.logger, sleep: { recorder.slept($0) }, random: { 1.0 })
        let stored = Counter()
        do {
            let result = try await follower.run(from: try await store.view(gamePk: gamePk)) { diff in
                _ = try await store.store(diff.messages, source: "test") { _, _ in }
                if let crashAfter, stored.increment() >= crashAfter { throw Crash() }
            }
            try await httpClient.shutdown()
            return result
        } catch {
            try await httpClient.shutdown()
            throw error
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }
    }

    static func stream(_ connection: PostgresConnection, gamePk: Int = gamePk) async throws -> [FeedMessage] {
        try await connection.withSession { try EventLog.readStream(MLBSnapshot.gameId(gamePk), in: $0) }.map(\.message)
    }

    static func finalState(_ connection: PostgresConnection) async throws -> ScoreState? {
        try MLBGameView(gamePk: gamePk, replaying: try await stream(connection)).state
    }

    @Test("a whole game, Preview to Final: one full fetch, then patches; the log ends NYY 3 – 5 BOS, closed")
    func wholeGame() async throws {
        let (documents, ids) = try Self.fullGame()
        let server = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
        try await withStore { connection in
            let recorder = Recorder()
            let (view, summary) = try await Self.follow(server, connection, recorder: recorder)
            #expect(try await Self.stream(connection).map(\.id) == ids)
            let state = try #require(try await Self.finalState(connection))
            #expect((state.awayScore, state.homeScore, state.status, state.inning) == (3, 5, .closed, "Top 9th"))
            #expect(view.state == state)
            let requests = server.requests
            #expect(requests.count == documents.count)  // Game Over, then on to the official Final
            #expect(
                recorder.entries.contains { $0.message.hasPrefix("game over; following until the feed says Final") })
            #expect(!requests[0].isPatch)
            #expect(requests.dropFirst().allSatisfy { $0.isPatch })
            #expect(requests[1].query == "startTimecode=20260401_140000")
            #expect(summary.patches == documents.count - 1)
            #expect(summary.retries == 0)
            #expect(recorder.entries.contains { $0.message == "game ended; stopping" })
        }
        await server.stop()
    }

    @Test("a patch that does not apply makes the follower fetch the whole document; nothing is lost")
    func brokenPatch() async throws {
        let (documents, ids) = try Self.fullGame()
        let server = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
        server.inject(.pass, .pass, .brokenPatch)
        try await withStore { connection in
            let recorder = Recorder()
            let (_, summary) = try await Self.follow(server, connection, recorder: recorder)
            let requests = server.requests
            #expect(requests[2].isPatch)
            #expect(!requests[3].isPatch)
            #expect(requests[4].isPatch)
            #expect(summary.refetches == 1)
            #expect(try await Self.stream(connection).map(\.id) == ids)
            let warning = try #require(recorder.entries.first { $0.message.contains("patch does not apply") })
            #expect(warning.metadata["game.id"] == "mlb-746001")
            #expect(warning.metadata["mlb.timecode"] == "20260401_223000")
            #expect("\(warning.metadata["error"] ?? "")".contains("/liveData/noSuchMember"))
        }
        await server.stop()
    }

    @Test("500s, a timeout, a dropped connection and a 429 are retried with backoff; nothing is lost")
    func providerFailures() async throws {
        let (documents, ids) = try Self.fullGame()
        let server = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
        server.inject(.status(500), .pass, .status(503), .hang, .close, .status(429), .pass, .pass, .status(502))
        try await withStore { connection in
            let recorder = Recorder()
            let (_, summary) = try await Self.follow(
                server, connection, recorder: recorder, requestTimeout: .seconds(2))
            #expect(summary.retries == 6)
            #expect(try await Self.stream(connection).map(\.id) == ids)
            // Jitter fixed at 1.0: each wait is the ceiling, doubling while failures follow each other.
            #expect(
                recorder.sleeps.filter { $0 != .zero } == [
                    .seconds(1), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(1),
                ])
            let retries = recorder.entries.filter { $0.message == "feed request failed; retrying" }
            #expect(retries.count == 6)
            #expect(retries.allSatisfy { $0.metadata["game.id"] == "mlb-746001" })
            #expect("\(retries[0].metadata["error"] ?? "")".contains("HTTP 500"))
            #expect("\(retries[2].metadata["error"] ?? "")".contains("timeout"))
            #expect(retries[2].metadata["mlb.timecode"] == "20260401_140000")
        }
        await server.stop()
    }

    @Test("a diffPatch answer that will not change (410 for an expired timecode) makes it fetch the whole document")
    func expiredTimecode() async throws {
        let (documents, ids) = try Self.fullGame()
        let server = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
        server.inject(.pass, .pass, .status(410))
        try await withStore { connection in
            let (_, summary) = try await Self.follow(server, connection, recorder: Recorder())
            #expect(summary.refetches == 1)
            #expect(try await Self.stream(connection).map(\.id) == ids)
            let requests = server.requests
            let afterGone = try #require(requests.indices.first { $0 > 2 })
            #expect(!requests[afterGone].isPatch, "the request after the 410 asks for the whole document")
        }
        await server.stop()
    }

    @Test("a provider that keeps failing makes the follower give up after the limit, keeping what it stored")
    func givesUp() async throws {
        let (documents, _) = try Self.fullGame()
        let server = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
        server.inject(.pass, .pass, .pass, .pass)
        for _ in 0..<20 { server.inject(.status(500)) }
        try await withStore { connection in
            let error = await #expect(throws: MLBFollowError.self) {
                try await Self.follow(server, connection, recorder: Recorder())
            }
            #expect(error?.description.contains("after 20 failed requests") == true)
            let state = try await Self.finalState(connection)
            #expect(state?.status == .inprogress)
        }
        await server.stop()
    }

    @Test("duplicate and out-of-order documents add nothing")
    func duplicatesAndOrder() async throws {
        let (documents, ids) = try Self.fullGame()
        let server = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
        // After the 4th document: an older whole document, then the current one again, then an old patch
        // base (the server answers the whole document for it).
        server.inject(.pass, .pass, .pass, .pass, .document(1), .document(3), .document(0))
        try await withStore { connection in
            let recorder = Recorder()
            let (_, summary) = try await Self.follow(server, connection, recorder: recorder)
            #expect(summary.stale == 2)
            #expect(try await Self.stream(connection).map(\.id) == ids)
            let ignored = try #require(recorder.entries.first { $0.message.contains("older document") })
            #expect(ignored.metadata["mlb.timecode"] == "20260401_223000")
            #expect(ignored.metadata["mlb.lastTimecode"] == "20260401_231012")
        }
        await server.stop()
    }

    @Test("malformed answers are logged with game and timecode and skipped; the last good state is kept")
    func malformed() async throws {
        let (documents, ids) = try Self.fullGame()
        let server = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
        server.inject(
            .pass, .pass, .body("{\"gamePk\":"), .body("{\"gamePk\":746001}"),
            .body("[{\"diff\":[{\"op\":\"jump\"}]}]"),
            .body("{\"gamePk\":746001,\"metaData\":{\"timeStamp\":\"20260401_231000\"},\"gameData\":{}}"))
        try await withStore { connection in
            let recorder = Recorder()
            let (_, summary) = try await Self.follow(server, connection, recorder: recorder)
            #expect(summary.malformed == 4)
            #expect(try await Self.stream(connection).map(\.id) == ids)
            let errors = recorder.entries.filter { $0.level == .error }
            #expect(errors.count == 4)
            #expect(errors.allSatisfy { $0.metadata["game.id"] == "mlb-746001" && $0.metadata["mlb.timecode"] != nil })
            #expect(errors.map(\.message).contains("feed answer is not JSON; keeping the last good state"))
            let badField = try #require(errors.last)
            #expect(badField.metadata["mlb.timecode"] == "20260401_231000")
            #expect("\(badField.metadata["error"] ?? "")".contains("gameData.status"))
        }
        await server.stop()
    }

    @Test("a follower restarted after a crash continues from the log: the same messages, none twice")
    func restart() async throws {
        let (documents, ids) = try Self.fullGame()
        try await withStore { connection in
            let first = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
            await #expect(throws: Crash.self) {
                try await Self.follow(first, connection, recorder: Recorder(), crashAfter: 4)
            }
            await first.stop()
            let partial: [String] = try await Self.stream(connection).map(\.id)
            #expect(partial.count < ids.count)
            #expect(Array(ids.prefix(partial.count)) == partial)
            // The provider is polled from the beginning again: the old documents are ignored.
            let second = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
            let (_, summary) = try await Self.follow(second, connection, recorder: Recorder())
            #expect(summary.stale > 0)
            #expect(try await Self.stream(connection).map(\.id) == ids)
            await second.stop()
        }
    }

    @Test("an unknown game is an error at once")
    func unknownGame() async throws {
        let (documents, _) = try Self.fullGame()
        let server = try await MLBFeedServer.start(gamePk: Self.gamePk, documents: documents)
        try await withStore { connection in
            let error = await #expect(throws: MLBFollowError.self) {
                try await Self.follow(server, connection, gamePk: 999, recorder: Recorder())
            }
            #expect(error?.description.contains("not found") == true)
            let stored = try await Self.stream(connection, gamePk: 999)
            #expect(stored.isEmpty)
        }
        await server.stop()
    }
}
