import Foundation
import Testing

/// Many providers posting at once, one message per request: a valid message is never refused, and a
/// refusal is decided against the game's stream as committed (issue: stale cached states gave
/// permanent 409s to valid messages).
@Suite("POST /v1/feed from concurrent clients")
struct ConcurrentIngestTests {
    static let clients = 8
    static let games = 200

    /// One short game: scheduled, started, an out, runs for both teams, an inning change, final.
    /// With `invalid`, an `out.recorded` for a game that is over is posted after the final.
    static func messages(_ game: String, invalid: Bool) -> [String] {
        let out =
            #"{"id":"\#(game)-out","gameId":"\#(game)","at":"2026-05-01T23:08:00Z","type":"out.recorded","outs":1}"#
        let inning =
            #"{"id":"\#(game)-inning","gameId":"\#(game)","at":"2026-05-01T23:20:00Z","type":"inning.changed","inning":1,"half":"bottom"}"#
        var messages = [
            scheduled(game), started(game), out, run(game, 1, team: "away", minute: 12), inning,
            run(game, 2, minute: 25), run(game, 3, minute: 30), final(game),
        ]
        if invalid {
            messages.append(
                #"{"id":"\#(game)-late-out","gameId":"\#(game)","at":"2026-05-02T02:01:00Z","type":"out.recorded","outs":1}"#
            )
        }
        return messages
    }

    @Test(
        "8 clients, one message per request, 200 games: every valid message is accepted, only invalid ones get 409",
        arguments: [false, true])
    func concurrentClients(withInvalid: Bool) async throws {
        try await withServer { server in
            // Every tenth game gets a message the fold must refuse (when `withInvalid`).
            let invalidGames = Set(withInvalid ? stride(from: 0, to: Self.games, by: 10).map { "c\($0)" } : [])
            let statuses = try await withThrowingTaskGroup(of: [String: [Int]].self) { group in
                for client in 0..<Self.clients {
                    group.addTask {
                        // Each client owns every 8th game and posts its games' messages round-robin,
                        // waiting for each answer, so requests of different games interleave.
                        let games = stride(from: client, to: Self.games, by: Self.clients).map { "c\($0)" }
                        let queues = games.map { Self.messages($0, invalid: invalidGames.contains($0)) }
                        var seen: [String: [Int]] = [:]
                        for step in 0..<(queues.map(\.count).max() ?? 0) {
                            for (game, queue) in zip(games, queues) where step < queue.count {
                                let reply = try await server.ingest(queue[step])
                                seen["\(reply.status)", default: []].append(step)
                                if reply.status == 409 {
                                    #expect(invalidGames.contains(game), "\(game) step \(step): \(reply.body)")
                                    #expect(step == queue.count - 1, "\(game) step \(step): \(reply.body)")
                                } else {
                                    #expect(reply.status == 202, "\(game) step \(step): \(reply.body)")
                                }
                            }
                        }
                        return seen
                    }
                }
                var all: [String: Int] = [:]
                for try await seen in group { for (status, steps) in seen { all[status, default: 0] += steps.count } }
                return all
            }
            #expect(statuses["409", default: 0] == invalidGames.count)
            #expect(statuses["202", default: 0] == Self.games * 8)
            #expect(statuses.keys.sorted() == (withInvalid ? ["202", "409"] : ["202"]))
            for index in 0..<Self.games {
                let game = try await server.waitForGame("c\(index)", version: 8)
                #expect(game["status"] as? String == "closed")
                #expect(game["homeScore"] as? Int == 2)
                #expect(game["awayScore"] as? Int == 1)
            }
        }
    }
}
