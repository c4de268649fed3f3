import Foundation
import PostgresClient
import ScoreDomain

/// Why a well-formed registration was refused: because of what another registration, or the game,
/// already is, or because what it names does not exist.
public enum RegistrationRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token (`field`: `pushToken`, `startToken`, `fcmToken` or `fid`) is registered by another app.
    case otherApp(field: String)
    /// The push token is registered for another game.
    case otherGame
    /// The game is over: a new registration would wait for ever, nothing would be sent to it.
    case gameOver(GameEnd)
    /// The `startToken` an activity names is no push-to-start device of the app.
    case unknownStartToken

    /// The field the conflict is about.
    public var field: String {
        switch self {
        case .otherApp(let field): field
        case .otherGame: "pushToken"
        case .gameOver: "gameId"
        case .unknownStartToken: "startToken"
        }
    }

    public var description: String {
        switch self {
        case .otherApp(let field): "\(field): this token is registered by another app"
        case .otherGame: "pushToken: this token is already registered for another game"
        case .gameOver(let end): end.description
        case .unknownStartToken: "startToken: no push-to-start device of this app has this token"
        }
    }
}

/// How a game ended (closed, cancelled or postponed), as a refused registration names it.
public struct GameEnd: Sendable, Equatable, CustomStringConvertible {
    public var gameId: String
    public var status: GameStatus
    public var home: String
    public var away: String
    public var homeScore: Int
    public var awayScore: Int
    /// When the game's last message happened (its `at`).
    public var at: Date

    public init(_ state: ScoreState) {
        (gameId, status, home, away) = (state.gameId, state.status, state.home.code, state.away.code)
        (homeScore, awayScore, at) = (state.homeScore, state.awayScore, state.updatedAt)
    }

    public var description: String {
        "game \"\(gameId)\" is over (\(status.rawValue), \(away) \(awayScore) at \(home) \(homeScore), "
            + "\(rfc3339(at))): nothing more will be sent for it"
    }

    /// The game's projected position (0 before its first message), its state (`nil` before its first
    /// message) and, when it is over, how it ended: one read, so a registration planned through that
    /// position gets the end should it come later.
    static func check(_ gameId: String, in session: PostgresSession) throws
        -> (position: Int, state: ScoreState?, end: GameEnd?)
    {
        guard let current = try ScoreProjection.positioned(gameId: gameId, in: session).first else {
            return (0, nil, nil)
        }
        return (current.position, current.state, current.state.status.isEnded ? GameEnd(current.state) : nil)
    }

    /// The end of the first of these games that is over, if any.
    static func first(of gameIds: [String], in session: PostgresSession) throws -> GameEnd? {
        let over = try session.query(
            """
            SELECT game_id FROM score_states WHERE game_id = ANY($1::text[]) AND status IN ('closed', 'cancelled', 'postponed')
            ORDER BY game_id LIMIT 1
            """, [gameIds])
        guard let gameId = try over.rows.first?.string("game_id") else { return nil }
        return try ScoreProjection.load(gameId, in: session).map(GameEnd.init)
    }
}

extension FCMAddress {
    /// The field that names the address in a registration: `fcmToken` or `fid`.
    public var field: String {
        switch self {
        case .token, .topic: "fcmToken"
        case .fid: "fid"
        }
    }

    /// Throws ``RegistrationRefusal/otherApp(field:)`` when a target or device of another app than
    /// `app` is reached through this FCM registration: it is that app's, and not to be taken over.
    /// Takes the address's lock until the transaction ends, so two apps registering the same address
    /// at once cannot both pass the check (the second waits, then sees the first's row).
    func requireOwned(by app: String, in session: PostgresSession) throws {
        try session.query("SELECT pg_advisory_xact_lock(\(AdvisoryLock.fcmAddress))", [value])
        let taken = try session.query(
            """
            SELECT EXISTS (SELECT 1 FROM activities WHERE fcm_token = $1 AND app <> $2)
                OR EXISTS (SELECT 1 FROM devices WHERE fcm_token = $1 AND app <> $2) AS taken
            """, [value, app])
        if try taken[0].bool("taken") { throw RegistrationRefusal.otherApp(field: field) }
    }
}
