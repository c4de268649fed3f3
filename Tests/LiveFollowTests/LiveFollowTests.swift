import Foundation
import LiveFollow
import LiveFollowTesting
import Providers
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

/// `follow nhl` and `follow nba` against a local server serving a real game's recorded polls, with
/// dropped connections, stalls, errors, "not modified" answers, an edited play and a removed one.
@Suite("following polled live documents into the log", .serialized, .timeLimit(.minutes(3)))
struct LiveFollowTests {
    /// A scoring list without revision suffixes in ids, to compare with the one-shot conversion's.
    static func plays(_ state: ScoreState) -> [ScoringPlay] {
        state.scoring.elements.map { play in
            var play = play
            if let mark = play.id.firstIndex(of: "~") { play.id = String(play.id[..<mark]) }
            return play
        }
    }

    static func expectSameGame(_ followed: ScoreState, _ official: ScoreState) {
        #expect(followed.homeScore == official.homeScore)
        #expect(followed.awayScore == official.awayScore)
        #expect(followed.status == official.status)
        #expect(
            followed.periods.map { "\($0.label) \($0.home)-\($0.away)" }
                == official.periods.map { "\($0.label) \($0.home)-\($0.away)" })
        #expect(followed.shootout == official.shootout)
        #expect(plays(followed) == plays(official))
    }

    @Test("nhl: a shoot-out game through errors, a drop, a stall and a 304; an edited and a removed goal retracted")
    func nhl() async throws {
        let path = fixture("providers/nhl-web/2024020033.json")
        let final = try Data(contentsOf: URL(fileURLWithPath: path))
        let official = try fold(NHLWeb.convert([JSONValue.parse(final)]))
        // Plays 1 and 12 are goals (the first and the last of regulation's third period's four).
        let polls = try recordedPolls(path, key: "plays", state: ("gameState", "LIVE"), cuts: [2, 13, 12]) {
            poll, plays in
            guard poll == 0, var details = plays[1]["details"] as? [String: Any] else { return }
            details["scoringPlayerId"] = (plays[0]["details"] as? [String: Any])?["scoringPlayerId"] ?? 8_478_402
            plays[1]["details"] = details
        }
        let server = try await DocumentServer.start(documents: ["/v1/gamecenter/2024020033/play-by-play": polls])
        server.inject(.status(503), .pass, .close, .pass, .same, .pass, .stall(.seconds(6)))
        defer { Task { await server.stop() } }
        try await withStore { connection in
            let (summary, stream, sleeps) = try await follow(
                .nhl(game: 2_024_020_033, baseURL: server.baseURL), gameId: "nhl-2024020033", into: connection,
                requestTimeout: .seconds(2))
            let followed = try fold(stream)
            Self.expectSameGame(followed, official)
            #expect(followed.status == .closed)
            let retractions = stream.compactMap { message -> String? in
                if case .retracted(let id, let reason) = message.event { return "\(id) \(reason ?? "")" }
                return nil
            }
            let plays = try JSONSerialization.jsonObject(with: final) as? [String: Any]
            let ids = (plays?["plays"] as? [[String: Any]] ?? []).map { "nhl-web-2024020033-\($0["eventId"] ?? "")" }
            #expect(retractions == ["\(ids[1]) edited by the provider", "\(ids[12]) removed by the provider"])
            #expect(summary.retractions == 2)
            #expect(summary.unchanged == 1)
            #expect(summary.retries == 3)
            #expect(sleeps.contains(.seconds(7)))
            // Nothing stored twice: every id once.
            #expect(Set(stream.map(\.id)).count == stream.count)
            let conditional = server.requests.filter { $0.ifNoneMatch != nil }
            #expect(conditional.contains { $0.status == 304 })
        }
    }

    @Test("nba: the box score once, then the play-by-play; a re-stamped basket is retracted and stored again")
    func nba() async throws {
        let path = fixture("providers/nba-live/playbyplay_0022000180.json")
        let box = try String(contentsOfFile: fixture("providers/nba-live/boxscore_0022000180.json"), encoding: .utf8)
        let official = try fold(
            NBALive.convert([
                JSONValue.parse(Data(box.utf8)), JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: path))),
            ]))
        // The first poll's last made basket carries an older edit stamp than the second poll's.
        let polls = try recordedPolls(path, key: "actions", state: ("", ""), cuts: [40, 120]) { poll, actions in
            guard poll == 0,
                let index = actions.lastIndex(where: { ($0["shotResult"] as? String) == "Made" })
            else { return }
            actions[index]["edited"] = "2021-01-16T00:40:00Z"
        }
        let live = "/static/json/liveData"
        let server = try await DocumentServer.start(documents: [
            "\(live)/boxscore/boxscore_0022000180.json": [box],
            "\(live)/playbyplay/playbyplay_0022000180.json": polls,
        ])
        server.inject(.status(500), .pass, .status(429), .close)
        defer { Task { await server.stop() } }
        try await withStore { connection in
            let (summary, stream, _) = try await follow(
                .nba(game: "0022000180", baseURL: server.baseURL), gameId: "nba-0022000180", into: connection)
            let followed = try fold(stream)
            Self.expectSameGame(followed, official)
            #expect(summary.retractions == 1)
            #expect(Set(stream.map(\.id)).count == stream.count)
            #expect(server.requests.filter { $0.path.contains("boxscore") && $0.status == 200 }.count == 1)
        }
    }

    @Test("an unknown game stops at once, naming the URL")
    func unknownGame() async throws {
        let server = try await DocumentServer.start(documents: [:])
        defer { Task { await server.stop() } }
        try await withStore { connection in
            _ = await #expect {
                try await follow(.nhl(game: 1, baseURL: server.baseURL), gameId: "nhl-1", into: connection)
            } throws: { error in
                "\(error)".contains("not found at \(server.baseURL)/v1/gamecenter/1/play-by-play")
            }
        }
    }

    @Test("a restart after the end stores nothing: the log holds the end")
    func restart() async throws {
        let path = fixture("providers/nhl-web/2024020003.json")
        let polls = try recordedPolls(path, key: "plays", state: ("gameState", "LIVE"), cuts: [10])
        try await withStore { connection in
            for _ in 0..<2 {
                let server = try await DocumentServer.start(documents: ["/v1/gamecenter/2024020003/play-by-play": polls]
                )
                _ = try await follow(
                    .nhl(game: 2_024_020_003, baseURL: server.baseURL), gameId: "nhl-2024020003", into: connection)
                await server.stop()
            }
            let stream = try await GameStore(replayer: Replayer(ingestor: Ingestor(connection: connection)))
                .stream("nhl-2024020003")
            let once = try NHLWeb.convert([JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: path)))])
            #expect(stream.map(\.message.id) == once.map(\.id))
        }
    }
}
