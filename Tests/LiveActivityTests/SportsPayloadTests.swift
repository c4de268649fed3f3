import Foundation
import LiveActivity
import ScoreDomain
import Testing

/// The clock sports' content state, stale date, sizes and stored throttles (issue 26 point 4).
@Suite("the clock sports: content state and payloads")
struct SportsPayloadTests {
    /// The content state a push of `state` carries (the push-to-start's, which is the same).
    static func contentState(_ state: ScoreState) throws -> String {
        let start = try S.json(StartPayload.json(state: state, timestamp: 0, channelId: nil))
        return SchemaCheck.member(start, "aps", "content-state").serialized()
    }

    @Test(
        "a basketball content state, exactly: baseball's keys, the period label as inning, the clock as seconds since 2001"
    )
    func exactBasketball() throws {
        var game = SportsMomentTests.started(.basketball, "nba")
        game.add(SportsMomentTests.scored(.away, .three), 70.5)
        let running = try #require(game.final)
        // Started at tip-off + 10 s (2026-03-08T19:30:10Z = 794691010 s after 2001) with 12:00 left.
        #expect(
            try Self.contentState(running)
                == #"{"status":{"awayScore":3,"bases":{"first":false,"second":false,"third":false},"clock":{"countsDown":true,"end":794691730,"start":794691010},"homeScore":0,"inning":"Q1","outs":0,"sport":"basketball","status":"inprogress"}}"#
        )
        game.add(.clockStopped(ms: nil), 100.25)
        let stopped = try #require(game.final)
        #expect(
            try Self.contentState(stopped)
                == #"{"status":{"awayScore":3,"bases":{"first":false,"second":false,"third":false},"clock":{"countsDown":true,"end":794691730,"pausedAt":794691100.25,"start":794691010},"homeScore":0,"inning":"Q1","outs":0,"sport":"basketball","status":"inprogress"}}"#
        )
    }

    @Test("soccer and football content states: a counting-up clock, red cards, the shoot-out, the down")
    func soccerAndFootball() throws {
        var soccer = SportsMomentTests.started(.soccer, "knockout-soccer")
        soccer.add(.cardShown(team: .away, card: .red, player: nil, clockMs: nil), 60)
        let text = try Self.contentState(try #require(soccer.final))
        // The match time 0:00 at tip-off + 10 s; the bound: 45' + 30' later.
        #expect(text.contains(#""clock":{"countsDown":false,"end":794695510,"start":794691010}"#), "\(text)")
        #expect(text.contains(#""inning":"1st Half""#) && text.contains(#""redCards":{"away":1,"home":0}"#))
        #expect(text.contains(#""sport":"soccer""#) && !text.contains("shootout") && !text.contains("down"))
        SportsMomentTests.periods(&soccer, through: 4)
        soccer.add(.periodStarted(period: 5, kind: .shootout), 1000)
        let shootout = try Self.contentState(try #require(soccer.final))
        #expect(shootout.contains(#""inning":"Pens""#) && shootout.contains(#""shootout":{"away":0,"home":0}"#))
        #expect(!shootout.contains("clock"), "an untimed period has no clock")

        var football = SportsMomentTests.started(.football, "nfl")
        football.add(
            .situationChanged(
                Situation(possession: .home, down: 3, distance: 7, yardLine: 65), turnover: false, clockMs: nil), 30)
        let downs = try Self.contentState(try #require(football.final))
        #expect(downs.contains(#""distance":7,"down":3,"homeScore":0"#), "\(downs)")
        #expect(downs.contains(#""possession":"home","sport":"football","status":"inprogress","yardLine":65}}"#))
        football.add(
            .situationChanged(
                Situation(possession: .away, down: nil, distance: nil, yardLine: nil), turnover: true, clockMs: nil),
            40)
        let possessionOnly = try Self.contentState(try #require(football.final))
        #expect(possessionOnly.contains(#""possession":"away""#) && !possessionOnly.contains("down"))
        #expect(!possessionOnly.contains("null"))
    }

    @Test("the content digest changes when the clock starts, stops or jumps, never for a play at the same anchor")
    func digestFollowsTheAnchor() throws {
        var game = SportsMomentTests.started(.basketball, "nba")
        let anchor = game.changes.last!.nextContent
        // clock.set and clock.started whose clock agrees with the running clock (within 2 s): nothing new.
        game.add(.clockSet(ms: 720_000 - 50_000 - 1_500), 60)
        game.add(.clockStarted(ms: 720_000 - 61_000), 71)
        let changes0 = game.changes
        #expect(changes0.count == 5)
        #expect(changes0.suffix(2).allSatisfy { $0.nextContent == anchor })
        // A basket at the same anchor changes the score but not the clock.
        game.add(SportsMomentTests.scored(.home, .two, clockMs: 720_000 - 90_000 + 800), 100)
        let basket = try Self.contentState(game.final!)
        #expect(basket.contains(#""clock":{"countsDown":true,"end":794691730,"start":794691010}"#))
        // Stopped: the anchor moves (pausedAt); started again: it moves again; a jump moves it.
        game.add(.clockStopped(ms: nil), 110)
        game.add(.clockStarted(ms: nil), 150)
        game.add(.clockSet(ms: 600_000), 160)
        let digests = game.changes.suffix(4).map(\.nextContent)
        #expect(Set(digests).count == 4)
    }

    @Test("stale-date: 15 minutes after the push, or after a running clock reaches its period's end")
    func staleDate() throws {
        var game = SportsMomentTests.started(.basketball, "nba")
        game.add(SportsMomentTests.scored(.home, .two), 100)
        game.add(.clockStopped(ms: nil), 200)
        let pushes = S.pushes(game.changes, policy: ThrottlePolicy(minInterval: 0))
        func stale(_ push: PlannedMessage) throws -> Int {
            guard case .int(let date) = SchemaCheck.member(try S.json(push.payload), "aps", "stale-date") else {
                throw CancellationError()
            }
            return date
        }
        let tipOff = Int(S.tipOff.timeIntervalSince1970)
        // Running: 12:00 from tip-off + 10 s, so it reaches 0:00 at + 730 s; stale 900 s after that.
        let running = try #require(pushes.first { $0.timestamp == tipOff + 100 })
        #expect(try stale(running) == tipOff + 730 + 900)
        #expect(running.expiration == tipOff + 730 + 900)
        // Stopped: 900 s after the push.
        let stopped = try #require(pushes.last)
        #expect(try stale(stopped) == tipOff + 200 + 900)
        #expect(stopped.expiration == tipOff + 200 + 900)
        // Soccer's running half: 15 minutes after its 45th minute.
        var soccer = SportsMomentTests.started(.soccer, "league-soccer")
        soccer.add(SportsMomentTests.scored(.home, .goal), 100)
        let goal = try #require(S.pushes(soccer.changes, policy: ThrottlePolicy(minInterval: 0)).last)
        #expect(try stale(goal) == tipOff + 10 + 45 * 60 + 900)
    }

    @Test("the longest state of every sport stays within 4 KB (push, start), 5 KB (broadcast) and FCM's 4 KB")
    func longest() throws {
        let longest = Team(
            code: "ABCDEFGH", name: String(repeating: "N", count: 64), logo: String(repeating: "L", count: 512))
        var rules = GameRules.preset("nfl-playoffs")!.rules
        rules.shootout = true
        var state = ScoreState(
            gameId: String(repeating: "g", count: 64), home: longest, away: longest,
            startsAt: T.date("9999-12-30T23:59:59Z"), homeScore: 999, awayScore: 998, status: .inprogress,
            version: Int.max, updatedAt: T.date("9999-12-31T23:59:59.999Z"),
            setup: GameSetup(sport: .football, rules: rules))
        state.periodNumber = 99
        state.periodEnded = true
        state.clock = GameClock(
            at: state.updatedAt.addingTimeInterval(-0.001), ms: 999_999, running: false, countsDown: true)
        state.shootout = SideTally(home: 999, away: 998)
        state.redCards = SideTally(home: 99, away: 98)
        state.situation = Situation(possession: .away, down: 4, distance: 99, yardLine: 99)
        let policy = ThrottlePolicy(minInterval: 0, staleAfter: Int(Int32.max), dismissAfter: Int(Int32.max))
        var target = PushTarget.liveActivity(
            ActivityThrottle(registeredAt: state.updatedAt.addingTimeInterval(-60), frequentUpdates: true))
        var previous = state
        previous.homeScore = 0
        let push = try #require(
            PushPlanner(policy: policy).receive(
                GameChange(previous: previous, next: state, event: .scoreCorrected(homeScore: 999, awayScore: 998)),
                for: &target, at: state.updatedAt
            ).last)
        #expect(push.payload.utf8.count <= 1024, "\(push.payload.utf8.count) bytes: \(push.payload)")
        let start = StartPayload.json(
            state: state, timestamp: Int(Int32.max), channelId: String(repeating: "c", count: 64))
        #expect(start.utf8.count <= 4096, "\(start.utf8.count)")
        let android = LiveUpdate.json(state, seq: Int.max, event: .update)
        #expect(android.utf8.count <= 1024, "\(android.utf8.count)")
        // Every push of every fixture game.
        for name in S.fixtureNames {
            let changes = S.changes(try S.fixture(name))
            #expect(S.pushes(changes).allSatisfy { $0.payload.utf8.count <= 1024 }, "\(name)")
            #expect(S.pushes(changes, policy: .channel).allSatisfy { $0.payload.utf8.count <= 1024 }, "\(name)")
        }
    }

    @Test("a stored throttle of a long game keeps no history lists, and reads back exactly")
    func storage() throws {
        let changes = S.changes(try S.fixture("nba-overtime"))
        let full = try #require(changes.last?.next)
        #expect(full.scoring.count > 150)
        #expect(full.canonicalJSON().utf8.count > 15_000)
        let planner = PushPlanner()
        var target = PushTarget.audience(for: full)
        var follower = PushTarget.liveUpdate(LiveUpdateThrottle(followedAt: changes[0].next.updatedAt))
        // Stop two changes before the end, one update held back (pending) in each.
        for change in changes.dropLast(2) {
            _ = planner.receive(change, for: &target, at: change.next.updatedAt)
            _ = planner.receive(change, for: &follower, at: change.next.updatedAt)
        }
        guard case .liveActivity(let throttle) = target, case .liveUpdate(let update) = follower else {
            Issue.record("targets changed kind")
            return
        }
        let text = throttle.storageText
        #expect(text.utf8.count < 4_000, "\(text.utf8.count) bytes")
        #expect(!text.contains(#""kind":"two""#) && text.contains(#""scoring":[]"#))
        #expect(try ActivityThrottle(storageText: text) == throttle)
        #expect(update.storageText.utf8.count < 4_000)
        #expect(try LiveUpdateThrottle(storageText: update.storageText) == update)
        // And what is sent from the stored throttle is what the live one sends.
        var stored = PushTarget.liveActivity(try ActivityThrottle(storageText: text))
        var live = target
        for change in changes.suffix(2) {
            let fromStored = planner.receive(change, for: &stored, at: change.next.updatedAt)
            let fromLive = planner.receive(change, for: &live, at: change.next.updatedAt)
            #expect(fromStored == fromLive)
        }
    }
}
