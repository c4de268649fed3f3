import ArgumentParser
import Foundation
import ScoreDomain
import ScoreStore

/// `scorefeed follower add|list|remove`: Android devices that chose to follow a game (Live Updates).
struct FollowerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follower",
        abstract: "Android devices following a game as an Android 16 Live Update (FCM data messages).",
        subcommands: [Add.self, List.self, Remove.self]
    )

    /// The device's FCM address from the argument and `--fid`.
    static func address(_ value: String, fid: Bool) -> FCMAddress { fid ? .fid(value) : .token(value) }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A device follows a game: it gets the score as data messages until the end.")

        @Argument(help: "The game id.")
        var game: String

        @Argument(help: "The device's FCM registration token (or Firebase Installation ID with --fid).")
        var token: String

        @Flag(help: "The token is a Firebase Installation ID.")
        var fid = false

        @Option(help: "When the user chose to follow, as RFC 3339 (default: now). For instant replays of past games.")
        var at: String?

        @Flag(help: "Follow although no message of the game arrived yet (the provider will announce it later).")
        var allowUnknownGame = false

        @OptionGroup var app: AppOption

        func run() async throws {
            let address = FollowerCommand.address(token, fid: fid)
            do {
                try Activities.validate(gameId: game)
                _ = try address.validated()
            } catch {
                throw ValidationError(error.description)
            }
            let followedAt = try Runtime.time(at: at)
            let (game, allowUnknown, time, app) = (game, allowUnknownGame, followedAt, app.name)
            let connection = try await Runtime.openDatabase()
            let follower: Follower
            let started: Bool
            do {
                (follower, started) = try await connection.transaction { session in
                    guard try allowUnknown || EventLog.hasStream(game, in: session) else {
                        throw CLIError(
                            "no game \"\(game)\" yet: no message of it has arrived; follow after the provider's "
                                + "game.scheduled, or pass --allow-unknown-game if the provider will announce it later")
                    }
                    return try Followers.follow(gameId: game, fcm: address, app: app, at: time, in: session)
                }
            } catch let refusal as Followers.Refusal {
                await connection.close()
                throw CLIError(refusal.description)
            } catch let refusal as RegistrationRefusal {
                await connection.close()
                throw CLIError(refusal.description)
            }
            await connection.close()
            Output.line(
                "device \(follower.fcm.value.prefix(8))… follows game \(follower.gameId) (follower \(follower.id)"
                    + (started ? ")" : ", already)"))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List followers.")

        @Argument(help: "Only this game's followers.")
        var game: String?

        @Flag(help: "Print one JSON array.")
        var json = false

        @OptionGroup var app: AppFilter

        func run() async throws {
            let (game, app) = (self.game, self.app.name)
            let connection = try await Runtime.openDatabase()
            let followers = try await connection.withSession { try Followers.list(gameId: game, app: app, in: $0) }
            await connection.close()
            if json {
                Output.line(JSONValue.array(followers.map(\.jsonValue)).serialized())
                return
            }
            guard !followers.isEmpty else {
                Output.line("no followers")
                return
            }
            let rows = followers.map { f in
                [
                    String(f.id), f.gameId, f.fcm.kind, String(f.fcm.value.prefix(12)) + "…", rfc3339(f.followedAt),
                    f.active ? "active" : "inactive (\(f.deactivatedReason ?? ""))",
                ]
            }
            Output.write(Table.render(header: ["ID", "GAME", "KIND", "TOKEN", "FOLLOWED", "STATE"], rows: rows))
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The device stops following the game (the app's unpin action): nothing more is sent.")

        @Argument(help: "The game id.")
        var game: String

        @Argument(help: "The device's FCM registration token or installation id.")
        var token: String

        @OptionGroup var app: AppFilter

        func run() async throws {
            let (game, token, app) = (game, token, app.name)
            let connection = try await Runtime.openDatabase()
            let removed = try await connection.withSession {
                try Followers.unfollow(gameId: game, fcmToken: token, app: app, in: $0)
            }
            await connection.close()
            guard removed else { throw CLIError("device \(token.prefix(8))… does not follow game \(game)") }
            Output.line("device \(token.prefix(8))… no longer follows game \(game)")
        }
    }
}
