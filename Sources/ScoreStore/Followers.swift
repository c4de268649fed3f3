import Foundation
import LiveActivity
import PostgresClient

/// An Android device following one game: it gets the game as an Android 16 Live Update, built by the
/// app from FCM data messages (route `android` of the `activities` table).
public struct Follower: Sendable, Equatable {
    public var id: Int
    public var gameId: String
    public var fcm: FCMAddress
    public var followedAt: Date
    public var endedAt: Date?
    public var active: Bool
    public var deactivatedReason: String?
}

/// Android followers: stored beside the Live Activities, planned by the same planner, delivered by FCM.
public enum Followers {
    /// How many games one device may follow at once: each followed game gets at most 12 messages a
    /// minute (``ThrottlePolicy/liveUpdateInterval``), so a device stays far under FCM's 240.
    public static let maximumPerDevice = 10

    /// Why a follow was refused beyond a bad field.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case tooManyGames(Int)

        public var description: String {
            switch self {
            case .tooManyGames(let limit):
                "this device already follows \(limit) games (the most at once); unfollow one first"
            }
        }
    }

    /// A device follows a game from `followedAt` (changes before it send nothing). Following the same
    /// game again returns the existing follow (reactivated when it was removed).
    /// - Throws: ``ActivityError`` for a bad game id or address; ``Refusal`` past ``maximumPerDevice``.
    public static func follow(
        gameId: String, fcm: FCMAddress, at followedAt: Date, in session: PostgresSession
    ) throws -> Follower {
        try Activities.validate(gameId: gameId)
        let fcm = try fcm.validated()
        let others = try session.query(
            "SELECT count(*) AS n FROM activities WHERE route = 'android' AND fcm_token = $1 AND active AND game_id <> $2",
            [fcm.value, gameId])
        guard try others[0].int("n") < maximumPerDevice else { throw Refusal.tooManyGames(maximumPerDevice) }
        let throttle = LiveUpdateThrottle(followedAt: followedAt)
        let result = try session.query(
            """
            INSERT INTO activities (game_id, push_token, environment, bundle_id, registered_at, throttle_state,
                                    planned_position, route, fcm_token, fcm_kind)
            VALUES ($1, NULL, 'production', 'android', $2, $3,
                    coalesce((SELECT position FROM score_states WHERE game_id = $1), 0), 'android', $4, $5)
            ON CONFLICT (game_id, fcm_token) WHERE route = 'android' DO UPDATE SET
                active = true, deactivated_reason = NULL, fcm_kind = EXCLUDED.fcm_kind,
                planned_position = CASE WHEN activities.active THEN activities.planned_position
                                        ELSE EXCLUDED.planned_position END,
                throttle_state = CASE WHEN activities.active THEN activities.throttle_state
                                      ELSE EXCLUDED.throttle_state END,
                registered_at = CASE WHEN activities.active THEN activities.registered_at
                                     ELSE EXCLUDED.registered_at END,
                ended_at = CASE WHEN activities.active THEN activities.ended_at END
            RETURNING \(columns)
            """, [gameId, followedAt, throttle.storageText, fcm.value, fcm.kind])
        return try decode(result[0])
    }

    /// Followers, of one game or all, active first, in the order they followed.
    public static func list(gameId: String? = nil, in session: PostgresSession) throws -> [Follower] {
        try session.query(
            """
            SELECT \(columns) FROM activities WHERE route = 'android' AND ($1::text IS NULL OR game_id = $1)
            ORDER BY active DESC, id
            """, [gameId]
        ).rows.map(decode)
    }

    /// The device stops following the game (the app's unpin action): no more messages, its pending
    /// ones failed. Returns `false` when it did not follow it.
    @discardableResult
    public static func unfollow(gameId: String, fcmToken: String, in session: PostgresSession) throws -> Bool {
        let result = try session.query(
            """
            WITH gone AS (
                UPDATE activities SET active = false, deactivated_reason = 'unfollowed',
                                      ended_at = coalesce(ended_at, now()), next_deadline = NULL
                WHERE route = 'android' AND game_id = $1 AND fcm_token = $2 AND active
                RETURNING id
            ), failed AS (
                UPDATE activity_pushes p SET state = 'failed', last_reason = 'activity inactive', claimed_until = NULL
                FROM gone WHERE p.activity_id = gone.id AND p.state = 'pending'
            )
            SELECT count(*) AS n FROM gone
            """, [gameId, fcmToken])
        return try result[0].int("n") == 1
    }

    static let columns = "id, game_id, fcm_token, fcm_kind, registered_at, ended_at, active, deactivated_reason"

    static func decode(_ row: PostgresRow) throws -> Follower {
        guard let fcm = FCMAddress(kind: try row.text("fcm_kind"), value: try row.text("fcm_token")) else {
            throw StoreError.corruptState(reason: "an android follower without an FCM address")
        }
        return Follower(
            id: try row.int("id"), gameId: try row.string("game_id"), fcm: fcm,
            followedAt: try row.date("registered_at"),
            endedAt: try row.text("ended_at").flatMap(PostgresTimestamp.parse), active: try row.bool("active"),
            deactivatedReason: try row.text("deactivated_reason"))
    }
}
