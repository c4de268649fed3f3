import APNs
import ArgumentParser
import Foundation
import LiveActivity
import ScoreDomain
import ScoreStore

/// `scorefeed games [--json]`: every game's projected state.
struct GamesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "games", abstract: "List every game's score.")

    @Flag(help: "Print a JSON array.")
    var json = false

    @Option(help: "Only games with this status (\(GameStatus.allCases.map(\.rawValue).joined(separator: ", "))).")
    var status: String?

    func run() async throws {
        let filter = try status.map { name in
            guard let parsed = GameStatus(rawValue: name) else { throw ValidationError("unknown status \"\(name)\"") }
            return parsed
        }
        let connection = try await Runtime.openDatabase()
        let states = try await connection.withSession { try ScoreProjection.all(status: filter, in: $0) }
        await connection.close()
        if json {
            Output.line("[" + states.map { $0.canonicalJSON() }.joined(separator: ",") + "]")
            return
        }
        guard !states.isEmpty else {
            Output.line("no games yet: `scorefeed replay fixtures/plain-nine.jsonl` adds one")
            return
        }
        let rows = states.map { s in
            [
                s.gameId, "\(s.away.code) \(s.awayScore) – \(s.homeScore) \(s.home.code)", s.periodLabel,
                s.sport == .baseball ? "\(s.outs)" : "–",
                s.status.rawValue, rfc3339(s.updatedAt),
            ]
        }
        Output.write(
            Table.render(header: ["GAME", "SCORE (AWAY – HOME)", "INNING", "OUTS", "STATUS", "UPDATED"], rows: rows))
    }
}

/// `scorefeed game ID [--json]`: one game's projected state.
struct GameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "game", abstract: "Show one game's score.")

    @Argument(help: "The game id.")
    var id: String

    @Flag(help: "Print a JSON object.")
    var json = false

    func run() async throws {
        let connection = try await Runtime.openDatabase()
        let gameId = id
        let state = try await connection.withSession { try ScoreProjection.load(gameId, in: $0) }
        await connection.close()
        guard let state else { throw CLIError("no game \"\(id)\"") }
        if json {
            Output.line(state.canonicalJSON())
            return
        }
        Output.write(
            """
            \(state.gameId): \(state.away.name) (\(state.away.code)) at \(state.home.name) (\(state.home.code))
              score    \(state.away.code) \(state.awayScore) – \(state.homeScore) \(state.home.code)
            \(Self.where(state))
              status   \(state.status.rawValue)
              starts   \(rfc3339(state.startsAt))
              version  \(state.version), updated \(rfc3339(state.updatedAt))

            """)
    }
}

extension GameCommand {
    /// Baseball: the inning and outs; the clock sports: the period and clock, the line score, the
    /// shoot-out, red cards and football's down; every sport: the number of scoring plays.
    static func `where`(_ state: ScoreState) -> String {
        guard state.sport != .baseball else {
            return "  inning   \(state.inning), \(state.outs) out\(state.outs == 1 ? "" : "s")"
        }
        var lines = ["  sport    \(state.sport.rawValue) (\(state.rules.competition))"]
        var period = "  period   \(state.periodLabel)"
        if let clock = state.clock {
            period += ", clock \(GameClock.display(clock.ms, countsDown: clock.countsDown))"
            period += clock.running ? " running at \(rfc3339(clock.at))" : " stopped"
        }
        lines.append(period)
        let periods = state.periods
        if !periods.isEmpty {
            lines.append("  line     " + periods.map { "\($0.label) \($0.away)–\($0.home)" }.joined(separator: ", "))
        }
        if let shootout = state.shootout { lines.append("  shootout \(shootout.away)–\(shootout.home)") }
        if state.sport == .soccer { lines.append("  red      \(state.redCards.away)–\(state.redCards.home)") }
        if let situation = state.situation, let down = situation.down, let distance = situation.distance {
            let team = situation.possession == .home ? state.home.code : state.away.code
            lines.append("  down     \(team) ball, \(ScoreState.ordinal(down)) & \(distance)")
        }
        lines.append("  scoring  \(state.scoring.count) entries")
        return lines.joined(separator: "\n")
    }
}

/// `scorefeed pushes ID [--json]`: the pushes planned for one game's registered activities, and
/// what became of them.
struct PushesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushes",
        abstract: "List the Live Activity pushes planned and delivered for a game's registered activities.",
        discussion: """
            One row per push in planning order: the activity (id and shortened token), timestamp, event, \
            priority, why it went out (immediate, coalesced, final, lifetime), its state in the outbox \
            (planned, sent, failed), attempts and the service's last status (APNs or FCM), and what it shows; \
            TARGET names the route (an FCM activity, an Android follower by its seq).
            """)

    @Argument(help: "The game id.")
    var id: String

    @Flag(help: "Print one JSON array of the pushes.")
    var json = false

    func run() async throws {
        let connection = try await Runtime.openDatabase()
        let gameId = id
        let (state, pushes) = try await connection.withSession { session in
            (try ScoreProjection.load(gameId, in: session), try TargetPushes.forGame(gameId, in: session))
        }
        await connection.close()
        guard state != nil else { throw CLIError("no game \"\(id)\"") }
        if json {
            Output.line("[" + pushes.map(Self.json).joined(separator: ",") + "]")
            return
        }
        let rows = pushes.map { p in
            [
                p.route == .android
                    ? "\(p.targetId) android \(p.fcm.map { String($0.value.prefix(8)) + "…" } ?? "")"
                    : "\(p.targetId) \(p.route == .fcm ? "fcm " : "")\(APNsRedaction.token(p.pushToken))",
                p.route == .android
                    ? "seq \(p.timestamp)" : rfc3339(Date(timeIntervalSince1970: TimeInterval(p.timestamp))),
                p.event.rawValue, String(p.priority),
                p.reason, p.state == "pending" ? "planned" : p.state, String(p.attempts),
                p.lastStatus.map(String.init) ?? "-", PayloadSummary(p.payload).text,
            ]
        }
        Output.write(
            Table.render(
                header: ["TARGET", "TIMESTAMP/SEQ", "EVENT", "PRIO", "REASON", "STATE", "TRIES", "STATUS", "CONTENT"],
                rows: rows))
    }

    /// One push as a JSON object with sorted keys (the activity by id; its token is in `activity list`).
    static func json(_ push: TargetPush) -> String {
        var line = "{\"activity\":\(push.targetId),\"apnsId\":"
        JSONValue.writeString(push.apnsId, to: &line)
        line += ",\"attempts\":\(push.attempts),\"event\":"
        JSONValue.writeString(push.event.rawValue, to: &line)
        line += ",\"expiration\":\(push.expiration),\"lastReason\":"
        if let reason = push.lastReason { JSONValue.writeString(reason, to: &line) } else { line += "null" }
        line += ",\"lastStatus\":" + (push.lastStatus.map(String.init) ?? "null")
        line += ",\"payload\":" + push.payload + ",\"priority\":\(push.priority),\"reason\":"
        JSONValue.writeString(push.reason, to: &line)
        line += ",\"route\":"
        JSONValue.writeString(push.route.rawValue, to: &line)
        line += ",\"state\":"
        JSONValue.writeString(push.state == "pending" ? "planned" : push.state, to: &line)
        return line + ",\"timestamp\":\(push.timestamp)}"
    }
}

/// A one-line reading of an APNs payload for people: score, inning, status and alert title.
struct PayloadSummary {
    let text: String

    init(_ payload: String) {
        let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any]
        // An Android follower's data map: its chip and text.
        if let chip = object?["chip"] as? String, let text = object?["text"] as? String {
            self.text = "\(chip)  \(text)"
            return
        }
        guard let object, let aps = object["aps"] as? [String: Any],
            let content = (aps["content-state"] as? [String: Any])?["status"] as? [String: Any]
        else {
            text = payload
            return
        }
        var parts = [
            "\(content["awayScore"] ?? "?")–\(content["homeScore"] ?? "?")", "\(content["inning"] ?? "")",
            "\(content["status"] ?? "")",
        ]
        if let alert = aps["alert"] as? [String: Any], let title = alert["title"] { parts.append("alert: \(title)") }
        text = parts.joined(separator: "  ")
    }
}

/// A plain error for the operator, printed by ArgumentParser as `Error: …` with exit code 1.
package struct CLIError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }

    /// `port N is already in use` when `error` is a failure to bind a listening socket there.
    static func portInUse(_ error: any Error, port: Int) -> CLIError? {
        let text = String(describing: error)
        guard text.contains("Address already in use") || text.contains("EADDRINUSE") || text.contains("errno: 98")
        else { return nil }
        return CLIError("port \(port) is already in use; stop what listens there or pick another with --port")
    }
}

/// Left-aligned text columns.
enum Table {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
