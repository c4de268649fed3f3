import Foundation
import LiveActivity
import ScoreDomain
import Testing

/// Builders for the clock sports' tests: games made of ``FeedMessage``s folded by ``ScoreFold``,
/// and the fixture games of `fixtures/sports`.
enum S {
    static let home = Team(code: "BOS", name: "Boston Celtics", logo: "https://example.com/logos/bos.png")
    static let away = Team(code: "LAL", name: "Los Angeles Lakers", logo: "https://example.com/logos/lal.png")
    static let tipOff = T.date("2026-03-08T19:30:00Z")

    /// The names of the fixture games of `fixtures/sports` (`*.jsonl`).
    static var fixtureNames: [String] {
        let folder = ContentStateSchemaTests.root.appendingPathComponent("fixtures/sports")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        // Not the golden streams beside them (`*.pushes.jsonl`, `*.broadcasts.jsonl`, `*.android.jsonl`).
        return files.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.filter { !$0.contains(".") }
            .sorted()
    }

    /// The lines of the golden stream `kind` (`pushes`, `broadcasts`, `android`) of fixture `name`,
    /// when it has been written.
    static func golden(_ name: String, _ kind: String) -> [String] {
        let url = ContentStateSchemaTests.root.appendingPathComponent("fixtures/sports/\(name).\(kind).jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// The messages of fixture `name` of `fixtures/sports`.
    static func fixture(_ name: String) throws -> [FeedMessage] {
        let data = try Data(
            contentsOf: ContentStateSchemaTests.root.appendingPathComponent("fixtures/sports/\(name).jsonl"))
        var messages: [FeedMessage] = []
        FeedParser.forEachEntry(ndjson: data) { entry in
            if case .success(let message) = entry.result { messages.append(message) }
        }
        return messages
    }

    /// Folds `messages` in order (each must be accepted) into the changes of the game.
    static func changes(_ messages: [FeedMessage]) -> [GameChange] {
        var state: ScoreState?
        var changes: [GameChange] = []
        for message in messages {
            do {
                let next = try ScoreFold.apply(message, to: state)
                changes.append(GameChange(previous: state, next: next, event: message.event))
                state = next
            } catch {
                Issue.record("\(message.id) refused: \(error)")
            }
        }
        return changes
    }

    /// A game being written message by message.
    struct Game {
        var messages: [FeedMessage] = []
        var gameId = "2026-03-08-LAL-BOS"

        init(_ sport: Sport, _ competition: String, home: Team = S.home, away: Team = S.away) {
            let rules = GameRules.preset(competition)!.rules
            add(
                .gameScheduled(
                    home: home, away: away, startsAt: S.tipOff, setup: GameSetup(sport: sport, rules: rules)),
                at: S.tipOff.addingTimeInterval(-86_400))
        }

        /// Adds `event` at `at` with the next message id (`m1`, `m2`, …), which it returns.
        @discardableResult
        mutating func add(_ event: ScoreEvent, at: Date) -> String {
            let id = "m\(messages.count + 1)"
            messages.append(FeedMessage(id: id, gameId: gameId, at: at, event: event))
            return id
        }

        /// Adds `event` `seconds` after the tip-off.
        @discardableResult
        mutating func add(_ event: ScoreEvent, _ seconds: Double) -> String {
            add(event, at: S.tipOff.addingTimeInterval(seconds))
        }

        var changes: [GameChange] { S.changes(messages) }
        var final: ScoreState? { changes.last?.next }
    }

    /// Every push of one activity registered before the game (the audience of the golden files),
    /// with the change each was planned at.
    static func pushes(
        _ changes: [GameChange], policy: ThrottlePolicy = ThrottlePolicy(), frequentUpdates: Bool = false
    ) -> [PlannedMessage] {
        guard let first = changes.first else { return [] }
        let planner = PushPlanner(policy: policy)
        var target = PushTarget.audience(for: first.next, frequentUpdates: frequentUpdates)
        var pushes: [PlannedMessage] = []
        for change in changes {
            pushes += planner.receive(change, for: &target, at: change.next.updatedAt)
        }
        return pushes + planner.flush(&target)
    }

    /// Every Android message of one follower who followed before the game.
    static func androidMessages(_ changes: [GameChange]) -> [PlannedMessage] {
        guard let first = changes.first else { return [] }
        let planner = PushPlanner()
        var target = PushTarget.liveUpdate(LiveUpdateThrottle(followedAt: first.next.updatedAt))
        var pushes: [PlannedMessage] = []
        for change in changes {
            pushes += planner.receive(change, for: &target, at: change.next.updatedAt)
        }
        return pushes + planner.flush(&target)
    }

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    /// `aps.content-state` of an APNs payload.
    static func contentState(_ payload: String) throws -> JSONValue {
        SchemaCheck.member(try json(payload), "aps", "content-state")
    }

    /// The alert title of an APNs payload, if any.
    static func title(_ payload: String) throws -> String? {
        if case .string(let title) = SchemaCheck.member(try json(payload), "aps", "alert", "title") { return title }
        return nil
    }
}
