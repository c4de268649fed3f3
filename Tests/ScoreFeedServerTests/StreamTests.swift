import AsyncHTTPClient
import Foundation
import NIOCore
import ScoreFeedServer
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

/// The value of one series of `GET /metrics` (its name and labels as printed), 0 when absent.
func metric(_ server: RunningServer, _ series: String) async throws -> Double {
    let text = try await server.request(.GET, "/metrics").body
    let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
    return line.flatMap { Double($0.dropFirst(series.count + 1)) } ?? 0
}

/// The `version` of a state event's data.
private func version(_ data: String) -> Int? {
    ((try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any])?["version"] as? Int
}

/// Stream limits for a test, checked every 100 ms (the queue unbounded unless given).
private func streams(
    maxClients: Int = 1000, queue: Int = 100_000, writeTimeout: Duration = .seconds(60)
) -> @Sendable (inout ServerConfiguration) -> Void {
    { configuration in
        configuration.streams.maxClients = maxClients
        configuration.streams.queue = queue
        configuration.streams.writeTimeout = writeTimeout
        configuration.streams.checkInterval = .milliseconds(100)
    }
}

/// A game whose states are large (about 1.3 KB: two 512-character logos), so few changes fill a connection.
private func largeGame(_ gameId: String) -> String {
    let logo = "https://example.com/" + String(repeating: "l", count: 492)
    return """
        [{"id":"\(gameId)-s","gameId":"\(gameId)","at":"2026-05-01T12:00:00Z","type":"game.scheduled",\
        "home":{"code":"BOS","name":"Boston Red Sox","logo":"\(logo)"},\
        "away":{"code":"NYY","name":"New York Yankees","logo":"\(logo)"},"startsAt":"2026-05-01T23:05:00Z"},\
        \(started(gameId))]
        """
}

/// Posts base changes of `gameId` 250 at a time (numbered after `posted`) until `done` holds; returns
/// how many it posted. The kernel buffers some 3 MB of a connection whose reader stops: a few thousand.
private func postChanges(
    _ server: RunningServer, _ gameId: String, until done: () async throws -> Bool
) async throws -> Int {
    var posted = 0
    while try await !done() {
        try #require(posted < 10_000, "the server did not end the stream")
        let batch = (posted + 1...posted + 250).map {
            #"{"id":"\#(gameId)-b\#($0)","gameId":"\#(gameId)","at":"2026-05-01T23:10:00Z","type":"bases.changed","first":\#($0 % 2 == 0)}"#
        }
        let reply = try await server.ingest("[" + batch.joined(separator: ",") + "]")
        #expect(reply.status == 202, "\(reply.body)")
        posted += 250
        try await Task.sleep(for: .milliseconds(100))
    }
    return posted
}

@Suite("live stream limits (SSE)")
struct StreamLimitTests {
    @Test(
        "a client that stops reading is ended past its queue, the last line saying why; it resumes missing nothing",
        .timeLimit(.minutes(2)))
    func slowClient() async throws {
        try await withServer(configure: streams(queue: 20)) { server in
            #expect(try await server.ingest(largeGame("g1")).status == 202)
            _ = try await server.waitForGame("g1", version: 2)
            let (items, posted) = try await StreamSocket.with(server, "/v1/games/g1/stream") { stream in
                #expect(stream.status == 200)
                let first = try await stream.next()
                // Stops reading: the changes fill the connection until the server's writes wait.
                let posted = try await postChanges(server, "g1") {
                    try await metric(server, #"scorefeed_stream_disconnects_total{reason="too-slow"}"#) >= 1
                }
                #expect(try await metric(server, "scorefeed_stream_clients") == 0)
                return ([first].compactMap { $0 } + (try await stream.rest()), posted)
            }
            guard case .comment(let why)? = items.last else {
                Issue.record("the stream did not end with a comment: \(String(describing: items.last))")
                return
            }
            #expect(why.hasPrefix("too slow: ") && why.hasSuffix(" changes behind; reconnect with Last-Event-ID"))
            var seen: [(id: Int, version: Int)] = items.compactMap {
                guard case .event(let id?, let data) = $0, let version = version(data) else { return nil }
                return (id, version)
            }
            #expect(seen.first?.version == 2)
            #expect(seen.count < posted, "the client was ended before it had everything")
            // Reconnecting with the last id it saw: every change after it, none missing.
            let last = try #require(seen.last)
            let total = posted + 2
            try await StreamSocket.with(server, "/v1/games/g1/stream", lastEventID: last.id) { stream in
                while seen.last?.version ?? 0 < total, case .event(let id?, let data)? = try await stream.next() {
                    seen.append((id, version(data) ?? 0))
                }
            }
            #expect(seen.map(\.version) == Array(2...total))
            #expect(seen.map(\.id) == seen.map(\.id).sorted())
        }
    }

    @Test(
        "a client that leaves a write waiting past the deadline is cut and its place given back",
        .timeLimit(.minutes(2)))
    func notReading() async throws {
        try await withServer(configure: streams(writeTimeout: .seconds(1))) { server in
            #expect(try await server.ingest(largeGame("g1")).status == 202)
            _ = try await server.waitForGame("g1", version: 2)
            try await StreamSocket.with(server, "/v1/stream") { stream in
                _ = try await stream.next()
                #expect(try await metric(server, "scorefeed_stream_clients") == 1)
                _ = try await postChanges(server, "g1") {
                    try await metric(server, #"scorefeed_stream_disconnects_total{reason="not-reading"}"#) >= 1
                }
                #expect(try await metric(server, "scorefeed_stream_clients") == 0)
            }
        }
    }

    @Test("past the node's stream limit: 503 with Retry-After; a place is free again as soon as a client leaves")
    func clientLimit() async throws {
        try await withServer(configure: streams(maxClients: 2)) { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            _ = try await server.waitForGame("g1", version: 1)
            try await StreamSocket.with(server, "/v1/stream") { first in
                _ = try await first.next()
                try await StreamSocket.with(server, "/v1/games/g1/stream") { second in
                    _ = try await second.next()
                    let refused = try await server.request(.GET, "/v1/stream")
                    #expect(refused.status == 503)
                    #expect(refused.headers.first(name: "Retry-After") == "5")
                    #expect(refused.errorCode == "too-many-streams")
                    #expect(
                        try await metric(server, #"scorefeed_stream_disconnects_total{reason="refused"}"#) == 1)
                }
                try await waitForStreams(server, 1, within: .seconds(2))
                let again = try await readEvents(server, "/v1/games/g1/stream", count: 1)
                #expect(again.status == 200 && again.events.count == 1)
            }
        }
    }

    @Test("scorefeed_stream_clients drops as soon as clients leave, not at the next keep-alive")
    func gaugeDrops() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            _ = try await server.waitForGame("g1", version: 1)
            try await StreamSocket.with(server, "/v1/stream") { first in
                _ = try await first.next()
                try await StreamSocket.with(server, "/v1/games/g1/stream", lastEventID: 0) { second in
                    _ = try await second.next()
                    #expect(try await metric(server, "scorefeed_stream_clients") == 2)
                }
                try await waitForStreams(server, 1, within: .seconds(2))
            }
            try await waitForStreams(server, 0, within: .seconds(2))
            // A client of another library, abandoning its response, is noticed as promptly.
            _ = try await readEvents(server, "/v1/stream", count: 1)
            try await waitForStreams(server, 0, within: .seconds(2))
        }
    }
}

/// Waits until `scorefeed_stream_clients` is `count`, failing after `limit`.
private func waitForStreams(_ server: RunningServer, _ count: Double, within limit: Duration) async throws {
    let start = ContinuousClock.now
    while try await metric(server, "scorefeed_stream_clients") != count {
        try #require(ContinuousClock.now - start < limit, "scorefeed_stream_clients did not reach \(count) in \(limit)")
        try await Task.sleep(for: .milliseconds(50))
    }
}
