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
                let score = #"document.querySelector('[data-game="g1"] .score')?.textContent ?? ''"#
                #expect(try await browser.waitFor(score, toBe: "0 – 0") == "0 – 0")
                #expect(
                    try await browser.waitFor("document.getElementById('connection').textContent", toBe: "live")
                        == "live")
                // The page stays open; the server gets a run and the card changes in place.
                #expect(try await server.ingest("[\(run("g1", 1, team: "away"))]").status == 202)
                #expect(try await browser.waitFor(score, toBe: "1 – 0") == "1 – 0")
                let inning = #"document.querySelector('[data-game="g1"] .status')?.textContent ?? ''"#
                #expect(try await browser.waitFor(inning, toBe: "inprogress") == "inprogress")
            } catch {
                await browser.close()
                throw error
            }
            await browser.close()
        }
    }
}
