import Foundation
import LiveFollowTesting
import ScoreFeedTesting
import Testing

@Suite("scorefeed follow nhl, nba and sportradar", .timeLimit(.minutes(3)))
struct FollowLiveCLITests {
    static let nflGame = "0cb301fa-629d-4209-a8a6-9f76dfc695be"

    /// A push feed whose first connection drops after a payload, and the game's REST play-by-play
    /// (the recorded, closed document).
    static func sportradarServers() async throws -> (PushServer, DocumentServer) {
        let document = try String(
            contentsOfFile: fixture("providers/sportradar-nfl/sea-at-ne-2016-11-13.json"), encoding: .utf8)
        let payload =
            #"{"payload":{"game":{"id":"\#(nflGame)"},"event":{"id":"e","type":"play"}},"metadata":{"operation":"create"}}"#
        let push = try await PushServer.start(script: [
            .init(steps: [.line(#"{"heartbeat":{"interval":5000}}"#), .line(payload)], end: .close),
            .init(steps: [.line(payload)], end: .stall),
        ])
        let rest = try await DocumentServer.start(documents: ["/games/\(nflGame)/pbp.json": [document]])
        return (push, rest)
    }

    static func sportradarArguments(_ push: PushServer, _ rest: DocumentServer, urlKey: String) -> [String] {
        [
            "follow", "sportradar", "--sport", "nfl", push.streamURL + "?api_key=\(urlKey)", "--game", nflGame,
            "--rest-url", rest.baseURL + "/games/{game}/pbp.json", "--stall", "1",
        ]
    }

    @Test("follow sportradar reads a push feed through a drop and ends with the followed game")
    func sportradar() async throws {
        let (push, rest) = try await Self.sportradarServers()
        try await TestDatabase.withSchema { url in
            var cli = CLI(databaseURL: url)
            cli.environment["SCOREFEED_SPORTRADAR_API_KEY"] = "test-key"
            let run = try await cli.run(Self.sportradarArguments(push, rest, urlKey: "in-url"))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("ended: \(Self.nflGame)"), "\(run.stderr)")
            #expect(!run.stderr.contains("in-url"), "\(run.stderr)")
            #expect(push.requests.allSatisfy { $0.apiKey == "test-key" })
            let game = try await cli.run("game", "sr-nfl-\(Self.nflGame)", "--json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(game.stdout.utf8)) as? [String: Any])
            #expect(object["homeScore"] as? Int == 24)
            #expect(object["awayScore"] as? Int == 31)
            #expect(object["status"] as? String == "closed")
            let sport = try await cli.run("follow", "sportradar", "--sport", "cricket", push.streamURL)
            #expect(sport.status == 64)
            #expect(sport.stderr.contains("--sport must be one of"), "\(sport.stderr)")
            let template = try await cli.run(
                "follow", "sportradar", "--sport", "nfl", push.streamURL, "--rest-url", rest.baseURL)
            #expect(template.status == 64)
            #expect(template.stderr.contains("{game}"), "\(template.stderr)")
        }
        await push.stop()
        await rest.stop()
    }

    @Test("follow nhl follows a local server to the game's end; the game shows the official final")
    func nhl() async throws {
        let document = try String(contentsOfFile: fixture("providers/nhl-web/2024020087.json"), encoding: .utf8)
        let server = try await DocumentServer.start(documents: ["/v1/gamecenter/2024020087/play-by-play": [document]])
        server.inject(.status(503))
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let run = try await cli.run(
                "follow", "nhl", "2024020087", "--base-url", server.baseURL, "--interval", "0.01")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stderr.contains("followed nhl-web 2024020087 until its end: 1 document(s) converted"),
                "\(run.stderr)")
            #expect(run.stderr.contains("1 retried request(s)"), "\(run.stderr)")
            let game = try await cli.run("game", "nhl-2024020087", "--json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(game.stdout.utf8)) as? [String: Any])
            let official = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
            #expect(object["homeScore"] as? Int == (official["homeTeam"] as? [String: Any])?["score"] as? Int)
            #expect(object["awayScore"] as? Int == (official["awayTeam"] as? [String: Any])?["score"] as? Int)
            #expect(object["status"] as? String == "closed")
            let again = try await cli.run(
                "follow", "nhl", "2024020087", "--base-url", server.baseURL, "--interval", "0.01")
            #expect(again.status == 0)
            #expect(again.stderr.contains("0 message(s)"), "\(again.stderr)")
        }
        await server.stop()
    }

    @Test("follow nba and nhl refuse bad arguments and an unknown game with a non-zero exit")
    func badArguments() async throws {
        let server = try await DocumentServer.start(documents: [:])
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let short = try await cli.run("follow", "nba", "123")
            #expect(short.status == 64)
            #expect(short.stderr.contains("ten-digit game id"), "\(short.stderr)")
            let zero = try await cli.run("follow", "nhl", "0")
            #expect(zero.status == 64)
            let interval = try await cli.run("follow", "nhl", "2024020087", "--interval", "0")
            #expect(interval.status == 64)
            #expect(interval.stderr.contains("must be a number of seconds"), "\(interval.stderr)")
            let unknown = try await cli.run("follow", "nba", "0022000180", "--base-url", server.baseURL)
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("game 0022000180 not found"), "\(unknown.stderr)")
            let games = try await cli.run("games", "--json")
            #expect(games.stdout == "[]\n")
        }
        await server.stop()
    }
}
