import Foundation
import LiveActivity
import ScoreDomain
import Testing

/// Issue 26 point 5: a basketball game with 200 scoring plays, planned for one Live Activity.
@Suite("the clock sports: a 200-basket game within the priority-10 budget")
struct SportsBudgetTests {
    /// An NBA game of 200 scoring plays (Q1–Q4 45 each, overtime 20), the teams trading baskets so the
    /// score is tied after each pair (every basket changes the leader: a lead change or a tie) and at
    /// the end of the 4th quarter; the home side wins in overtime. The clock runs through each play
    /// (each play's clock agrees with it) and stops after every third play for a minute.
    static func game() -> (messages: [FeedMessage], plays: Int) {
        var game = S.Game(.basketball, "nba")
        var wall = 0.0
        var plays = 0
        game.add(.gameStarted, wall)
        let pattern = [2, 3, 2, 1, 2, 2, 3, 2]
        for period in 1...5 {
            let count = period == 5 ? 20 : 45
            let lengthMs = period == 5 ? 300_000 : 720_000
            if period > 1 { game.add(.periodStarted(period: period, kind: nil), wall) }
            wall += 5
            game.add(.clockStarted(ms: nil), wall)
            let stepMs = lengthMs / (count + 1)
            var remaining = lengthMs
            for index in 0..<count {
                wall += Double(stepMs) / 1000
                remaining -= stepMs
                let team: Side = plays >= 198 ? .home : ((plays / 2) % 2 == plays % 2 ? .home : .away)
                let points = pattern[(plays / 2) % pattern.count]
                let kind: ScoringKind = points == 1 ? .freeThrow : points == 2 ? .two : .three
                game.add(.pointsScored(PointsScored(team: team, points: points, kind: kind, clockMs: remaining)), wall)
                plays += 1
                if index % 3 == 2 {
                    game.add(.clockStopped(ms: nil), wall + 1)
                    wall += 61
                    game.add(.clockStarted(ms: nil), wall)
                }
            }
            wall += Double(remaining) / 1000
            game.add(.periodEnded(period: period), wall)
            wall += period == 2 ? 900 : 120
        }
        game.add(.gameEnded(.closed), wall)
        return (game.messages, plays)
    }

    static let moments: Set<String> = [
        "Game started", "End of Q1", "Half-time", "End of Q3", "End of Q4", "Overtime", "Lead change", "Tied", "Final",
    ]

    @Test("within every hour's budget, priority 10 only for the moments, the latest score, never behind")
    func budget() throws {
        let (messages, plays) = Self.game()
        #expect(plays == 200)
        let changes = S.changes(messages)
        #expect(changes.count == messages.count)
        let final = try #require(changes.last?.next)
        #expect(final.status == .closed && final.homeScore > final.awayScore && final.periodNumber == 5)
        let policy = ThrottlePolicy()
        let pushes = S.pushes(changes, policy: policy)
        let byVersion = Dictionary(changes.map { ($0.next.version, $0) }, uniquingKeysWith: { $1 })

        // Within every activity's hourly budget of priority-10 pushes.
        let urgent = pushes.filter { $0.priority == 10 }
        for push in urgent {
            let inHour = urgent.filter { $0.sendAt > push.sendAt.addingTimeInterval(-3600) && $0.sendAt <= push.sendAt }
            #expect(inHour.count <= policy.hourlyBudget)
        }
        // Spent on the listed moments only, never on an ordinary basket; the final among them.
        var titles: [String] = []
        for push in urgent {
            let title = try #require(try S.title(push.payload), "a priority-10 push without an alert")
            titles.append(title)
            #expect(Self.moments.contains(title), "\(title)")
            if title == "Lead change" || title == "Tied" {
                let state = try #require(byVersion[push.version]?.next)
                let late =
                    state.periodNumber == 5
                    || (state.periodNumber == 4 && state.clock!.value(at: state.updatedAt) <= 120_000)
                #expect(late, "\(title) at \(state.periodLabel) \(state.clock.map { "\($0)" } ?? "")")
            }
        }
        #expect(titles.first == "Game started" && titles.last == "Final")
        #expect(Set(titles).isSuperset(of: ["End of Q1", "Half-time", "End of Q3", "End of Q4", "Overtime", "Tied"]))
        // The ordinary baskets (before the last two minutes of the 4th) alerted nothing.
        let ordinary = changes.filter {
            guard case .pointsScored = $0.event else { return false }
            let state = $0.next
            return state.periodNumber < 4
                || (state.periodNumber == 4 && state.clock!.value(at: state.updatedAt) > 120_000)
        }
        #expect(ordinary.count > 150)
        // The late baskets are moments, more than the hour's budget: it binds (the rest go at 5).
        let clutch = changes.filter {
            guard case .pointsScored = $0.event else { return false }
            return !ordinary.map(\.next.version).contains($0.next.version)
        }
        #expect(clutch.count > policy.hourlyBudget)
        let ordinaryVersions = Set(ordinary.map(\.next.version))
        #expect(!urgent.contains { ordinaryVersions.contains($0.version) })
        // Every basket reached the lock screen; most at priority 5.
        #expect(pushes.filter { $0.priority == 5 }.count > 150)

        // Coalesced priority-5 pushes carry the latest score of their moment.
        for push in pushes where push.reason == .coalesced {
            let latest = try #require(changes.last { $0.next.updatedAt < push.sendAt })
            #expect(push.version == latest.next.version)
            let status = SchemaCheck.member(try S.contentState(push.payload), "status")
            #expect(SchemaCheck.member(status, "homeScore") == .int(latest.next.homeScore))
            #expect(SchemaCheck.member(status, "awayScore") == .int(latest.next.awayScore))
        }
        #expect(pushes.contains { $0.reason == .coalesced })

        // The lock screen is never more than the planner's interval behind the game.
        let registered = changes[0].next.startsAt.addingTimeInterval(-900)
        for (index, change) in changes.enumerated() where change.next.updatedAt >= registered {
            guard index == 0 || change.nextContent != changes[index - 1].nextContent else { continue }
            let caughtUp = pushes.contains {
                $0.version >= change.next.version && $0.sendAt >= change.next.updatedAt
                    && $0.sendAt <= change.next.updatedAt.addingTimeInterval(Double(policy.minInterval))
            }
            #expect(caughtUp, "change \(change.next.version) (\(change.event.type)) not shown within the interval")
        }
        #expect(pushes.allSatisfy { $0.payload.utf8.count <= 4096 })
        #expect(zip(pushes, pushes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test("the fixture games: every priority-10 push is a moment, the final always among them, the hour's budget kept")
    func fixtures() throws {
        let policy = ThrottlePolicy()
        for name in S.fixtureNames {
            let pushes = S.pushes(S.changes(try S.fixture(name)), policy: policy)
            let urgent = pushes.filter { $0.priority == 10 }
            for push in urgent {
                #expect(try S.title(push.payload) != nil, "\(name)")
                let inHour = urgent.filter {
                    $0.sendAt > push.sendAt.addingTimeInterval(-3600) && $0.sendAt <= push.sendAt
                }
                #expect(inHour.count <= policy.hourlyBudget, "\(name)")
            }
            #expect(try urgent.last.flatMap { try S.title($0.payload) } == "Final", "\(name)")
            #expect(pushes.last?.event == .end)
        }
    }
}
