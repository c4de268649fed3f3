import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain

/// The APNs environment an activity's token belongs to.
public enum PushEnvironment: String, Sendable, Codable, CaseIterable {
    case production, sandbox
}

/// How a push target is reached.
public enum PushRoute: String, Sendable, Codable, CaseIterable {
    /// A Live Activity token, straight to APNs.
    case apns
    /// A Live Activity token through FCM HTTP v1 (`apns.live_activity_token`), to the app's FCM registration.
    case fcm
    /// An Android device following the game (Live Update), FCM data messages.
    case android
}

extension FCMAddress {
    /// Checks an address: an FCM registration token is 8 to 4096 characters of A-Z, a-z, 0-9, `_`,
    /// `-`, `:` and `.`; a Firebase Installation ID is 22 characters of A-Z, a-z, 0-9, `_` and `-`.
    /// - Throws: ``ActivityError`` naming `fcmToken` or `fid`.
    public func validated() throws(ActivityError) -> FCMAddress {
        func allowed(_ scalar: Unicode.Scalar, extra: String) -> Bool {
            ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
                || extra.unicodeScalars.contains(scalar)
        }
        switch self {
        case .token(let token):
            guard (8...4096).contains(token.utf8.count), token.unicodeScalars.allSatisfy({ allowed($0, extra: "_-:.") })
            else {
                throw ActivityError(
                    field: "fcmToken",
                    reason: "must be an FCM registration token (8 to 4096 characters of A-Z, a-z, 0-9, _, -, :, .)")
            }
        case .fid(let fid):
            guard fid.utf8.count == 22, fid.unicodeScalars.allSatisfy({ allowed($0, extra: "_-") }) else {
                throw ActivityError(
                    field: "fid", reason: "must be a Firebase Installation ID (22 characters of A-Z, a-z, 0-9, _, -)")
            }
        case .topic:
            // ScoreFeed names the topics (``Followers/topic(gameId:app:)``); a registration never gives one.
            throw ActivityError(field: "fcmToken", reason: "must be a registration token or an installation id")
        }
        return self
    }
}

/// A registered push target: a Live Activity (reached through APNs or FCM) or an Android follower.
public struct Activity: Sendable, Equatable {
    public var id: Int
    public var gameId: String
    /// Lowercase hex; empty for an Android follower (it has no APNs token).
    public var pushToken: String
    public var route: PushRoute = .apns
    /// The app's FCM registration token or installation id (routes `fcm` and `android`).
    public var fcm: FCMAddress?
    public var environment: PushEnvironment
    public var bundleId: String
    public var frequentUpdates: Bool
    public var registeredAt: Date
    public var endedAt: Date?
    public var active: Bool
    public var deactivatedReason: String?
    /// The app whose key registered it (``AppName``).
    public var app: String = AppName.default
}

/// Why a registration was refused, naming the field.
public struct ActivityError: Error, Sendable, CustomStringConvertible, Equatable {
    public var field: String
    public var reason: String
    public var description: String { "\(field): \(reason)" }
}

/// The `activities` table: Live Activities registered per game, each a member of a target group that
/// holds the throttle state it shares (``TargetGroups``), or (Android followers, activities registered
/// before target groups) with a throttle state of its own.
public enum Activities {
    /// Checks a registration and normalises the token to lowercase hex.
    public static func validate(gameId: String, token: String, bundleId: String) throws(ActivityError) -> String {
        try validate(gameId: gameId)
        let lower = try normalizedToken(token)
        try validate(bundleId: bundleId)
        return lower
    }

    /// Checks a bundle id: reverse DNS, 1 to 155 characters of A-Z, a-z, 0-9, '.' and '-' with a '.'.
    public static func validate(bundleId: String) throws(ActivityError) {
        let bundleOK =
            (1...155).contains(bundleId.count) && bundleId.contains(".")
            && bundleId.unicodeScalars.allSatisfy { Self.isIdCharacter($0) && $0 != "_" }
        guard bundleOK else {
            throw ActivityError(field: "bundleId", reason: "must be a reverse-DNS bundle id such as com.example.scores")
        }
    }

    /// Checks a game id: the feed's rule (``GameIdRule``).
    public static func validate(gameId: String) throws(ActivityError) {
        guard GameIdRule.isValid(gameId) else { throw ActivityError(field: "gameId", reason: GameIdRule.text) }
    }

    /// A push token as stored: lowercase hex, an even number of 16 to 512 digits.
    public static func normalizedToken(_ token: String) throws(ActivityError) -> String {
        let lower = token.lowercased()
        guard (16...512).contains(lower.count), lower.count % 2 == 0,
            lower.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit })
        else {
            throw ActivityError(
                field: "pushToken",
                reason: "must be an even number (16 to 512) of hexadecimal digits, got \"\(token.prefix(16))…\"")
        }
        return lower
    }

    private static func isIdCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "." || scalar == "_" || scalar == "-"
    }

    /// Registers an activity for a game (the game need not exist yet) as `app`'s, in the group it joins
    /// (``TargetGroups/join(gameId:route:frequentUpdates:registeredAt:position:in:)``).
    ///
    /// - Returns: the activity; registering the same token for the same game again returns the
    ///   existing one (reactivated when it was removed).
    /// - Throws: ``ActivityError`` for a bad field; ``RegistrationRefusal`` for a token registered
    ///   for another game or by another app (never taken over), or a game that is over.
    ///   With `fcm`, the activity's pushes go through FCM to that app registration (route `fcm`), with
    ///   exactly the same decisions; registering again may move it between APNs and FCM: what waits
    ///   goes the new way, what was sent keeps the route it went by.
    public static func register(
        gameId: String, token: String, environment: PushEnvironment, bundleId: String, frequentUpdates: Bool,
        fcm: FCMAddress? = nil, app: String = AppName.default, at registeredAt: Date, in session: PostgresSession
    ) throws -> Activity {
        let token = try validate(gameId: gameId, token: token, bundleId: bundleId)
        let fcm = try fcm?.validated()
        let game = try GameEnd.check(gameId, in: session)
        if let end = game.end {
            // After the end only an activity still registered may be registered again (a new route for
            // what still waits); a new one would wait for ever.
            let registered = try session.query(
                "SELECT 1 FROM activities WHERE push_token = $1 AND game_id = $2 AND app = $3 AND active",
                [token, gameId, app])
            guard registered.count == 1 else { throw RegistrationRefusal.gameOver(end) }
        }
        try fcm?.requireOwned(by: app, in: session)
        let route = fcm == nil ? PushRoute.apns : PushRoute.fcm
        // A new token joins its game's fresh group (or starts one); one registered before keeps its
        // group, or its own state (registered before target groups), and leaves its group for another
        // when its route changes.
        let before = try session.query(
            "SELECT id, route, group_id, frequent_updates FROM activities WHERE push_token = $1", [token]
        ).rows.first
        let group =
            before == nil
            ? try TargetGroups.join(
                gameId: gameId, route: route, frequentUpdates: frequentUpdates, registeredAt: registeredAt,
                position: game.position, in: session) : nil
        // Planned through the position read with the game's status: should the end come after that
        // read, the activity is behind it and gets it (``behind(limit:in:)``).
        let result = try session.query(
            """
            INSERT INTO activities (game_id, push_token, environment, bundle_id, frequent_updates, registered_at,
                                    throttle_state, planned_position, route, fcm_token, fcm_kind, app, group_id,
                                    grouped_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $11, $8, $9, $10, $12, $13, CASE WHEN $13::bigint IS NULL THEN NULL ELSE now() END)
            ON CONFLICT (push_token) DO UPDATE SET active = true, deactivated_reason = NULL,
                planned_position = CASE WHEN activities.active THEN activities.planned_position
                                        ELSE EXCLUDED.planned_position END,
                route = EXCLUDED.route, fcm_token = EXCLUDED.fcm_token, fcm_kind = EXCLUDED.fcm_kind
                WHERE activities.game_id = EXCLUDED.game_id AND activities.app = EXCLUDED.app
            RETURNING \(columns)
            """,
            [
                gameId, token, environment.rawValue, bundleId, frequentUpdates, registeredAt,
                group == nil
                    ? ActivityThrottle(registeredAt: registeredAt, frequentUpdates: frequentUpdates).storageText : nil,
                route.rawValue, fcm?.value, fcm?.kind, game.position, app, group,
            ])
        guard result.count == 1 else {
            let owner = try session.query("SELECT app FROM activities WHERE push_token = $1", [token])
            if let other = try owner.rows.first?.string("app"), other != app {
                throw RegistrationRefusal.otherApp(field: "pushToken")
            }
            throw RegistrationRefusal.otherGame
        }
        if let before, try before.optionalInt("group_id") != nil, try before.string("route") != route.rawValue {
            try TargetGroups.leave(
                activityId: try before.int("id"), route: route, frequentUpdates: try before.bool("frequent_updates"),
                in: session)
        }
        let activity = try decode(result[0])
        // Registered again by another route (APNs <-> FCM) or FCM token: what still waits goes the new way
        // (a push on the wire keeps the route and token it was claimed for: ``Outbox/record(_:in:)``).
        try session.query(
            """
            UPDATE outbox SET route = $2, fcm_token = $3, fcm_kind = $4
            WHERE activity_id = $1 AND state = 'pending' AND (route, fcm_token, fcm_kind) IS DISTINCT FROM ($2::text, $3::text, $4::text)
            """, [activity.id, activity.route.rawValue, activity.fcm?.value, activity.fcm?.kind])
        return activity
    }

    /// Registers many activities of one game at once (one statement); tokens must be new.
    ///
    /// - Returns: how many were registered.
    public static func registerMany(
        gameId: String, tokens: [String], environment: PushEnvironment, bundleId: String, frequentUpdates: Bool,
        at registeredAt: Date, in session: PostgresSession
    ) throws -> Int {
        let normalized = try tokens.map { try validate(gameId: gameId, token: $0, bundleId: bundleId) }
        let position = try GameEnd.check(gameId, in: session).position
        let group = try TargetGroups.join(
            gameId: gameId, route: .apns, frequentUpdates: frequentUpdates, registeredAt: registeredAt,
            position: position, in: session)
        let result = try session.query(
            """
            INSERT INTO activities (game_id, push_token, environment, bundle_id, frequent_updates, registered_at,
                                    planned_position, group_id, grouped_at)
            SELECT $1, t, $3, $4, $5, $6, $7, $8, now() FROM unnest($2::text[]) AS t
            """, [gameId, normalized, environment.rawValue, bundleId, frequentUpdates, registeredAt, position, group])
        return result.affectedRows
    }

    /// Live Activities (by APNs or FCM; not Android followers), of one game or all, of one app or all,
    /// active first, in registration order.
    public static func list(gameId: String? = nil, app: String? = nil, in session: PostgresSession) throws
        -> [Activity]
    {
        let result = try session.query(
            """
            SELECT \(columns) FROM activities
            WHERE ($1::text IS NULL OR game_id = $1) AND ($2::text IS NULL OR app = $2) AND route <> 'android'
            ORDER BY active DESC, id
            """, [gameId, app])
        return try result.rows.map(decode)
    }

    /// Deactivates the activity with this token (of `app`; `nil`: of any app) and fails its pending
    /// pushes (`activity inactive`), in one statement, so no caller can leave one done without the other.
    /// Returns `false` when no such active activity exists.
    @discardableResult
    public static func deactivate(token: String, app: String? = nil, reason: String, in session: PostgresSession)
        throws -> Bool
    {
        try deactivate(
            where: "push_token = $2 AND ($3::text IS NULL OR app = $3)", [token.lowercased(), app], reason: reason,
            in: session) == 1
    }

    /// Deactivates what a push's answer says is gone: the push's token, or through FCM its registration
    /// (every target reached by it). Fails their pending pushes too.
    static func deactivate(reachedBy push: TargetPush, reason: String, in session: PostgresSession) throws {
        if let fcm = push.fcm {
            try deactivate(fcmToken: fcm.value, reason: reason, in: session)
        } else {
            try deactivate(token: push.pushToken, reason: reason, in: session)
        }
    }

    /// Deactivates every target reached through this FCM registration (FCM said it is gone:
    /// `UNREGISTERED`, `SENDER_ID_MISMATCH`) and fails their pending pushes, in one statement; a
    /// push-to-start device registered through it is retired too.
    /// - Returns: how many targets it deactivated.
    @discardableResult
    public static func deactivate(fcmToken: String, reason: String, in session: PostgresSession) throws -> Int {
        try deactivate(
            where: "fcm_token = $2", [fcmToken], reason: reason,
            also: "UPDATE devices SET active = false WHERE fcm_token = $2 AND active", in: session)
    }

    /// Deactivates the active targets matching `condition` (over `$2`, `$3`, … = `parameters`; `$1` is
    /// the reason) and fails their pending pushes in one statement, running `also` in it too.
    /// - Returns: how many targets it deactivated.
    static func deactivate(
        where condition: String, _ parameters: [any PostgresEncodable], reason: String, also: String? = nil,
        in session: PostgresSession
    ) throws -> Int {
        let result = try session.query(
            """
            WITH gone AS (
                UPDATE activities SET active = false, deactivated_reason = $1, ended_at = coalesce(ended_at, now()),
                                      next_deadline = NULL
                WHERE \(condition) AND active
                RETURNING id, group_id, push_token, fcm_token, game_id, route, fcm_kind
            ), failed AS (
                UPDATE outbox p SET state = 'failed', last_reason = 'activity inactive', claimed_until = NULL
                FROM gone WHERE p.activity_id = gone.id AND p.state = 'pending'
            ), skipped AS (
                -- Its group's messages still to walk past it: failed for it, as its own would be.
                \(Walks.ownRow(member: "gone", state: "'failed'", reason: "'activity inactive'"))
                FROM gone JOIN outbox m ON m.group_id = gone.group_id
                WHERE m.kind = 'group' AND m.state = 'pending' AND m.walked_through < gone.id
                ON CONFLICT DO NOTHING
            )\(also.map { ", also AS (\($0))" } ?? "")
            SELECT count(*) AS n FROM gone
            """, [reason] + parameters)
        return try result[0].int("n")
    }

    /// The push targets of these games' active activities, locked for the transaction, in id order.
    /// With `upToDateLimit`, only those planned through their game's projected position (the others
    /// are behind, for ``behind(limit:in:)``), and at most that many per game.
    static func targets(
        _ gameIds: [String], upToDateLimit: Int? = nil, in session: PostgresSession
    ) throws -> [String: [StoredTarget]] {
        var ids: [Int]?
        if let upToDateLimit {
            // Per game, the first up-to-date activities by id, read in index order (`activities_own_state`)
            // and no further: a game of 100,000 activities costs what one of 100 does.
            let candidates = try session.query(
                """
                SELECT t.id FROM unnest($1::text[]) AS g(game_id)
                LEFT JOIN score_states s ON s.game_id = g.game_id
                CROSS JOIN LATERAL (
                    SELECT a.id FROM activities a
                    WHERE a.game_id = g.game_id AND a.active AND a.topic IS NULL AND a.group_id IS NULL
                      AND a.planned_position = coalesce(s.position, 0)
                    ORDER BY a.id LIMIT $2
                ) t
                """, [gameIds, min(upToDateLimit, Int(Int32.max))])
            ids = try candidates.rows.map { try $0.int("id") }
            guard !ids!.isEmpty else { return [:] }
        }
        let result = try session.query(
            """
            SELECT id, game_id, \(throttleColumns) FROM activities
            WHERE game_id = ANY($1::text[]) AND active AND topic IS NULL AND group_id IS NULL
              AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
            ORDER BY id FOR UPDATE
            """, [gameIds, ids])
        var byGame: [String: [StoredTarget]] = [:]
        var states = StateCache()
        for row in result.rows {
            let target = try decodeTarget(row, states: &states)
            byGame[target.gameId, default: []].append(target)
        }
        return byGame
    }

    /// Up to `limit` active activities not yet planned through their game's projected position,
    /// locked (others skip them), with the position each was planned through and its game's.
    static func behind(limit: Int, in session: PostgresSession) throws -> [(
        target: StoredTarget, planned: Int, game: Int
    )] {
        let result = try session.query(
            """
            SELECT a.id, a.game_id, a.planned_position, s.position AS game_position, \(throttleColumns)
            FROM activities a JOIN score_states s ON s.game_id = a.game_id
            WHERE a.active AND a.topic IS NULL AND a.group_id IS NULL AND a.planned_position < s.position
            ORDER BY a.id LIMIT $1 FOR UPDATE OF a SKIP LOCKED
            """, [limit])
        var states = StateCache()
        return try result.rows.map {
            (try decodeTarget($0, states: &states), try $0.int("planned_position"), try $0.int("game_position"))
        }
    }

    /// Active activities whose target must be ticked by `now`, locked (others skip them).
    static func due(at now: Date, limit: Int, in session: PostgresSession) throws -> [StoredTarget] {
        let result = try session.query(
            """
            SELECT id, game_id, \(throttleColumns) FROM activities
            WHERE active AND topic IS NULL AND group_id IS NULL AND next_deadline <= $1 ORDER BY next_deadline LIMIT $2
            FOR UPDATE SKIP LOCKED
            """, [now, limit])
        var states = StateCache()
        return try result.rows.map { try decodeTarget($0, states: &states) }
    }

    /// Stores many targets' planner state in one statement, with when each must be ticked next.
    /// With `plannedThrough`, each target's game maps to the position it is now planned through.
    static func save(
        _ targets: [StoredTarget], planner: PushPlanner, plannedThrough: [String: Int]? = nil,
        in session: PostgresSession
    ) throws {
        guard !targets.isEmpty else { return }
        var ids: [Int] = []
        var texts: [String] = []
        var json: [String: String] = [:]  // the activities of a game mostly hold the same states
        for stored in targets {
            ids.append(stored.id)
            switch stored.target {
            case .liveUpdate(let throttle):
                texts.append(throttle.storageText)
            case .liveActivity(let throttle):
                texts.append(
                    throttle.storageText(writingStates: { memoizedJSON($0, in: &json) }))
            }
        }
        try session.query(
            """
            UPDATE activities a SET throttle_state = u.t, throttle = NULL, next_deadline = u.d,
                ended_at = CASE WHEN u.e THEN coalesce(a.ended_at, now()) ELSE a.ended_at END,
                planned_position = coalesce(u.p, a.planned_position)
            FROM unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::bool[], $5::bigint[]) AS u(id, t, d, e, p)
            WHERE a.id = u.id
            """,
            [
                ids, texts, targets.map { planner.nextDeadline($0.target) }, targets.map { planner.isEnded($0.target) },
                targets.map { plannedThrough?[$0.gameId] },
            ])
    }

    /// A state's canonical JSON, memoized by game and version in `json` (the targets of a game
    /// mostly hold the same states).
    static func memoizedJSON(_ state: ScoreState, in json: inout [String: String]) -> String {
        let key = "\(state.gameId)#\(state.version)"
        if let text = json[key] { return text }
        let text = state.canonicalJSON()
        json[key] = text
        return text
    }

    static let columns = """
        id, game_id, push_token, environment, bundle_id, frequent_updates, registered_at, ended_at, active,
        deactivated_reason, route, fcm_token, fcm_kind, app
        """

    static func decode(_ row: PostgresRow) throws -> Activity {
        Activity(
            id: try row.int("id"), gameId: try row.string("game_id"), pushToken: try row.text("push_token") ?? "",
            route: try row.value("route"),
            fcm: FCMAddress(kind: try row.text("fcm_kind"), value: try row.text("fcm_token")),
            environment: try row.value("environment"),
            bundleId: try row.string("bundle_id"), frequentUpdates: try row.bool("frequent_updates"),
            registeredAt: try row.date("registered_at"),
            endedAt: try row.text("ended_at").flatMap(PostgresTimestamp.parse), active: try row.bool("active"),
            deactivatedReason: try row.text("deactivated_reason"), app: try row.string("app"))
    }

    /// The throttle in its compact form, or (rows saved before migration 0008) as JSON.
    static let throttleColumns = "throttle_state, throttle::text AS throttle, route"

    /// States already read from their JSON while loading many throttles of one game.
    typealias StateCache = [String: ScoreState]

    /// A throttle's stored form, its states read once per game (`states`).
    static func readThrottle(_ text: String, states: inout StateCache) throws -> ActivityThrottle {
        try ActivityThrottle(
            storageText: text,
            readingStates: { json throws(ThrottleStorageError) in
                if let state = states[json] { return state }
                let state = try ActivityThrottle.readState(json)
                states[json] = state
                return state
            })
    }

    static func decodeTarget(_ row: PostgresRow, states: inout StateCache) throws -> StoredTarget {
        if try row.string("route") == PushRoute.android.rawValue {
            return StoredTarget(
                id: try row.int("id"), gameId: try row.string("game_id"),
                target: .liveUpdate(try LiveUpdateThrottle(storageText: try row.string("throttle_state"))))
        }
        let throttle: ActivityThrottle
        if let text = try row.text("throttle_state") {
            throttle = try readThrottle(text, states: &states)
        } else {
            throttle = try JSONDecoder().decode(ActivityThrottle.self, from: Data(try row.string("throttle").utf8))
        }
        return StoredTarget(id: try row.int("id"), gameId: try row.string("game_id"), target: .liveActivity(throttle))
    }
}
