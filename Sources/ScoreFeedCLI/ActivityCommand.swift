import ArgumentParser
import Foundation
import LiveActivity
import ScoreDomain
import ScoreStore

/// `scorefeed activity add|list|remove`: the Live Activities registered per game.
struct ActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Register, list and remove Live Activities (push tokens) per game.",
        subcommands: [Add.self, List.self, Show.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register an activity's push token for a game.")

        @Argument(help: "The game id.")
        var game: String

        @Argument(help: "The activity's push token, in hexadecimal.")
        var token: String

        @Flag(help: "The token belongs to the APNs sandbox (development builds).")
        var sandbox = false

        @Flag(help: "The user granted frequent updates (a larger priority-10 budget).")
        var frequent = false

        @Option(help: "The app's bundle id (default: SCOREFEED_APNS_BUNDLE_ID).")
        var bundleId: String?

        @Option(help: "When the activity was started, as RFC 3339 (default: now). For instant replays of past games.")
        var at: String?

        @Flag(help: "Register it although no message of the game arrived yet (the provider will announce it later).")
        var allowUnknownGame = false

        @OptionGroup var fcm: FCMAddressOptions

        @OptionGroup var app: AppOption

        func run() async throws {
            guard let bundle = bundleId ?? Runtime.environment["SCOREFEED_APNS_BUNDLE_ID"], !bundle.isEmpty else {
                throw ValidationError("give --bundle-id or set SCOREFEED_APNS_BUNDLE_ID")
            }
            let fcm = try self.fcm.address()
            do {
                _ = try Activities.validate(gameId: game, token: token, bundleId: bundle)
            } catch {
                throw ValidationError(error.description)
            }
            let registered = try Runtime.time(at: at)
            let (game, token, environment, frequent, registeredAt, allowUnknown, app) = (
                game, token, sandbox ? PushEnvironment.sandbox : .production, frequent, registered, allowUnknownGame,
                app.name
            )
            let connection = try await Runtime.openDatabase()
            let activity: Activity
            do {
                activity = try await connection.transaction { session in
                    guard try allowUnknown || EventLog.hasStream(game, in: session) else {
                        throw CLIError(
                            "no game \"\(game)\" yet: no message of it has arrived; register after the provider's "
                                + "game.scheduled, or pass --allow-unknown-game if the provider will announce it later")
                    }
                    return try Activities.register(
                        gameId: game, token: token, environment: environment, bundleId: bundle,
                        frequentUpdates: frequent, fcm: fcm, app: app, at: registeredAt, in: session)
                }
            } catch let refusal as RegistrationRefusal {
                await connection.close()
                throw CLIError(refusal.description)
            }
            await connection.close()
            let via = activity.fcm.map(\.throughFCM) ?? ""
            Output.line(
                "registered activity \(activity.id) for game \(activity.gameId): token \(activity.pushToken.prefix(8))…, "
                    + "\(activity.environment.rawValue), \(activity.bundleId)\(activity.frequentUpdates ? ", frequent updates" : "")"
                    + via)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List registered activities.")

        @Argument(help: "Only this game's activities.")
        var game: String?

        @Flag(help: "Print one JSON array.")
        var json = false

        @OptionGroup var app: AppFilter

        func run() async throws {
            let (game, app) = (self.game, self.app.name)
            let connection = try await Runtime.openDatabase()
            let activities = try await connection.withSession { try Activities.list(gameId: game, app: app, in: $0) }
            await connection.close()
            if json {
                var objects: [[String: Any]] = []
                for activity in activities {
                    var object: [String: Any] = [
                        "id": activity.id, "gameId": activity.gameId, "pushToken": activity.pushToken,
                        "environment": activity.environment.rawValue, "bundleId": activity.bundleId,
                        "frequentUpdates": activity.frequentUpdates, "active": activity.active,
                        "registeredAt": rfc3339(activity.registeredAt), "route": activity.route.rawValue,
                        "app": activity.app,
                    ]
                    object["fcmToken"] = activity.fcm?.token ?? NSNull()
                    object["fid"] = activity.fcm?.fid ?? NSNull()
                    object["endedAt"] = activity.endedAt.map { rfc3339($0) } ?? NSNull()
                    object["deactivatedReason"] = activity.deactivatedReason ?? NSNull()
                    objects.append(object)
                }
                let data = try JSONSerialization.data(
                    withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])
                Output.line(String(decoding: data, as: UTF8.self))
                return
            }
            guard !activities.isEmpty else {
                Output.line("no activities registered")
                return
            }
            let rows = activities.map { a in
                [
                    String(a.id), a.gameId, String(a.pushToken.prefix(12)) + "…", a.environment.rawValue, a.bundleId,
                    a.app, a.route.rawValue, a.frequentUpdates ? "yes" : "no",
                    a.active ? "active" : "inactive (\(a.deactivatedReason ?? ""))",
                ]
            }
            Output.write(
                Table.render(
                    header: ["ID", "GAME", "TOKEN", "ENV", "BUNDLE", "APP", "ROUTE", "FREQUENT", "STATE"], rows: rows))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Show what became of an activity's pushes: planned, sent, superseded, failed, budget, last answer.")

        @Argument(help: "The activity's push token.")
        var token: String

        @Flag(help: "Print one JSON object.")
        var json = false

        @OptionGroup var app: AppFilter

        func run() async throws {
            let (token, app) = (self.token, self.app.name)
            let connection = try await Runtime.openDatabase()
            let delivery = try await connection.withSession {
                try Activities.delivery(token: token, app: app, now: Date(), policy: ThrottlePolicy(), in: $0)
            }
            await connection.close()
            guard let delivery else { throw CLIError("no activity with token \(token.prefix(16))…") }
            let activity = delivery.activity
            let answer = delivery.lastAnswer
            if json {
                var object: [String: Any] = [
                    "id": activity.id, "gameId": activity.gameId, "pushToken": activity.pushToken,
                    "active": activity.active, "frequentUpdates": activity.frequentUpdates,
                    "route": activity.route.rawValue,
                    "pushes": ["pending", "sent", "superseded", "failed"].reduce(into: ["planned": delivery.planned]) {
                        $0[$1] = delivery.pushes[$1] ?? 0
                    },
                    "highPriorityLastHour": ["sent": delivery.highPriorityLastHour, "budget": delivery.hourlyBudget],
                ]
                object["lastSentAt"] = delivery.lastSentAt.map { rfc3339($0) } ?? NSNull()
                object["channel"] = delivery.channel ?? NSNull()
                if let answer {
                    var last: [String: Any] = ["outcome": answer.outcome, "at": rfc3339(answer.at)]
                    last["status"] = answer.status ?? NSNull()
                    last["reason"] = answer.reason ?? NSNull()
                    object["lastAnswer"] = last
                } else {
                    object["lastAnswer"] = NSNull()
                }
                let data = try JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                Output.line(String(decoding: data, as: UTF8.self))
                return
            }
            let state = activity.active ? "active" : "inactive (\(activity.deactivatedReason ?? ""))"
            Output.line(
                "activity \(activity.id) of \(activity.gameId), token \(activity.pushToken.prefix(8))…, \(state)"
                    + (activity.fcm.map(\.throughFCM) ?? ""))
            Output.line(
                "pushes: \(delivery.planned) planned, \(delivery.pushes["sent"] ?? 0) sent, "
                    + "\(delivery.pushes["pending"] ?? 0) pending, \(delivery.pushes["superseded"] ?? 0) superseded, "
                    + "\(delivery.pushes["failed"] ?? 0) failed")
            Output.line(
                "priority 10 in the last hour: \(delivery.highPriorityLastHour) of \(delivery.hourlyBudget)"
                    + (activity.frequentUpdates ? " (frequent updates)" : ""))
            if let answer {
                let status = answer.status.map(String.init) ?? "no answer"
                Output.line(
                    "last answer: \(status)\(answer.reason.map { " \($0)" } ?? "") → \(answer.outcome) at \(rfc3339(answer.at))"
                )
            } else {
                Output.line("last answer: none yet")
            }
            Output.line("channel: \(delivery.channel ?? "none (reached by its own push token)")")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deactivate an activity: nothing more is sent to it.")

        @Argument(help: "The activity's push token.")
        var token: String

        @OptionGroup var app: AppFilter

        func run() async throws {
            let (token, app) = (self.token, self.app.name)
            let connection = try await Runtime.openDatabase()
            let removed = try await connection.withSession {
                try Activities.deactivate(token: token, app: app, reason: "removed", in: $0)
            }
            await connection.close()
            guard removed else { throw CLIError("no active activity with token \(token.prefix(16))…") }
            Output.line("removed activity with token \(token.prefix(8))…")
        }
    }
}
