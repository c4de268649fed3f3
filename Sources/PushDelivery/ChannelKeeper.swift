import APNs
import Foundation
import PostgresClient
import ScoreStore

/// Why a game's channel cannot be served.
public enum ChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No message of the game has arrived yet.
    case unknownGame(String)
    /// The environment already has Apple's maximum of open channels.
    case full(environment: PushEnvironment, open: Int)
    /// Apple's channel management API refused or did not answer.
    case apns(String)

    public var description: String {
        switch self {
        case .unknownGame(let game): "no game \"\(game)\" yet: no message of it has arrived"
        case .full(let environment, let open):
            "\(open) channels are open in \(environment.rawValue), Apple's limit (\(Channels.maximumOpen)); "
                + "channels of finished games are deleted after their dismissal window"
        case .apns(let why): "APNs channel management: \(why)"
        }
    }
}

/// Serves each game's broadcast channel, creating it through Apple's channel management API on first
/// use (No Message Storage, as Apple advises for sports scores). Idempotent: two requests at once
/// get the same channel (the loser's extra channel is deleted at Apple).
public enum ChannelKeeper {
    /// The game's open channel of `app` in the environment, created when it has none (each app has its
    /// own: Apple keeps channels per bundle id). A channel it creates is registered at `registeredAt`:
    /// it broadcasts the changes after that time (a past time lets a replayed game broadcast to it).
    public static func channel(
        gameId: String, environment: PushEnvironment, app: String = AppName.default, client: APNsChannelClient,
        registeredAt: Date = Date(), database: some PostgresTransactor
    ) async throws -> StoredChannel {
        let existing = try await database.transaction { tx -> StoredChannel? in
            if let open = try Channels.open(gameId: gameId, environment: environment, app: app, in: tx) { return open }
            guard try EventLog.hasStream(gameId, in: tx) else { throw ChannelError.unknownGame(gameId) }
            let open = try Channels.openCount(environment: environment, in: tx)
            guard open < Channels.maximumOpen else { throw ChannelError.full(environment: environment, open: open) }
            return nil
        }
        if let existing { return existing }
        let created = await client.create()
        guard created.status == 201, let id = created.channelId, !id.isEmpty else {
            if created.reason == "CannotCreateChannelConfig" {
                let open = try await database.transaction { try Channels.openCount(environment: environment, in: $0) }
                throw ChannelError.full(environment: environment, open: open)
            }
            throw ChannelError.apns(APNsResultError(result: created).description)
        }
        let (stored, won) = try await database.transaction { tx -> (StoredChannel, Bool) in
            try Channels.lock(gameId: gameId, in: tx)
            if let open = try Channels.open(gameId: gameId, environment: environment, app: app, in: tx) {
                return (open, false)
            }
            return (
                try Channels.insert(
                    gameId: gameId, environment: environment, channelId: id,
                    storagePolicy: APNsChannelClient.noMessageStorage, app: app, registeredAt: registeredAt, in: tx),
                true
            )
        }
        if !won { _ = await client.delete(id) }
        return stored
    }

    /// Deletes at Apple, and marks deleted, the channels of games that are over and whose dismissal
    /// window (`dismissAfter` seconds after the end) has passed: channels are a limited resource (10,000
    /// per environment). Returns how many it deleted; a channel Apple no longer knows counts too.
    @discardableResult
    public static func deleteFinished(
        now: Date, dismissAfter: Int, client: @Sendable (PushEnvironment) -> APNsChannelClient,
        database: some PostgresTransactor
    ) async throws -> Int {
        let before = now.addingTimeInterval(-Double(dismissAfter))
        let finished = try await database.transaction { try Channels.finished(before: before, in: $0) }
        var deleted = 0
        for channel in finished {
            let answer = await client(channel.environment).delete(channel.channelId)
            guard answer.status == 204 || answer.reason == "ChannelNotRegistered" else { continue }
            let channelId = channel.channelId
            if try await database.transaction({
                try Channels.markDeleted(channelId: channelId, reason: "game over", in: $0)
            }) {
                deleted += 1
            }
        }
        return deleted
    }

    /// APNs no longer knows the channel (`ChannelNotRegistered`, `BadChannelId`): it is marked deleted
    /// and a new one is created and served.
    public static func replace(
        _ stale: StoredChannel, reason: String, client: APNsChannelClient, database: some PostgresTransactor
    ) async throws -> StoredChannel {
        let channelId = stale.channelId
        _ = try await database.transaction { try Channels.markDeleted(channelId: channelId, reason: reason, in: $0) }
        return try await channel(
            gameId: stale.gameId, environment: stale.environment, app: stale.app, client: client, database: database)
    }
}
