import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain

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
    /// The app whose key made the follow (``AppName``).
    public var app: String = AppName.default
    /// The FCM topic the device subscribes to when its app's followers are reached through one topic
    /// per game (``Followers/topic(gameId:app:)``); `nil` when its messages go to its own address.
    public var topic: String? = nil

    /// The follower as `GET /v1/followers` and `scorefeed follower list --json` show it.
    public var jsonValue: JSONValue {
        .object(
            JSONObject([
                "id": .int(id), "gameId": .string(gameId), "followedAt": .string(rfc3339(followedAt)),
                "endedAt": endedAt.map { .string(rfc3339($0)) } ?? .null, "active": .bool(active),
                "deactivatedReason": deactivatedReason.map(JSONValue.string) ?? .null,
                "topic": topic.map(JSONValue.string) ?? .null,
            ]).merging(FCMAddress.jsonMembers(fcm)) { $1 })
    }
}

/// Android followers: stored beside the Live Activities, planned by the same planner, delivered by FCM.
public enum Followers {
    /// How many unfinished games (not over, no end sent) one device may follow at once: each gets at most 12 messages a minute
    /// (``ThrottlePolicy/liveUpdateInterval``, 5 s) and 720 an hour, so a device stays under FCM's 240 a
    /// minute and 5,000 an hour (6 × 720 = 4,320) even if every game changed all the time.
    public static let maximumPerDevice = 6

    /// Why a follow was refused beyond a bad field.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case tooManyGames(Int)

        public var description: String {
            switch self {
            case .tooManyGames(let limit):
                "this device already follows \(limit) games that are not over (the most at once); unfollow one first"
            }
        }
    }

    /// A device follows a game from `followedAt` (changes before it send nothing), as `app`'s. When
    /// the game is known, its current state goes out at once: the Live Update's start. Following the
    /// same game again returns the existing follow (reactivated when it was removed; its `seq` goes on
    /// from the last message, so the app never takes a new message for an old one).
    ///
    /// With `viaTopic`, the app's followers of the game are reached through one FCM topic
    /// (``topic(gameId:app:)``), the analog of a broadcast channel: the device still gets the current
    /// state at its own address, once, and counts towards ``maximumPerDevice``; every later message goes
    /// once to the topic, a target of its own planned like a follower, which the first such follow
    /// creates. The follower names the topic the app subscribes the device to.
    /// - Returns: the follower, and whether this call started the follow (`false`: it was active already).
    /// - Throws: ``ActivityError`` for a bad game id or address; ``Refusal`` past ``maximumPerDevice``;
    ///   ``RegistrationRefusal`` when the game is over or the address is another app's.
    public static func follow(
        gameId: String, fcm: FCMAddress, app: String = AppName.default, at followedAt: Date,
        policy: ThrottlePolicy = ThrottlePolicy(), viaTopic: Bool = false, in session: PostgresSession
    ) throws -> (follower: Follower, started: Bool) {
        try Activities.validate(gameId: gameId)
        let fcm = try fcm.validated()
        // Holds the address's lock: one follow of it at a time, so two at once cannot both pass the count below.
        try fcm.requireOwned(by: app, in: session)
        let existing = try session.query(
            """
            SELECT \(columns), throttle_state FROM activities
            WHERE route = 'android' AND game_id = $1 AND fcm_token = $2 FOR UPDATE
            """, [gameId, fcm.value]
        ).rows.first
        if let existing, try existing.bool("active") { return (try decode(existing), false) }
        // A new follow of a game that is over would wait for ever.
        let game = try GameEnd.check(gameId, in: session)
        if let end = game.end { throw RegistrationRefusal.gameOver(end) }
        let others = try session.query(
            """
            SELECT count(*) AS n FROM activities a
            WHERE a.route = 'android' AND a.fcm_token = $1 AND a.active AND a.ended_at IS NULL AND a.game_id <> $2
              AND NOT EXISTS (SELECT 1 FROM score_states s
                              WHERE s.game_id = a.game_id AND s.status IN ('closed', 'cancelled', 'postponed'))
            """, [fcm.value, gameId])
        guard try others[0].int("n") < maximumPerDevice else { throw Refusal.tooManyGames(maximumPerDevice) }
        let lastSeq = try existing.flatMap {
            try LiveUpdateThrottle(storageText: try $0.string("throttle_state")).lastSeq
        }
        var throttle = LiveUpdateThrottle(followedAt: followedAt, seq: lastSeq ?? 0)
        let pushes = game.state.map { throttle.start($0, at: followedAt, policy: policy) } ?? []
        let topic = viaTopic ? Self.topic(gameId: gameId, app: app) : nil
        if let topic {
            // The topic's target: created by the game's first follow through it, planned from now on
            // like a follower (what it would send now, the current state, each device gets by itself).
            var topicThrottle = LiveUpdateThrottle(followedAt: followedAt, seq: 0)
            _ = game.state.map { topicThrottle.start($0, at: followedAt, policy: policy) }
            try session.query(
                """
                INSERT INTO activities (game_id, push_token, environment, bundle_id, registered_at, throttle_state,
                                        planned_position, route, fcm_token, fcm_kind, next_deadline, app)
                VALUES ($1, NULL, NULL, NULL, $2, $3, $4, 'android', $5, 'topic', NULL, $6)
                ON CONFLICT (game_id, fcm_token) WHERE route = 'android' DO NOTHING
                """, [gameId, followedAt, topicThrottle.storageText, game.position, topic, app])
        }
        let result = try session.query(
            """
            INSERT INTO activities (game_id, push_token, environment, bundle_id, registered_at, throttle_state,
                                    planned_position, route, fcm_token, fcm_kind, next_deadline, app, topic)
            VALUES ($1, NULL, NULL, NULL, $2, $3, $4, 'android', $5, $6, NULL, $7, $8)
            ON CONFLICT (game_id, fcm_token) WHERE route = 'android' DO UPDATE SET
                active = true, deactivated_reason = NULL, fcm_kind = EXCLUDED.fcm_kind, ended_at = NULL,
                planned_position = EXCLUDED.planned_position, throttle_state = EXCLUDED.throttle_state,
                registered_at = EXCLUDED.registered_at, next_deadline = NULL, topic = EXCLUDED.topic
            RETURNING \(columns)
            """, [gameId, followedAt, throttle.storageText, game.position, fcm.value, fcm.kind, app, topic])
        let follower = try decode(result[0])
        try TargetPushes.insert(
            pushes.map { PlannedPush(targetId: follower.id, gameId: gameId, position: nil, push: $0) }, in: session)
        return (follower, true)
    }

    /// The FCM topic of `app`'s followers of `gameId`: `scorefeed.<app>.<game id>`, the game id's `:`
    /// written `%3A` (a topic name is made of A-Z, a-z, 0-9, `-`, `_`, `.`, `~` and `%`).
    public static func topic(gameId: String, app: String) -> String {
        "scorefeed.\(app).\(gameId.replacingOccurrences(of: ":", with: "%3A"))"
    }

    /// Followers, of one game or all, of one app or all, active first, in the order they followed.
    public static func list(gameId: String? = nil, app: String? = nil, in session: PostgresSession) throws
        -> [Follower]
    {
        try session.query(
            """
            SELECT \(columns) FROM activities
            WHERE route = 'android' AND fcm_kind <> 'topic'
              AND ($1::text IS NULL OR game_id = $1) AND ($2::text IS NULL OR app = $2)
            ORDER BY active DESC, id
            """, [gameId, app]
        ).rows.map(decode)
    }

    /// The device stops following the game (the app's unpin action): no more messages, its pending
    /// ones failed. Returns `false` when it did not follow it (as a follow of `app`; `nil`: of any app).
    @discardableResult
    public static func unfollow(gameId: String, fcmToken: String, app: String? = nil, in session: PostgresSession)
        throws -> Bool
    {
        try Activities.deactivate(
            where: "route = 'android' AND game_id = $2 AND fcm_token = $3 AND ($4::text IS NULL OR app = $4)",
            [gameId, fcmToken, app], reason: "unfollowed", in: session) == 1
    }

    static let columns =
        "id, game_id, fcm_token, fcm_kind, registered_at, ended_at, active, deactivated_reason, app, topic"

    static func decode(_ row: PostgresRow) throws -> Follower {
        guard let fcm = FCMAddress(kind: try row.text("fcm_kind"), value: try row.text("fcm_token")) else {
            throw StoreError.corruptState(reason: "an android follower without an FCM address")
        }
        return Follower(
            id: try row.int("id"), gameId: try row.string("game_id"), fcm: fcm,
            followedAt: try row.date("registered_at"),
            endedAt: try row.text("ended_at").flatMap(PostgresTimestamp.parse), active: try row.bool("active"),
            deactivatedReason: try row.text("deactivated_reason"), app: try row.string("app"),
            topic: try row.text("topic"))
    }
}
