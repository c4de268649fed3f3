import PostgresClient

/// Why renaming an app was refused.
public enum AppRenameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A name is not an app name.
    case invalidName(String)
    /// The old and the new name are the same.
    case sameName
    /// The old app owns nothing.
    case nothingToRename(String)
    /// The new app owns registrations already, and merging was not asked for.
    case newNameInUse(String)
    /// Both apps have an open broadcast channel of this game in one environment (Apple keeps
    /// channels per bundle id): the two cannot become one app's.
    case channelClash(gameId: String, environment: String)

    public var description: String {
        switch self {
        case .invalidName(let name): "\"\(name)\" is not an app name: \(AppName.rule)"
        case .sameName: "the old and the new name are the same"
        case .nothingToRename(let name): "app \"\(name)\" owns no activity, follower, device or channel"
        case .newNameInUse(let name):
            "app \"\(name)\" already owns registrations; --merge gives it the old app's as well"
        case .channelClash(let gameId, let environment):
            "both apps have an open \(environment) channel of game \"\(gameId)\"; delete one first"
        }
    }
}

extension AppName {
    /// How many rows of each table a rename moved.
    public struct Renamed: Sendable, Equatable {
        /// Activities and Android followers (`activities`).
        public var activities: Int
        public var devices: Int
        public var channels: Int
    }

    /// Gives everything `old` owns (activities, Android followers, devices, channels; and so their
    /// pushes) to `new`, in the caller's transaction: after naming an app's keys in
    /// `SCOREFEED_APP_KEYS` (a bare `KEY` becoming `ios:KEY`), what its keys registered before stays
    /// theirs. Refused when `new` owns rows already unless `merge`; a merge is refused when both apps
    /// have an open channel of one game in one environment.
    public static func rename(_ old: String, to new: String, merge: Bool = false, in tx: PostgresSession) throws
        -> Renamed
    {
        for name in [old, new] where !isValid(name) { throw AppRenameError.invalidName(name) }
        guard old != new else { throw AppRenameError.sameName }
        let tables = ["activities", "devices", "channels"]
        // No registration of either app is made or moved while the rows change hands.
        try tx.query("LOCK TABLE \(tables.joined(separator: ", ")) IN SHARE ROW EXCLUSIVE MODE")
        func owns(_ app: String) throws -> Bool {
            let sql = tables.map { "EXISTS (SELECT 1 FROM \($0) WHERE app = $1)" }.joined(separator: " OR ")
            return try tx.query("SELECT \(sql) AS owns", [app])[0].bool("owns")
        }
        guard try owns(old) else { throw AppRenameError.nothingToRename(old) }
        if try owns(new) {
            guard merge else { throw AppRenameError.newNameInUse(new) }
            let clash = try tx.query(
                """
                SELECT o.game_id, o.environment FROM channels o JOIN channels n
                  ON n.game_id = o.game_id AND n.environment = o.environment AND n.app = $2 AND n.deleted_at IS NULL
                WHERE o.app = $1 AND o.deleted_at IS NULL ORDER BY o.game_id LIMIT 1
                """, [old, new])
            if let row = clash.rows.first {
                throw AppRenameError.channelClash(
                    gameId: try row.string("game_id"), environment: try row.string("environment"))
            }
        }
        let moved = try tables.map {
            try tx.query("UPDATE \($0) SET app = $2 WHERE app = $1", [old, new]).affectedRows
        }
        return Renamed(activities: moved[0], devices: moved[1], channels: moved[2])
    }
}
