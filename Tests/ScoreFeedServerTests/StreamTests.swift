import AsyncHTTPClient
import Foundation
import NIOCore
import ScoreFeedTesting
import Testing

/// One Server-Sent Event.
struct SSEvent: Sendable {
    var id: Int?
    var event: String?
    var data: String
    var state: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
}

/// Reads a live stream until `count` events arrived (or the timeout passes), then disconnects;
/// `onEvent` is told the number of events read so far after each one.
func readEvents(
    _ server: RunningServer, _ path: String, lastEventID: Int? = nil, count: Int,
    timeout: Duration = .seconds(20), onEvent: @escaping @Sendable (Int) async throws -> Void = { _ in }
) async throws -> (status: Int, contentType: String?, events: [SSEvent]) {
    var request = HTTPClientRequest(url: server.base + path)
    if let lastEventID { request.headers.add(name: "Last-Event-ID", value: String(lastEventID)) }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let contentType = response.headers.first(name: "Content-Type")
    guard response.status == .ok else { return (Int(response.status.code), contentType, []) }
    return try await withThrowingTaskGroup(of: [SSEvent]?.self) { group in
        group.addTask {
            var events: [SSEvent] = []
            var text = ""
            for try await buffer in response.body {
                text += String(buffer: buffer)
                while let end = text.range(of: "\n\n") {
                    let block = String(text[..<end.lowerBound])
                    text = String(text[end.upperBound...])
                    var event = SSEvent(data: "")
                    var isEvent = false
                    for line in block.split(separator: "\n") {
                        if line.hasPrefix("id: ") { event.id = Int(line.dropFirst(4)) }
                        if line.hasPrefix("event: ") { event.event = String(line.dropFirst(7)) }
                        if line.hasPrefix("data: ") {
                            event.data = String(line.dropFirst(6))
                            isEvent = true
                        }
                    }
                    if isEvent {
                        events.append(event)
                        try await onEvent(events.count)
                    }
                    if events.count >= count { return events }
                }
            }
            return events
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        var result: [SSEvent] = []
        for try await events in group {
            if let events {
                result = events
                break
            }
            break
        }
        group.cancelAll()
        return (200, contentType, result)
    }
}

@Suite("live stream (SSE)")
struct StreamTests {
    @Test("the current states first, then each change as it commits, with the global position as id")
    func live() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1")),\(scheduled("g2"))]").status == 202)
            _ = try await server.waitForGame("g2", version: 1)
            // Once the two current states are in, the server gets two runs.
            let reply = try await readEvents(server, "/v1/stream", count: 4) { seen in
                if seen == 2 {
                    let posted = try await server.ingest("[\(run("g1", 1)),\(run("g1", 2, team: "away"))]")
                    #expect(posted.status == 202)
                }
            }
            #expect(reply.contentType?.hasPrefix("text/event-stream") == true)
            let events = reply.events
            #expect(events.count == 4)
            #expect(events.allSatisfy { $0.event == "state" })
            #expect(
                events.prefix(2).map { $0.state["gameId"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == [
                    "g1", "g2",
                ])
            #expect(events.suffix(2).map { $0.state["homeScore"] as? Int } == [1, 1])
            #expect(events.suffix(2).map { $0.state["awayScore"] as? Int } == [0, 1])
            let ids = events.compactMap(\.id)
            #expect(ids.count == 4 && ids.suffix(2) == [ids[3] - 1, ids[3]])
        }
    }

    @Test("reconnecting with Last-Event-ID misses nothing; a game's stream only carries that game")
    func resume() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1")),\(scheduled("g2"))]").status == 202)
            _ = try await server.waitForGame("g2", version: 1)
            let first = try await readEvents(server, "/v1/games/g1/stream", count: 1)
            let seen = try #require(first.events.first?.id)
            // While disconnected: changes to both games.
            let more = (1...3).map { run("g1", $0) } + [started("g2")]
            #expect(try await server.ingest("[" + more.joined(separator: ",") + "]").status == 202)
            _ = try await server.waitForGame("g1", version: 5)
            let resumed = try await readEvents(server, "/v1/games/g1/stream", lastEventID: seen, count: 3)
            #expect(resumed.events.map { $0.state["homeScore"] as? Int } == [1, 2, 3])
            #expect(resumed.events.allSatisfy { $0.state["gameId"] as? String == "g1" })
            #expect(resumed.events.compactMap(\.id).allSatisfy { $0 > seen })
            // From the very beginning of everything: every change of every game, in order.
            let all = try await readEvents(server, "/v1/stream", lastEventID: 0, count: 7)
            #expect(all.events.count == 7)
            let ids = all.events.compactMap(\.id)
            #expect(ids == ids.sorted())
        }
    }

    @Test("a client further behind than the server's memory is served from the table, in order")
    func fromTheTable() async throws {
        try await withServer(streamMemory: 2) { server in
            let messages = [scheduled("g1"), started("g1"), scheduled("g2")] + (1...6).map { run("g1", $0) }
            #expect(try await server.ingest("[" + messages.joined(separator: ",") + "]").status == 202)
            _ = try await server.waitForGame("g1", version: 8)
            let game = try await readEvents(server, "/v1/games/g1/stream", lastEventID: 0, count: 8)
            #expect(game.events.map { $0.state["version"] as? Int } == Array(1...8))
            let all = try await readEvents(server, "/v1/stream", lastEventID: 1, count: 8)
            let ids = all.events.compactMap(\.id)
            #expect(ids.count == 8 && ids == ids.sorted())
            // Memory holds only the newest two: a resume from the middle is read from the table too.
            let middle = try await readEvents(server, "/v1/games/g1/stream", lastEventID: ids[3], count: 4)
            #expect(middle.events.compactMap(\.id) == Array(ids.suffix(4)))
        }
    }

    @Test("404 for an unknown game, 400 for a malformed Last-Event-ID")
    func badRequests() async throws {
        try await withServer { server in
            #expect(try await server.request(.GET, "/v1/games/none/stream").status == 404)
            let bad = try await server.request(.GET, "/v1/stream", headers: [("Last-Event-ID", "abc")])
            #expect(bad.status == 400)
        }
    }
}
