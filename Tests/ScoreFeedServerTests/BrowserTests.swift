import AsyncHTTPClient
import ChildProcess
import Foundation
import Logging
import NIOCore
import ScoreFeedTesting
import Synchronization
import Testing
import WSClient

/// A headless Chromium (Debian's `chromium`) driven over the DevTools protocol.
final class Browser: Sendable {
    let debugger: String
    private let process: Task<Void, any Error>
    private let pid = ProcessID()

    /// Opens `url` in a new headless Chromium.
    init(opening url: String) async throws {
        let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let binary else {
            throw TestDatabaseError(
                "Debian's chromium is not installed: `apt-get install chromium` (scripts/test does)")
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
            .path
        let pid = self.pid
        process = Task {
            _ = try await ChildProcess.run(
                [
                    binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--user-data-dir=\(profile)", "--remote-debugging-port=0",
                    "--remote-allow-origins=*", url,
                ], started: { pid.set($0) })
        }
        var port = ""
        for _ in 0..<300 where port.isEmpty {
            let file = (try? String(contentsOfFile: profile + "/DevToolsActivePort", encoding: .utf8)) ?? ""
            port = file.split(separator: "\n").first.map(String.init) ?? ""
            if port.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard !port.isEmpty else { throw TestDatabaseError("chromium did not open its DevTools port") }
        var debugger = ""
        for _ in 0..<100 where debugger.isEmpty {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/json/list"), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            let targets = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [[String: Any]] ?? []
            debugger = targets.first { $0["type"] as? String == "page" }?["webSocketDebuggerUrl"] as? String ?? ""
            if debugger.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard !debugger.isEmpty else { throw TestDatabaseError("chromium shows no page") }
        self.debugger = debugger
    }

    /// Evaluates `expression` in the page until it gives `expected` (or `timeout` passes); returns
    /// the last value seen.
    func waitFor(_ expression: String, toBe expected: String, timeout: Duration = .seconds(20)) async throws -> String {
        let seen = Mutex<String>("")
        try await WebSocketClient.connect(url: debugger, logger: Logger(label: "cdp")) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            let deadline = ContinuousClock.now + timeout
            var id = 0
            while ContinuousClock.now < deadline {
                id += 1
                let request: [String: Any] = [
                    "id": id, "method": "Runtime.evaluate",
                    "params": ["expression": expression, "returnByValue": true],
                ]
                let text = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
                try await outbound.write(.text(text))
                while let message = try await messages.next() {
                    guard case .text(let reply) = message,
                        let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
                        object["id"] as? Int == id
                    else { continue }
                    let value = ((object["result"] as? [String: Any])?["result"] as? [String: Any])?["value"]
                    seen.withLock { $0 = value.map { "\($0)" } ?? "" }
                    break
                }
                if seen.withLock({ $0 }) == expected { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return seen.withLock { $0 }
    }

    /// Sends DevTools commands in order on one connection (settings such as the viewport last as long
    /// as it does) and returns each one's `result`.
    func call(_ commands: [(method: String, params: [String: Any])]) async throws -> [[String: Any]] {
        let requests = try commands.enumerated().map { index, command in
            let request: [String: Any] = ["id": index + 1, "method": command.method, "params": command.params]
            return String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        }
        let replies = Mutex<[String]>([])
        // Screenshots come back as one large frame.
        try await WebSocketClient.connect(
            url: debugger, configuration: .init(maxFrameSize: 64 << 20), logger: Logger(label: "cdp")
        ) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 64 << 20).makeAsyncIterator()
            for (index, request) in requests.enumerated() {
                try await outbound.write(.text(request))
                while let message = try await messages.next() {
                    guard case .text(let reply) = message, reply.contains("\"id\":\(index + 1),") else { continue }
                    replies.withLock { $0.append(reply) }
                    break
                }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return try replies.withLock { $0 }.map { reply in
            let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
            return object?["result"] as? [String: Any] ?? [:]
        }
    }

    /// A PNG of the page at a viewport of `width` × `height`, written to `path`.
    func screenshot(width: Int, height: Int, mobile: Bool, to path: String) async throws {
        let results = try await call([
            (
                "Emulation.setDeviceMetricsOverride",
                ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile]
            ),
            ("Runtime.evaluate", ["expression": "new Promise(r => setTimeout(r, 300))", "awaitPromise": true]),
            ("Page.captureScreenshot", ["format": "png"]),
        ])
        guard let base64 = results.last?["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw TestDatabaseError("chromium took no screenshot: \(results)")
        }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try png.write(to: URL(fileURLWithPath: path))
    }

    /// The value of `expression` in the page now, as text (a promise is awaited).
    func evaluate(_ expression: String) async throws -> String {
        let results = try await call([
            ("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        ])
        let value = (results.first?["result"] as? [String: Any])?["value"]
        return value.map { "\($0)" } ?? ""
    }

    /// At a viewport of `width` × `height`: the value of `measure` (evaluated in the page), then a PNG
    /// of each region `regions(measured)` gives (page coordinates, beyond the viewport too), written
    /// to its path. The viewport lasts as long as the connection, so everything happens in it.
    func atViewport(
        width: Int, height: Int, mobile: Bool, measure: String,
        regions: (String) throws -> [(path: String, x: Double, y: Double, width: Double, height: Double)]
    ) async throws -> String {
        let viewport: (method: String, params: [String: Any]) = (
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile]
        )
        let settle: (method: String, params: [String: Any]) = (
            "Runtime.evaluate", ["expression": "new Promise(r => setTimeout(r, 300))", "awaitPromise": true]
        )
        let measured = try await call([
            viewport, settle, ("Runtime.evaluate", ["expression": measure, "returnByValue": true]),
        ])
        let value = ((measured.last?["result"] as? [String: Any])?["value"]).map { "\($0)" } ?? ""
        let wanted = try regions(value)
        let shots = try await call(
            [viewport, settle]
                + wanted.map { region in
                    (
                        "Page.captureScreenshot",
                        [
                            "format": "png", "captureBeyondViewport": true,
                            "clip": [
                                "x": region.x, "y": region.y, "width": region.width, "height": region.height,
                                "scale": 1,
                            ],
                        ]
                    )
                })
        for (region, result) in zip(wanted, shots.dropFirst(2)) {
            guard let base64 = result["data"] as? String, let png = Data(base64Encoded: base64) else {
                throw TestDatabaseError("chromium took no screenshot of \(region.path): \(result)")
            }
            try FileManager.default.createDirectory(
                atPath: (region.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try png.write(to: URL(fileURLWithPath: region.path))
        }
        return value
    }

    func close() async {
        pid.signal(SIGTERM)
        _ = try? await process.value
    }
}

@Suite("the scoreboard page in a real browser")
struct BrowserTests {
    @Test("headless Chromium shows a posted run without a reload")
    func liveScore() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1"))]").status == 202)
            _ = try await server.waitForGame("g1", version: 2)
            let browser = try await Browser(opening: server.base + "/")
            do {
                let score =
                    #"['.away .runs', '.home .runs'].map(s => document.querySelector('[data-game="g1"] ' + s)?.textContent).join(' – ')"#
                #expect(try await browser.waitFor(score, toBe: "0 – 0") == "0 – 0")
                #expect(
                    try await browser.waitFor("document.getElementById('connection').textContent", toBe: "live")
                        == "live")
                // The page stays open; the server gets a run and the card changes in place.
                #expect(try await server.ingest("[\(run("g1", 1, team: "away"))]").status == 202)
                #expect(try await browser.waitFor(score, toBe: "1 – 0") == "1 – 0")
                let status = #"document.querySelector('[data-game="g1"] .status-word')?.textContent ?? ''"#
                #expect(try await browser.waitFor(status, toBe: "Live") == "Live")
            } catch {
                await browser.close()
                throw error
            }
            await browser.close()
        }
    }

    @Test("cards show the lock screen (diamond, status in words, start); the day picker and filter; the game link")
    func scoreboard() async throws {
        try await withServer { server in
            // Two games on two days; g1 has an activity, so its card has a push line.
            #expect(try await server.ingest(scheduled("g1")).status == 202)
            #expect(try await server.ingest(scheduled("g2", startsAt: "2026-05-02T23:05:00Z")).status == 202)
            let register = try await server.request(
                .POST, "/v1/games/g1/activities",
                body: #"{"pushToken":"\#(String(repeating: "ab", count: 32))","bundleId":"com.example.scores"}"#,
                headers: [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")])
            #expect(register.status == 201, "\(register.body)")
            let bases =
                #"{"id":"g1-b1","gameId":"g1","at":"2026-05-01T23:07:00Z","type":"bases.changed","first":true,"third":true}"#
            #expect(try await server.ingest("[\(started("g1")),\(run("g1", 1, team: "away")),\(bases)]").status == 202)
            _ = try await server.waitForGame("g1", version: 4)
            let browser = try await Browser(opening: server.base + "/")
            do {
                let cardOf = { (game: String, selector: String) in
                    #"document.querySelector('[data-game="\#(game)"] \#(selector)')"#
                }
                // One day is shown: the 1st (the latest day with games before today is the 2nd; pick the 1st).
                let pick = { (day: String) in
                    #"(() => { const s = document.getElementById('day'); s.value = '\#(day)'; s.dispatchEvent(new Event('change')); return s.value; })()"#
                }
                #expect(try await browser.waitFor(pick("2026-05-01"), toBe: "2026-05-01") == "2026-05-01")
                let runners =
                    #"['first','second','third'].map(b => \#(cardOf("g1", ".diamond .' + b + '")).classList.contains('on') ? 1 : 0).join('')"#
                #expect(try await browser.waitFor(runners, toBe: "101") == "101")
                #expect(
                    try await browser.waitFor(cardOf("g1", ".status-word") + ".textContent", toBe: "Live") == "Live")
                #expect(try await browser.waitFor(cardOf("g1", ".away .code") + ".textContent", toBe: "NYY") == "NYY")
                #expect(
                    try await browser.waitFor(cardOf("g1", ".away .name") + ".textContent", toBe: "New York Yankees")
                        == "New York Yankees")
                #expect(try await browser.waitFor(cardOf("g1", ".away .runs") + ".textContent", toBe: "1") == "1")
                #expect(
                    try await browser.waitFor("String(!!" + cardOf("g1", ".start") + ".textContent)", toBe: "true")
                        == "true")
                #expect(try await browser.waitFor("String(" + cardOf("g2", "") + " === null)", toBe: "true") == "true")
                // A posted bases.changed moves the runners without a reload.
                let moved =
                    #"{"id":"g1-b2","gameId":"g1","at":"2026-05-01T23:08:00Z","type":"bases.changed","second":true}"#
                #expect(try await server.ingest(moved).status == 202)
                #expect(try await browser.waitFor(runners, toBe: "010") == "010")
                // The push line comes with the day's request.
                #expect(
                    try await browser.waitFor(
                        "String(" + cardOf("g1", ".push") + ".textContent.startsWith('last push'))", toBe: "true")
                        == "true")
                // The status filter: g1 is live, so "Scheduled" hides it and "Live" shows it.
                let filterTo = { (name: String) in
                    #"(() => { document.querySelector('.filters [data-filter="\#(name)"]').click(); return String(\#(cardOf("g1", "")).hidden); })()"#
                }
                #expect(try await browser.waitFor(filterTo("scheduled"), toBe: "true") == "true")
                #expect(try await browser.waitFor(filterTo("live"), toBe: "false") == "false")
                _ = try await browser.waitFor(filterTo("all"), toBe: "false")
                // A card opens the game's page (its operator view is linked there).
                let link = cardOf("g1", ".open") + ".getAttribute('href')"
                #expect(try await browser.waitFor(link, toBe: "/games/g1") == "/games/g1")
                // Screenshots for a person to look at (not committed).
                let folder = repositoryRoot.appendingPathComponent(".build/screenshots").path
                try await browser.screenshot(
                    width: 1280, height: 900, mobile: false, to: folder + "/scoreboard-1280x900.png")
                try await browser.screenshot(
                    width: 390, height: 844, mobile: true, to: folder + "/scoreboard-390x844.png")
                print("scoreboard screenshots in \(folder)")
                // The other day: only g2, scheduled.
                #expect(try await browser.waitFor(pick("2026-05-02"), toBe: "2026-05-02") == "2026-05-02")
                #expect(try await browser.waitFor("String(" + cardOf("g1", "") + " === null)", toBe: "true") == "true")
                #expect(
                    try await browser.waitFor(cardOf("g2", ".status-word") + "?.textContent ?? ''", toBe: "Scheduled")
                        == "Scheduled")
                // A URL per day: the picked day is in the address, and that address opens on it.
                #expect(try await browser.waitFor("location.search", toBe: "?day=2026-05-02") == "?day=2026-05-02")
            } catch {
                await browser.close()
                throw error
            }
            await browser.close()
            let opened = try await Browser(opening: server.base + "/?day=2026-05-01")
            do {
                let shown =
                    "document.getElementById('day').value + ' ' + String(!!document.querySelector('[data-game=\"g1\"]'))"
                #expect(try await opened.waitFor(shown, toBe: "2026-05-01 true") == "2026-05-01 true")
            } catch {
                await opened.close()
                throw error
            }
            await opened.close()
        }
    }
}
