import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import ScoreFeedServer

/// Sets short connection timeouts (seconds).
private func timeouts(header: Double = 30, idle: Double = 30, body: Double = 30, cap: Int? = nil)
    -> @Sendable (inout ServerConfiguration) -> Void
{
    { configuration in
        configuration.headerTimeout = .milliseconds(Int(header * 1000))
        configuration.idleTimeout = .milliseconds(Int(idle * 1000))
        configuration.bodyTimeout = .milliseconds(Int(body * 1000))
        configuration.maxConnections = cap
    }
}

/// The value of the metric line starting with `series` in Prometheus text.
private func value(of series: String, in metrics: String) -> Double? {
    metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
}

private let healthz = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"

@Suite("connection limits")
struct ConnectionLimitTests {
    @Test("a connection that sends nothing is closed at the header timeout, and counted")
    func silentConnection() async throws {
        try await withServer(configure: timeouts(header: 0.5)) { server in
            let raw = try await RawConnection.open(server.base)
            #expect(try await !raw.closes(within: .milliseconds(300)))
            #expect(try await raw.closes(within: .seconds(3)))
            let metrics = try await server.request(.GET, "/metrics").body
            #expect(metrics.contains(#"scorefeed_http_connections_closed_total{reason="header-timeout"} 1"#))
            #expect(metrics.contains("scorefeed_http_connections_max "))
        }
    }

    @Test("a slowloris sending a byte every 250 ms is closed at the header timeout from its opening")
    func slowloris() async throws {
        try await withServer(configure: timeouts(header: 1)) { server in
            let raw = try await RawConnection.open(server.base)
            try await raw.send("GET /healthz HTTP/1.1\r\n")
            var sent = 0
            while raw.channel.isActive && sent < 20 {
                try? await raw.send("X")
                sent += 1
                try await Task.sleep(for: .milliseconds(250))
            }
            let open = ContinuousClock.now - raw.openedAt
            #expect(!raw.channel.isActive)
            #expect(open < .milliseconds(2500), "open for \(open)")
            #expect(sent >= 3)
        }
    }

    @Test("a keep-alive connection is closed after the idle timeout, not before its answer")
    func idleKeepAlive() async throws {
        try await withServer(configure: timeouts(header: 10, idle: 0.5)) { server in
            let raw = try await RawConnection.open(server.base)
            try await raw.send(healthz)
            #expect(try await raw.waitFor("HTTP/1.1 200"))
            let answered = ContinuousClock.now
            #expect(try await raw.closes(within: .seconds(3)))
            #expect(ContinuousClock.now - answered >= .milliseconds(400))
        }
    }

    @Test("a request body that stops arriving is closed at the body timeout")
    func stalledBody() async throws {
        try await withServer(configure: timeouts(body: 0.5)) { server in
            let raw = try await RawConnection.open(server.base)
            try await raw.send(
                "POST /v1/feed HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ingestKey)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n[{\"id\":")
            #expect(try await !raw.closes(within: .milliseconds(300)))
            #expect(try await raw.closes(within: .seconds(3)))
            let metrics = try await server.request(.GET, "/metrics").body
            #expect(metrics.contains(#"scorefeed_http_connections_closed_total{reason="body-timeout"} 1"#))
        }
    }

    @Test("a live stream outlives every timeout")
    func streamIsNotCut() async throws {
        try await withServer(configure: timeouts(header: 0.3, idle: 0.3, body: 0.3)) { server in
            let raw = try await RawConnection.open(server.base)
            try await raw.send("GET /v1/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try await raw.waitFor("HTTP/1.1 200"))
            #expect(try await !raw.closes(within: .seconds(2)))
            await raw.close()
        }
    }

    @Test("at the cap, half-open connections are closed oldest first and a well-behaved client is served")
    func capEvictsOldestHalfOpen() async throws {
        try await withServer(configure: timeouts(cap: 20)) { server in
            var halfOpen: [RawConnection] = []
            for _ in 0..<30 {
                let raw = try await RawConnection.open(server.base)
                try await raw.send("GET /heal")
                halfOpen.append(raw)
                try await Task.sleep(for: .milliseconds(40))
            }
            let client = try await RawConnection.open(server.base)
            try await client.send(healthz)
            #expect(try await client.waitFor("HTTP/1.1 200"))
            // 20 places: the harness's idle kept-alive connection and 19 half-open; the first eleven
            // half-open made room for the last eleven, the twelfth for the client (the idle one stays).
            for raw in halfOpen.prefix(12) { #expect(try await raw.closes(within: .seconds(2))) }
            for raw in halfOpen.suffix(18) { #expect(raw.channel.isActive) }
            let metrics = try await server.request(.GET, "/metrics").body
            #expect(metrics.contains("scorefeed_http_connections_max 20"))
            #expect(value(of: #"scorefeed_http_connections_closed_total{reason="evicted"}"#, in: metrics) ?? 0 >= 12)
            for raw in halfOpen + [client] { await raw.close() }
        }
    }

    @Test("at the cap, an idle kept-alive connection older than the half-open ones outlives them and still posts")
    func capKeepsIdleKeptAlive() async throws {
        try await withServer(configure: timeouts(cap: 10)) { server in
            let provider = try await RawConnection.open(server.base)
            try await provider.send(healthz)
            #expect(try await provider.waitFor("HTTP/1.1 200"))
            try await Task.sleep(for: .milliseconds(100))
            var halfOpen: [RawConnection] = []
            for _ in 0..<20 {
                let raw = try await RawConnection.open(server.base)
                try await raw.send("GET /heal")
                halfOpen.append(raw)
                try await Task.sleep(for: .milliseconds(20))
            }
            // 10 places: the provider, the harness's idle connection and 8 half-open; the 12 newest made
            // room by closing the 12 oldest half-open ones.
            for raw in halfOpen.prefix(12) { #expect(try await raw.closes(within: .seconds(2))) }
            #expect(provider.channel.isActive)
            let body = scheduled("g1")
            try await provider.send(
                "POST /v1/feed HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ingestKey)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(try await provider.waitFor("HTTP/1.1 202"))
            for raw in halfOpen + [provider] { await raw.close() }
        }
    }

    @Test("at the cap with every connection busy, a new one is closed and the server keeps accepting")
    func capRefusesWhenAllBusy() async throws {
        try await withServer(configure: timeouts(cap: 2)) { server in
            var streams: [RawConnection] = []
            for _ in 0..<2 {
                let raw = try await RawConnection.open(server.base)
                try await raw.send("GET /v1/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(try await raw.waitFor("HTTP/1.1 200"))
                streams.append(raw)
            }
            let refused = try await RawConnection.open(server.base)
            #expect(try await refused.closes(within: .seconds(2)))
            #expect(refused.text.isEmpty)
            await streams[0].close()
            try await Task.sleep(for: .milliseconds(200))
            let metrics = try await server.request(.GET, "/metrics").body
            #expect(value(of: #"scorefeed_http_connections_closed_total{reason="refused"}"#, in: metrics) == 1)
            #expect(streams[1].channel.isActive)
            await streams[1].close()
        }
    }

    @Test("an accepted TCP connection gets keepalive (30 s idle, 10 s apart, 3 probes) and a 60 s user timeout")
    func socketOptions() async throws {
        #expect(ConnectionLimits.socketOptions.map(\.value) == [1, 30, 10, 3, 60_000])
        let group = MultiThreadedEventLoopGroup.singleton
        let accepted = group.next().makePromise(of: (any Channel).self)
        let listener = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try ConnectionLimits.setSocketOptions(channel)
                    accepted.succeed(channel)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: group).connect(to: try #require(listener.localAddress)).get()
        let channel = try await accepted.futureResult.get()
        for (option, value) in ConnectionLimits.socketOptions {
            #expect(try await channel.getOption(option).get() == value, "\(option)")
        }
        try await client.close()
        try await listener.close()
    }

    @Test("a 413 answer closes the connection without waiting for the announced body")
    func tooLargeCloses() async throws {
        try await withServer { server in
            let raw = try await RawConnection.open(server.base)
            try await raw.send(
                "POST /v1/feed HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ingestKey)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 52428800\r\n\r\n[")
            #expect(try await raw.closes(within: .seconds(2)))
            #expect(raw.text.hasPrefix("HTTP/1.1 413"))
            #expect(raw.text.lowercased().contains("connection: close"))
            #expect(raw.text.contains(#""code":"body-too-large""#))
        }
    }

    @Test("a known path with another method is 405 with Allow and a JSON error, on every route")
    func methodNotAllowed() async throws {
        try await withServer { server in
            let put = try await server.request(.PUT, "/v1/feed")
            #expect(put.status == 405)
            #expect(put.headers["Allow"] == ["POST"])
            #expect(put.errorCode == "method-not-allowed")
            let routes = try #require(server.server).routes
            for path in Set(routes.map(\.path)) {
                let allowed = routes.filter { $0.path == path }.map(\.method)
                let concrete = path.replacingOccurrences(of: "{id}", with: "g1")
                    .replacingOccurrences(of: "{token}", with: "t1")
                let reply = try await server.request(.PUT, concrete)
                #expect(reply.status == 405, "PUT \(path)")
                #expect(reply.headers["Allow"] == [allowed.joined(separator: ", ")], "PUT \(path)")
                #expect(reply.errorCode == "method-not-allowed", "PUT \(path)")
            }
            #expect(try await server.request(.PUT, "/v1/nothing").status == 404)
        }
    }
}
