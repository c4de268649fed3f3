import AsyncHTTPClient
import Foundation
import LiveFollow
import LiveFollowTesting
import Logging
import PostgresClient
import Providers
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Synchronization
import Testing

/// The polls a live game's document went through, made from a real final document: its plays cut
/// at `cuts` (the state `LIVE` until the last, which is the document as recorded), each poll's
/// plays passed through `edit` (to put in a provider's mistake, or take a play out).
func recordedPolls(
    _ path: String, key: String, state: (String, String), cuts: [Int],
    edit: (_ poll: Int, inout [[String: Any]]) -> Void = { _, _ in }
) throws -> [String] {
    let root = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    var container = key == "plays" ? root : try #require(root["game"] as? [String: Any])
    let items = try #require(container[key == "plays" ? "plays" : "actions"] as? [[String: Any]])
    var polls: [String] = []
    for (index, cut) in (cuts + [items.count]).enumerated() {
        var poll = Array(items.prefix(cut))
        edit(index, &poll)
        container[key == "plays" ? "plays" : "actions"] = poll
        var document = root
        if key == "plays" {
            document = container
            if cut < items.count { document[state.0] = state.1 }
        } else {
            document["game"] = container
        }
        polls.append(String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
    }
    return polls
}

/// Folds messages as the projector does.
func fold(_ messages: [FeedMessage]) throws -> ScoreState {
    var state: ScoreState?
    for message in messages { state = try ScoreFold.apply(message, to: state) }
    return try #require(state)
}

/// Follows `source` on a local server into a real log; sleeps are recorded, not waited.
func follow(
    _ source: LiveSource, gameId: String, into connection: PostgresConnection, requestTimeout: Duration = .seconds(20)
) async throws -> (summary: PollSummary, stream: [FeedMessage], sleeps: [Duration]) {
    let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
    let store = GameStore(replayer: Replayer(ingestor: Ingestor(connection: connection)))
    let sleeps = SleepLog()
    let follower = PollFollower(
        source: source, configuration: .init(interval: .seconds(7), maximumFailures: 10),
        client: DocumentClient(httpClient: httpClient, requestTimeout: requestTimeout), logger: quietLogger,
        sleep: { sleeps.add($0) }, random: { 1.0 })
    do {
        let summary = try await follower.run(
            load: { try await store.stream($0).map(\.message) },
            store: { _ = try await store.store($0, source: "test") { _, _ in } })
        try await httpClient.shutdown()
        return (summary, try await store.stream(gameId).map(\.message), sleeps.all)
    } catch {
        try? await httpClient.shutdown()
        throw error
    }
}

final class SleepLog: Sendable {
    private let sleeps = Mutex<[Duration]>([])
    func add(_ duration: Duration) { sleeps.withLock { $0.append(duration) } }
    var all: [Duration] { sleeps.withLock { $0 } }
}
