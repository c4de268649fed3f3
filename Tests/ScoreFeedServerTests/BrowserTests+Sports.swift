import Foundation
import ScoreFeedTesting
import Testing

/// A game written in the canonical feed format (docs/sports.md), its times counted back from `now`,
/// so a running clock shows in the browser what a live game's would.
struct WrittenGame {
    let gameId: String
    let now: Date
    private(set) var lines: [String] = []

    /// Starts with `game.scheduled` of `sport` in `competition` (nil: baseball), starting two hours
    /// before `now`.
    init(
        _ gameId: String, sport: String? = nil, competition: String? = nil, home: (String, String),
        away: (String, String), now: Date
    ) {
        self.gameId = gameId
        self.now = now
        let setup =
            (sport.map { #""sport":"\#($0)","# } ?? "") + (competition.map { #""competition":"\#($0)","# } ?? "")
        add(
            "game.scheduled", ago: 86_400,
            setup + #""home":{"code":"\#(home.0)","name":"\#(home.1)","logo":""},"#
                + #""away":{"code":"\#(away.0)","name":"\#(away.1)","logo":""},"startsAt":"\#(Self.text(now - 7200))""#)
    }

    /// One message of type `type`, `seconds` before `now`, with `fields` (JSON members) besides.
    mutating func add(_ type: String, ago seconds: Int, _ fields: String = "") {
        let at = Self.text(now - Double(seconds))
        lines.append(
            #"{"id":"\#(gameId)-\#(lines.count + 1)","gameId":"\#(gameId)","at":"\#(at)","type":"\#(type)""#
                + (fields.isEmpty ? "" : "," + fields) + "}")
    }

    /// A scoring play (`points.scored`).
    mutating func score(_ team: String, _ kind: String, ago seconds: Int) {
        add("points.scored", ago: seconds, #""team":"\#(team)","kind":"\#(kind)""#)
    }

    /// The messages from the `from`th on as one feed batch.
    func batch(from: Int = 0) -> String { "[" + lines[from...].joined(separator: ",") + "]" }

    private static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }
}

/// One live game per sport, as the scoreboard test ingests them.
enum LiveGames {
    /// NYY at BOS, top of the 5th, one out, runners on first and third; 2–2.
    static func baseball(_ now: Date) -> WrittenGame {
        var game = WrittenGame("b1", home: ("BOS", "Boston Red Sox"), away: ("NYY", "New York Yankees"), now: now)
        game.add("game.started", ago: 5400)
        game.add("run.scored", ago: 5300, #""team":"away""#)
        game.add("inning.changed", ago: 5000, #""inning":1,"half":"bottom""#)
        game.add("run.scored", ago: 4900, #""team":"home","runs":2"#)
        game.add("inning.changed", ago: 4000, #""inning":3,"half":"top""#)
        game.add("run.scored", ago: 3900, #""team":"away""#)
        game.add("inning.changed", ago: 1200, #""inning":5,"half":"top""#)
        game.add("out.recorded", ago: 900)
        game.add("bases.changed", ago: 800, #""first":true,"third":true"#)
        return game
    }

    /// ARS (home) v TOT, league soccer, second half in stoppage time (92:10 at `now`, so 90+3'): an own
    /// goal for TOT and a TOT red card before half-time, two ARS goals after it; 2–1.
    static func soccer(_ now: Date) -> WrittenGame {
        var game = WrittenGame(
            "s1", sport: "soccer", competition: "league-soccer", home: ("ARS", "Arsenal"),
            away: ("TOT", "Tottenham Hotspur"), now: now)
        let kickoff = 6550
        let secondHalf = 47 * 60 + 10
        game.add("game.started", ago: kickoff + 10)
        game.add("clock.started", ago: kickoff, #""clock":"0:00""#)
        game.add("points.scored", ago: kickoff - 23 * 60, #""team":"away","kind":"ownGoal","player":"Jonas Lindqvist""#)
        game.add("card.shown", ago: kickoff - 38 * 60, #""team":"away","card":"red","player":"Idris Bakare""#)
        game.add("period.ended", ago: kickoff - 47 * 60, #""period":1"#)
        game.add("period.started", ago: secondHalf + 60, #""period":2"#)
        game.add("clock.started", ago: secondHalf, #""clock":"45:00""#)
        game.add("points.scored", ago: secondHalf - 20 * 60, #""team":"home","kind":"goal","player":"Kofi Mensah""#)
        game.add("points.scored", ago: secondHalf - 40 * 60, #""team":"home","kind":"penalty","player":"Tom Ashworth""#)
        return game
    }

    /// LAL at BOS, NBA, fourth quarter with the clock running (5:12 left at `now`); BOS 84–80.
    static func basketball(_ now: Date) -> WrittenGame {
        var game = WrittenGame(
            "k1", sport: "basketball", competition: "nba", home: ("BOS", "Boston Celtics"),
            away: ("LAL", "Los Angeles Lakers"), now: now)
        game.add("game.started", ago: 6010)
        let kinds = [
            "home": ["two", "three", "two", "freeThrow", "two", "two"],
            "away": ["three", "two", "freeThrow", "two", "two"],
        ]
        for quarter in 1...4 {
            let start = quarter < 4 ? 6000 - (quarter - 1) * 1800 : 6 * 60 + 48
            if quarter > 1 { game.add("period.started", ago: start + 5, #""period":\#(quarter)"#) }
            game.add("clock.started", ago: start, #""clock":"12:00""#)
            let plays = quarter < 4 ? 24 : 11
            for play in 0..<plays {
                let team = (play + quarter / 2) % 2 == 0 ? "home" : "away"
                let teamKinds = kinds[team] ?? []
                game.score(
                    team, teamKinds[(play / 2 + quarter) % teamKinds.count],
                    ago: start - 10 - play * (quarter < 4 ? 30 : 18))
            }
            if quarter < 4 { game.add("period.ended", ago: start - 720, #""period":\#(quarter)"#) }
        }
        return game
    }

    /// MTL at TOR, NHL: 2–2 after three periods and a scoreless overtime, the shoot-out under way
    /// (TOR 2, MTL 1).
    static func hockey(_ now: Date) -> WrittenGame {
        var game = WrittenGame(
            "h1", sport: "hockey", competition: "nhl", home: ("TOR", "Toronto Maple Leafs"),
            away: ("MTL", "Montréal Canadiens"), now: now)
        game.add("game.started", ago: 6010)
        let goals = [1: ["home"], 2: ["away"], 3: ["home", "away"], 4: []]
        for period in 1...4 {
            let start = 6000 - (period - 1) * 1500
            if period > 1 { game.add("period.started", ago: start + 5, #""period":\#(period)"#) }
            game.add("clock.started", ago: start, period < 4 ? #""clock":"20:00""# : #""clock":"5:00""#)
            for (index, team) in (goals[period] ?? []).enumerated() {
                game.score(team, "goal", ago: start - 300 - index * 400)
            }
            game.add("period.ended", ago: start - (period < 4 ? 1210 : 310), #""period":\#(period)"#)
        }
        game.add("period.started", ago: 900, #""period":5,"kind":"shootout""#)
        for (index, (team, scored)) in [("away", false), ("home", true), ("away", true), ("home", true)].enumerated() {
            game.add("shootout.attempt", ago: 600 - index * 100, #""team":"\#(team)","scored":\#(scored)"#)
        }
        return game
    }

    /// BUF at KC, NFL, fourth quarter, the clock stopped at the two-minute warning, BUF with the ball,
    /// 3rd & 7 on KC's 35; KC 16–10.
    static func football(_ now: Date) -> WrittenGame {
        var game = WrittenGame(
            "f1", sport: "football", competition: "nfl", home: ("KC", "Kansas City Chiefs"),
            away: ("BUF", "Buffalo Bills"), now: now)
        game.add("game.started", ago: 9010)
        let plays = [
            1: [("away", "touchdown"), ("away", "extraPoint")],
            2: [("home", "fieldGoal"), ("home", "touchdown"), ("home", "twoPointConversion")],
            3: [("away", "fieldGoal"), ("home", "safety")], 4: [("home", "fieldGoal")],
        ]
        for quarter in 1...4 {
            let start = quarter < 4 ? 9000 - (quarter - 1) * 2000 : 840
            if quarter > 1 { game.add("period.started", ago: start + 5, #""period":\#(quarter)"#) }
            game.add("clock.started", ago: start, #""clock":"15:00""#)
            for (index, (team, kind)) in (plays[quarter] ?? []).enumerated() {
                game.score(team, kind, ago: start - 200 - index * 20)
            }
            if quarter < 4 { game.add("period.ended", ago: start - 1000, #""period":\#(quarter)"#) }
        }
        game.add("clock.stopped", ago: 60)
        game.add("situation.changed", ago: 50, #""possession":"away","down":3,"distance":7,"yardLine":65"#)
        return game
    }
}

extension BrowserTests {
    @Test("every sport's card: period, a clock the browser runs, line score, shoot-out, down and distance, red cards")
    func everySport() async throws {
        try await withServer { server in
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            var basketball = LiveGames.basketball(now)
            let written = [
                LiveGames.baseball(now), LiveGames.soccer(now), basketball, LiveGames.hockey(now),
                LiveGames.football(now),
            ]
            for game in written {
                let reply = try await server.ingest(game.batch())
                #expect(reply.status == 202, "\(game.gameId): \(reply.body)")
            }
            for game in written { _ = try await server.waitForGame(game.gameId, version: game.lines.count) }
            let browser = try await Browser(opening: server.base + "/")
            do {
                try await checkCards(browser)
                try await checkClocks(browser)
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "scoreboard-\(UUID().uuidString)"
                ).path
                try await takeScreenshots(
                    browser, in: folder, sports: ["soccer", "basketball", "hockey", "football", "baseball"])
                print("scoreboard screenshots of every sport in \(folder)")
                // The stream still updates a card in place: a three for LAL, then the clock stops.
                let sent = basketball.lines.count
                let later = -Int(Date().timeIntervalSince(now).rounded(.up))
                basketball.score("away", "three", ago: later)
                basketball.add("clock.stopped", ago: later)
                let reply = try await server.ingest(basketball.batch(from: sent))
                #expect(reply.status == 202, "\(reply.body)")
                let clock = text("k1", ".clock")
                #expect(try await browser.waitFor(#"\#(card("k1")).dataset.clock"#, toBe: "stopped") == "stopped")
                let stopped = try await browser.evaluate(clock)
                try await Task.sleep(for: .milliseconds(1500))
                #expect(try await browser.evaluate(clock) == stopped, "a stopped clock stands still")
                let q4 = #"\#(card("k1")).querySelector('.lines tr.away td:nth-of-type(4)').textContent"#
                #expect(try await browser.waitFor(q4, toBe: "13") == "13")
            } catch {
                await browser.close()
                throw error
            }
            await browser.close()
        }
    }

    /// A fixture's final as its card must show it.
    private struct Final: Sendable {
        var name: String
        var lines: [String]
        var gameId: String
        var day: String
        var sport: String
        var label: String
        var heads: String
        /// The line score's rows by side: the code, in-play points per period, the shoot-out, the result.
        var rows: [String: String]

        /// Reads `fixtures/sports/<name>.jsonl` and its figures in `expected.json`.
        init(_ name: String, label: String, heads: String) throws {
            let directory = repositoryRoot.appendingPathComponent("fixtures/sports")
            let all = try JSONSerialization.jsonObject(
                with: Data(contentsOf: directory.appendingPathComponent("expected.json")))
            let figures = (all as? [String: [String: Any]])?[name] ?? [:]
            lines = try String(contentsOf: directory.appendingPathComponent(name + ".jsonl"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any] ?? [:]
            self.name = name
            self.label = label
            self.heads = heads
            gameId = first["gameId"] as? String ?? ""
            day = String((first["startsAt"] as? String ?? "").prefix(10))
            sport = first["sport"] as? String ?? ""
            let periods = figures["periods"] as? [[Int]] ?? []
            let shootout = figures["shootout"] as? [String: Int] ?? [:]
            var rows = [String: String]()
            for (index, side) in ["home", "away"].enumerated() {
                let code = ((first[side] as? [String: Any])?["code"] as? String) ?? ""
                let cells =
                    [code] + periods.map { String($0[index]) }
                    + [String(shootout[side] ?? -1), String(figures[side + "Score"] as? Int ?? -1)]
                rows[side] = cells.joined(separator: "|")
            }
            self.rows = rows
        }
    }

    @Test("finals from fixtures/sports: soccer's extra time and penalties, hockey's shoot-out winner's goal")
    func fixtureFinals() async throws {
        let finals = [
            try Final("knockout-shootout", label: "Final/Pens", heads: "1H|2H|ET1|ET2|Pens|T"),
            try Final("nhl-shootout", label: "Final/SO", heads: "1|2|3|OT|SO|T"),
        ]
        try await withServer { server in
            for final in finals {
                let reply = try await server.ingest(final.lines.joined(separator: "\n"), type: "application/x-ndjson")
                #expect(reply.status == 202, "\(final.name): \(reply.body)")
                _ = try await server.waitForGame(final.gameId, version: final.lines.count)
            }
            let browser = try await Browser(opening: server.base + "/")
            do {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "scoreboard-finals-\(UUID().uuidString)"
                ).path
                try await expect(browser, "document.getElementById('connection').textContent", "live")
                for final in finals {
                    let pick =
                        #"(() => { const s = document.getElementById('day'); s.value = '\#(final.day)'; s.dispatchEvent(new Event('change')); return s.value; })()"#
                    try await expect(browser, pick, final.day)
                    try await expect(browser, text(final.gameId, ".period"), final.label)
                    try await expect(browser, #"\#(card(final.gameId)).dataset.clock"#, "none")
                    try await expect(
                        browser,
                        #"[...\#(card(final.gameId)).querySelectorAll('.lines thead th')].slice(1).map(c => c.textContent).join('|')"#,
                        final.heads)
                    // In-play points per period, the shoot-out apart, the official result.
                    for side in ["home", "away"] {
                        try await expect(browser, line(final.gameId, side), final.rows[side] ?? "")
                    }
                    try await takeScreenshots(browser, in: folder, suffix: "-final", sports: [final.sport])
                }
                print("scoreboard screenshots of finals in \(folder)")
            } catch {
                await browser.close()
                throw error
            }
            await browser.close()
        }
    }

    private func card(_ game: String) -> String { #"document.querySelector('[data-game="\#(game)"]')"# }

    private func text(_ game: String, _ selector: String) -> String {
        #"(\#(card(game))?.querySelector('\#(selector)')?.textContent ?? '')"#
    }

    /// A row of a card's line score: the team, then each column, `|` apart.
    private func line(_ game: String, _ side: String) -> String {
        #"[...(\#(card(game))?.querySelectorAll('.lines tr.\#(side) > *') ?? [])].map(c => c.textContent).join('|')"#
    }

    private func expect(_ browser: Browser, _ expression: String, _ expected: String) async throws {
        let seen = try await browser.waitFor(expression, toBe: expected)
        #expect(seen == expected, "\(expression)")
    }

    private func checkCards(_ browser: Browser) async throws {
        try await expect(browser, "String(document.querySelectorAll('.card').length)", "5")
        // Baseball looks as it did, and gains its line score by inning.
        try await expect(browser, text("b1", ".period"), "Top 5th")
        try await expect(browser, text("b1", ".outs"), "1 out")
        try await expect(
            browser,
            #"['first','second','third'].map(b => \#(card("b1")).querySelector('.diamond .' + b).classList.contains('on') ? 1 : 0).join('')"#,
            "101")
        try await expect(browser, line("b1", "away"), "NYY|1|0|1|0|0|||||2")
        try await expect(browser, line("b1", "home"), "BOS|2|0|0|0||||||2")
        // Soccer: home first, the match minute in stoppage time, the red card, the halves.
        try await expect(browser, text("s1", ".period"), "2nd Half")
        // 92:10 when the game was written: 90+3' (90+4' on a slow machine), the match time beside it.
        try await expect(browser, #"String(/^90\+[34]'9[23]:\d\d$/.test(\#(text("s1", ".clock"))))"#, "true")
        try await expect(
            browser,
            #"[...\#(card("s1")).querySelectorAll('.team')].map(t => t.querySelector('.code').textContent).join(' ')"#,
            "ARS TOT")
        try await expect(browser, #"String(\#(card("s1")).querySelectorAll('.away .red-card').length)"#, "1")
        try await expect(browser, text("s1", ".away .marks"), "1 red card")
        try await expect(browser, line("s1", "home"), "ARS|0|2|2")
        try await expect(browser, line("s1", "away"), "TOT|1|0|1")
        // Basketball: Q4, the quarters so far.
        try await expect(browser, text("k1", ".period"), "Q4")
        try await expect(
            browser, #"[...\#(card("k1")).querySelectorAll('.lines thead th')].map(c => c.textContent).join('|')"#,
            "Team|Q1|Q2|Q3|Q4|T")
        try await expect(browser, line("k1", "away"), "LAL|23|23|24|10|80")
        try await expect(browser, line("k1", "home"), "BOS|24|24|24|12|84")
        // Hockey: the shoot-out under way: its tally, no clock, the line score with the shoot-out apart.
        try await expect(browser, text("h1", ".period"), "SO")
        try await expect(browser, text("h1", ".note"), "Shoot-out MTL 1–2 TOR")
        try await expect(browser, #"\#(card("h1")).dataset.clock"#, "none")
        try await expect(browser, line("h1", "away"), "MTL|0|1|1|0|1|2")
        try await expect(browser, line("h1", "home"), "TOR|1|0|1|0|2|2")
        // Football: possession and down & distance, the quarter's stopped clock.
        try await expect(browser, text("f1", ".period"), "Q4")
        try await expect(browser, text("f1", ".note"), "BUF ball · 3rd & 7 at KC 35")
        try await expect(browser, text("f1", ".away .marks"), "has the ball")
        try await expect(browser, text("f1", ".home .marks"), "")
        try await expect(browser, text("f1", ".clock"), "2:00")
        try await expect(browser, line("f1", "away"), "BUF|7|0|3|0|10")
        try await expect(browser, line("f1", "home"), "KC|0|11|2|3|16")
    }

    /// The clocks run in the browser without a new event: a running one reads differently 1.5 s
    /// later, a stopped one the same.
    private func checkClocks(_ browser: Browser) async throws {
        let games = ["s1", "k1", "f1"]
        // The page fetches the day again a second after the stream's last state: let it, then mark
        // the clocks, so a redraw by anything but the page's own timer shows as a missing mark.
        try await Task.sleep(for: .milliseconds(1500))
        let mark =
            "[" + games.map { card($0) }.joined(separator: ",")
            + "].map(c => c.querySelector('.clock').dataset.mark = 'm').length"
        #expect(try await browser.evaluate(mark) == "3")
        let read = "[" + games.map { text($0, ".clock") }.joined(separator: ",") + "].join('|')"
        let before = try await browser.evaluate(read).split(separator: "|").map(String.init)
        try await Task.sleep(for: .milliseconds(1500))
        let after = try await browser.evaluate(read).split(separator: "|").map(String.init)
        let marked = "String(document.querySelectorAll('.clock[data-mark=\"m\"]').length)"
        #expect(try await browser.evaluate(marked) == "3", "the cards were drawn again in between")
        #expect(before.count == 3 && after.count == 3, "\(before) \(after)")
        guard before.count == 3, after.count == 3 else { return }
        #expect(before[0] != after[0], "soccer's running clock: \(before[0]) then \(after[0])")
        #expect(before[1] != after[1], "basketball's running clock: \(before[1]) then \(after[1])")
        // 5:12 left when the game was written: M:SS, not yet tenths.
        #expect(before[1].range(of: #"^[1-5]:\d\d$"#, options: .regularExpression) != nil, "\(before[1])")
        #expect(before[2] == "2:00" && after[2] == "2:00", "football's stopped clock: \(before[2]) then \(after[2])")
    }

    /// Each card (named by its sport and `suffix`) and the whole board, on a desktop (1280 wide) and a
    /// phone (390 wide), in `folder`; at 390 nothing overflows sideways.
    private func takeScreenshots(_ browser: Browser, in folder: String, suffix: String = "", sports: [String])
        async throws
    {
        let measure = #"""
            JSON.stringify({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
              cards: [...document.querySelectorAll('.card')].map(c => { const r = c.getBoundingClientRect();
                return { sport: c.dataset.sport, x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; }) })
            """#
        for (width, height, name) in [(1280, 900, "desktop"), (390, 844, "phone")] {
            let measured = try await browser.atViewport(
                width: width, height: height, mobile: width < 500, measure: measure
            ) { json in
                let page = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
                let cards = page["cards"] as? [[String: Any]] ?? []
                let pageHeight = (page["height"] as? Double) ?? Double(height)
                var regions = [(path: String, x: Double, y: Double, width: Double, height: Double)]()
                regions.append(
                    (folder + "/scoreboard\(suffix)-\(name).png", 0, 0, Double(width), max(Double(height), pageHeight)))
                for card in cards {
                    let number = { (key: String) in (card[key] as? Double) ?? 0 }
                    regions.append(
                        (
                            folder + "/\(card["sport"] as? String ?? "game")\(suffix)-\(name).png", number("x") - 4,
                            number("y") - 4,
                            number("width") + 8, number("height") + 8
                        ))
                }
                return regions
            }
            let page = try JSONSerialization.jsonObject(with: Data(measured.utf8)) as? [String: Any] ?? [:]
            #expect((page["cards"] as? [Any])?.count == sports.count)
            if width == 390 {
                #expect(page["width"] as? Int == 390, "the page is \(page["width"] ?? "?") px wide at 390")
            }
        }
        for sport in sports {
            for name in ["desktop", "phone"] {
                let file = "\(sport)\(suffix)-\(name).png"
                #expect(FileManager.default.fileExists(atPath: folder + "/" + file), "\(file)")
            }
        }
    }
}
