import Foundation
import ScoreFeedServer
import ScoreFeedTesting
import Testing
import Yams

@Suite("operations: health, readiness, metrics, the OpenAPI document, the scoreboard page")
struct OperationsTests {
    @Test("healthz and readyz answer 200 with JSON")
    func health() async throws {
        try await withServer { server in
            for path in ["/healthz", "/readyz"] {
                let reply = try await server.request(.GET, path)
                #expect(reply.status == 200)
                #expect(reply.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
            }
            let health = try await server.request(.GET, "/healthz")
            #expect((health.object["version"] as? String)?.split(separator: ".").count == 3)
        }
    }

    @Test("metrics in Prometheus format count appends, lag, outbox depth, pushes and coalesced updates")
    func metrics() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1"))]").status == 202)
            _ = try await server.ingest("[\(started("g1"))]")
            _ = try await server.ingest("[]")
            _ = try await server.waitForGame("g1", version: 2)
            let reply = try await server.request(.GET, "/metrics")
            #expect(reply.status == 200)
            #expect(reply.headers.first(name: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let lines = reply.body.split(separator: "\n").map(String.init)
            for expected in [
                "scorefeed_events_appended_total 2", "scorefeed_events_duplicate_total 1",
                #"scorefeed_ingest_refused_total{status="400"} 1"#, "scorefeed_projection_lag_events 0",
                "scorefeed_outbox_depth 0", "scorefeed_updates_coalesced_total 0",
            ] {
                #expect(lines.contains { $0 == expected || $0 == expected + ".0" }, "\(expected) in \(reply.body)")
            }
            #expect(lines.contains { $0.hasPrefix("# TYPE scorefeed_events_appended_total counter") })
        }
    }

    @Test("every metric family on /metrics has one HELP and one TYPE line, before its samples")
    func metricsHelp() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1"))]").status == 202)
            _ = try await server.ingest("[]")
            _ = try await server.waitForGame("g1", version: 2)
            let reply = try await server.request(.GET, "/metrics")
            #expect(reply.status == 200)
            let lines = reply.body.split(separator: "\n").map(String.init)
            let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/server.md"), encoding: .utf8)
            let families = Set(
                lines.filter { !$0.hasPrefix("#") }.map { String($0.prefix { $0 != "{" && $0 != " " }) })
            #expect(families.count >= 15, "\(families.sorted())")
            for family in families {
                let help = lines.indices.filter { lines[$0].hasPrefix("# HELP \(family) ") }
                let type = lines.indices.filter {
                    lines[$0] == "# TYPE \(family) counter" || lines[$0] == "# TYPE \(family) gauge"
                }
                let first = lines.firstIndex { $0.hasPrefix(family + "{") || $0.hasPrefix(family + " ") }
                #expect(help.count == 1 && type.count == 1, "\(family) in \(reply.body)")
                #expect(family.hasPrefix("scorefeed_"), "\(family)")
                if let help = help.first, let type = type.first, let first {
                    #expect(help < type && type < first, "\(family) in \(reply.body)")
                    let text = lines[help].dropFirst("# HELP \(family) ".count)
                    #expect(text.count > 10 && docs.contains("| \(text) |"), "\(family)'s help in docs/server.md")
                }
            }
        }
    }

    @Test("docs/openapi.yaml describes exactly the routes the server has, and their answers")
    func openAPI() async throws {
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        var documented: [String: [String]] = [:]
        for (path, item) in paths {
            let operations = (item as? [String: Any] ?? [:]).filter {
                ["get", "post", "put", "patch", "delete"].contains($0.key)
            }
            for (method, operation) in operations {
                let responses = ((operation as? [String: Any])?["responses"] as? [String: Any]) ?? [:]
                documented["\(method.uppercased()) \(path)"] = Array(responses.keys)
            }
        }
        let table = ScoreFeedServer(
            configuration: ServerConfiguration(), databaseURL: "unused", apns: nil, logger: quietLogger
        ).routes
        let routes = Set(table.map { "\($0.method) \($0.path)" })
        #expect(Set(documented.keys) == routes)
        let answers = documented
        // Every route answers one of its documented statuses to a plain request.
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1"))]").status == 202)
            for route in table where !route.path.hasSuffix("stream") {
                let path = route.path.replacingOccurrences(of: "{id}", with: "g1")
                    .replacingOccurrences(of: "{token}", with: String(repeating: "ab", count: 16))
                let reply = try await server.request(.init(rawValue: route.method), path)
                let statuses = answers["\(route.method) \(route.path)"] ?? []
                #expect(statuses.contains(String(reply.status)), "\(route.method) \(path) → \(reply.status)")
            }
        }
    }

    @Test("the scoreboard page is self-contained: no external script, style or font")
    func scoreboardPage() async throws {
        try await withServer { server in
            let page = try await server.request(.GET, "/")
            #expect(page.status == 200)
            #expect(page.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.body.contains("listen(\"/v1/stream\")"))
            let game = try await server.request(.GET, "/games/any-game")
            #expect(game.status == 200)
            #expect(game.body == page.body)
            #expect(!page.body.contains("src=\"http"))
            #expect(!page.body.contains("href=\"http"))
            #expect(!page.body.contains("@import"))
        }
    }
}
