import Foundation
import ScoreFeedTesting
import Testing

extension BrowserTests {
    @Test("/games/{id}: a fan's page of one game, its card and scoring plays, live; nothing overflows at 390 px")
    func gamePage() async throws {
        let lines = try String(
            contentsOf: repositoryRoot.appendingPathComponent("fixtures/sports/league-win.jsonl"), encoding: .utf8
        ).split(separator: "\n").map(String.init)
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any] ?? [:]
        let gameId = try #require(first["gameId"] as? String)
        // Soccer names the home side first, as its card does.
        let soccer = first["sport"] as? String == "soccer"
        // The first half of the game now, the rest once the page is open.
        let half = lines.count / 2
        try await withServer { server in
            #expect(
                try await server.ingest(lines[..<half].joined(separator: "\n"), type: "application/x-ndjson").status
                    == 202)
            _ = try await server.waitForGame(gameId, version: half)
            // A fan's Live Activity, so the rest of the game is pushed (the lock screen preview draws them).
            let register = try await server.request(
                .POST, "/v1/games/\(gameId)/activities",
                body: #"{"pushToken":"\#(String(repeating: "cd", count: 32))","bundleId":"com.example.scores"}"#,
                headers: [("Authorization", "Bearer \(appKey)"), ("Content-Type", "application/json")])
            #expect(register.status == 201, "\(register.body)")
            let early = try await server.request(.GET, "/v1/games/\(gameId)")
            let earlyPlays = (early.object["scoring"] as? [Any])?.count ?? -1
            let browser = try await Browser(opening: server.base + "/games/\(gameId)")
            do {
                let plays = "String(document.querySelectorAll('#plays li:not(.empty)').length)"
                let shown =
                    "document.body.classList.contains('game-page') + ' ' + document.querySelectorAll('.card').length"
                #expect(try await browser.waitFor(shown, toBe: "true 1") == "true 1")
                #expect(try await browser.waitFor(plays, toBe: "\(earlyPlays)") == "\(earlyPlays)")
                #expect(
                    try await browser.waitFor("document.getElementById('connection').textContent", toBe: "live")
                        == "live")
                #expect(
                    try await server.ingest(lines[half...].joined(separator: "\n"), type: "application/x-ndjson").status
                        == 202)
                _ = try await server.waitForGame(gameId, version: lines.count)
                let final = try await server.request(.GET, "/v1/games/\(gameId)")
                let finalPlays = try #require(final.object["scoring"] as? [[String: Any]])
                #expect(try await browser.waitFor(plays, toBe: "\(finalPlays.count)") == "\(finalPlays.count)")
                let last = try #require(finalPlays.last)
                let (one, two) = soccer ? ("homeScore", "awayScore") : ("awayScore", "homeScore")
                let score = "\(last[one] ?? "")–\(last[two] ?? "")"
                let lastText = "document.querySelector('#plays li:last-child .score').textContent.includes('\(score)')"
                #expect(try await browser.waitFor("String(\(lastText))", toBe: "true") == "true")
                // The lock screen as the newest push left it: the final score, in words.
                let home = final.object["homeScore"] as? Int ?? -1
                let away = final.object["awayScore"] as? Int ?? -1
                let lock =
                    "[...document.querySelectorAll('#lock .lock-score')].map(e => e.textContent).join('-') + ' '"
                    + " + (document.querySelector('#lock .lock-top span:last-child')?.textContent ?? '')"
                let scores = soccer ? "\(home)-\(away)" : "\(away)-\(home)"
                #expect(try await browser.waitFor(lock, toBe: "\(scores) Final") == "\(scores) Final")
                let folder = repositoryRoot.appendingPathComponent(".build/screenshots").path
                let width = try await browser.atViewport(
                    width: 390, height: 844, mobile: true, measure: "String(document.documentElement.scrollWidth)"
                ) { _ in [(folder + "/game-page-390x844.png", 0, 0, 390, 844)] }
                #expect(Int(width) ?? 0 <= 390, "the game page is \(width) px wide at 390")
                // An unknown game says so.
                let unknown = try await Browser(opening: server.base + "/games/no-such-game")
                let empty = "document.getElementById('empty')?.textContent ?? ''"
                #expect(
                    try await unknown.waitFor(empty, toBe: "No game \"no-such-game\".") == "No game \"no-such-game\".")
                await unknown.close()
            } catch {
                await browser.close()
                throw error
            }
            await browser.close()
        }
    }
}
