import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain

/// A device registered for push-to-start.
public struct Device: Sendable, Equatable {
    public var id: Int
    public var startToken: String
    public var environment: PushEnvironment
    public var bundleId: String
    /// Team codes or game ids the fan chose to follow.
    public var follows: [String]
    /// iOS 18+: starts carry the game's channel (`input-push-channel`) instead of asking for a token.
    public var channels: Bool
    public var registeredAt: Date
    public var active: Bool
    /// The app's FCM registration when its starts go through FCM (`nil`: straight to APNs).
    public var fcm: FCMAddress? = nil
    /// The app whose key registered it (``AppName``).
    public var app: String = AppName.default
}

/// A start planned for (device, game): one at most, ever.
public struct DeviceStart: Sendable, Equatable {
    public var id: Int
    public var deviceId: Int
    public var gameId: String
    public var startToken: String
    public var environment: PushEnvironment
    public var apnsId: String
    public var payload: String
    public var state: String
    public var attempts: Int
    public var lastStatus: Int?
    public var lastReason: String?
    public var activityId: Int?
    /// The app's FCM registration when the start goes through FCM.
    public var fcm: FCMAddress? = nil
    /// The W3C `traceparent` of the planning span that wrote it (``TraceParent``); `nil` without tracing.
    public var traceParent: String? = nil

    public init(
        id: Int, deviceId: Int, gameId: String, startToken: String, environment: PushEnvironment, apnsId: String,
        payload: String, state: String, attempts: Int, lastStatus: Int?, lastReason: String?, activityId: Int?,
        fcm: FCMAddress? = nil, traceParent: String? = nil
    ) {
        (self.id, self.deviceId, self.gameId, self.startToken) = (id, deviceId, gameId, startToken)
        (self.environment, self.apnsId, self.payload, self.state) = (environment, apnsId, payload, state)
        (self.attempts, self.lastStatus, self.lastReason) = (attempts, lastStatus, lastReason)
        (self.activityId, self.fcm, self.traceParent) = (activityId, fcm, traceParent)
    }
}

/// Push-to-start devices and their starts.
public enum Devices {
    /// Push-to-start has its own small budget (about 10 quick starts): at most this many starts per
    /// device in an hour; more are not planned.
    public static let startsPerHour = 10

    /// Registers (or updates) a device's push-to-start token and what it follows, as `app`'s; with
    /// `fcm`, its starts go through FCM to that app registration.
    /// - Throws: ``ActivityError`` naming the field that is wrong; ``RegistrationRefusal`` when the
    ///   start token or FCM registration is another app's, or a followed game id names a game that is over.
    public static func register(
        startToken: String, follows: [String], environment: PushEnvironment, bundleId: String, channels: Bool,
        fcm: FCMAddress? = nil, app: String = AppName.default, at registeredAt: Date, in session: PostgresSession
    ) throws -> Device {
        let fcm = try fcm?.validated()
        guard !follows.isEmpty, follows.count <= 64 else {
            throw ActivityError(field: "follow", reason: "follow 1 to 64 teams or games")
        }
        let token: String
        do {
            token = try Activities.normalizedToken(startToken)
        } catch {
            throw ActivityError(field: "startToken", reason: error.reason)
        }
        for follow in follows {
            do {
                _ = try Activities.validate(gameId: follow, token: token, bundleId: bundleId)
            } catch {
                let field = error.field == "bundleId" ? "bundleId" : "follow"
                throw ActivityError(
                    field: field, reason: field == "follow" ? "team codes or game ids: " + error.reason : error.reason)
            }
        }
        // A game id followed after its end would never start.
        if let end = try GameEnd.first(of: follows, in: session) { throw RegistrationRefusal.gameOver(end) }
        try fcm?.requireOwned(by: app, in: session)
        let result = try session.query(
            """
            INSERT INTO devices (start_token, environment, bundle_id, follows, channels, registered_at, fcm_token,
                                 fcm_kind, app)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (start_token) DO UPDATE SET environment = EXCLUDED.environment,
                bundle_id = EXCLUDED.bundle_id, follows = EXCLUDED.follows, channels = EXCLUDED.channels,
                fcm_token = EXCLUDED.fcm_token, fcm_kind = EXCLUDED.fcm_kind, active = true
                WHERE devices.app = EXCLUDED.app
            RETURNING \(columns)
            """, [token, environment.rawValue, bundleId, follows, channels, registeredAt, fcm?.value, fcm?.kind, app])
        guard result.count == 1 else { throw RegistrationRefusal.otherApp(field: "startToken") }
        return try decode(result[0])
    }

    /// Every device (of `app`; `nil`: of every app), in registration order.
    public static func list(app: String? = nil, in session: PostgresSession) throws -> [Device] {
        try session.query("SELECT \(columns) FROM devices WHERE $1::text IS NULL OR app = $1 ORDER BY id", [app])
            .rows.map(decode)
    }

    /// Plans the starts of a game that is now in progress: one per following device registered before
    /// `now` without a start for it yet, within the push-to-start budget. Returns how many.
    /// - Parameter traceParent: the trace context stored with the starts, asked for only when there
    ///   are starts to plan (a time-driven planning starts its span then).
    @discardableResult
    static func planStarts(
        for state: ScoreState, at now: Date, traceParent: () throws -> String? = { nil }, in session: PostgresSession
    ) throws -> Int {
        let candidates = try session.query(
            """
            SELECT d.id, d.start_token, d.environment, d.channels, d.app FROM devices d
            WHERE d.active AND d.registered_at <= $2 AND d.follows && $3::text[]
              AND NOT EXISTS (SELECT 1 FROM outbox s WHERE s.device_id = d.id AND s.game_id = $1)
              AND (SELECT count(*) FROM outbox s
                   WHERE s.device_id = d.id AND s.send_at > $2 - interval '1 hour') < $4
            ORDER BY d.id
            """, [state.gameId, now, [state.home.code, state.away.code, state.gameId], startsPerHour])
        guard candidates.count > 0 else { return 0 }
        // A device's start carries the channel of its own app (Apple keeps channels per bundle id).
        var channelIds: [String: String?] = [:]
        var ids: [Int] = []
        var payloads: [String] = []
        let timestamp = Int(now.timeIntervalSince1970)
        for row in candidates.rows {
            let environment: PushEnvironment = try row.value("environment")
            var channel: String?
            if try row.bool("channels") {
                let app = try row.string("app")
                let key = "\(environment.rawValue) \(app)"
                if channelIds[key] == nil {
                    channelIds[key] = try Channels.open(
                        gameId: state.gameId, environment: environment, app: app, in: session)?
                        .channelId
                }
                channel = channelIds[key] ?? nil
            }
            ids.append(try row.int("id"))
            payloads.append(StartPayload.json(state: state, timestamp: timestamp, channelId: channel))
        }
        return try session.query(
            """
            INSERT INTO outbox (kind, device_id, game_id, apns_id, payload, send_at, created_at, trace_parent)
            SELECT 'start', u.d, $3, md5(d.start_token || ':start:' || $3)::uuid, u.p, $4, $4, $5::text
            FROM unnest($1::bigint[], $2::text[]) AS u(d, p) JOIN devices d ON d.id = u.d
            ON CONFLICT (device_id, game_id) DO NOTHING
            """, [ids, payloads, state.gameId, now, try traceParent()]
        ).affectedRows
    }

    /// Claims up to `limit` due starts, those going through FCM or those going straight to APNs.
    public static func claimStarts(
        limit: Int, lease: Int, viaFCM: Bool = false, in tx: PostgresSession
    ) throws -> [DeviceStart] {
        try tx.query(
            """
            WITH due AS (
                SELECT s.id FROM outbox s JOIN devices dv ON dv.id = s.device_id
                WHERE s.kind = 'start' AND s.state = 'pending' AND s.next_attempt_at <= now()
                  AND (s.claimed_until IS NULL OR s.claimed_until < now()) AND (dv.fcm_token IS NOT NULL) = $3
                ORDER BY s.next_attempt_at, s.id LIMIT $1 FOR UPDATE OF s SKIP LOCKED
            )
            UPDATE outbox s SET claimed_until = now() + make_interval(secs => $2), attempts = s.attempts + 1
            FROM due, devices d WHERE s.id = due.id AND d.id = s.device_id
            RETURNING \(startColumns)
            """, [limit, lease, viaFCM]
        ).rows.map(decodeStart).sorted { $0.id < $1.id }
    }

    /// Records the outcomes of starts (``Outbox/store(_:target:newer:in:)``; `reason`: the service's,
    /// for the history); a deactivation also retires the device's start token. Each attempt that did not
    /// succeed joins `delivery_attempts`.
    public static func recordStarts(
        _ results: [(start: DeviceStart, status: Int?, reason: String?, outcome: Outbox.Outcome)],
        in tx: PostgresSession
    ) throws {
        try Outbox.store(
            results.map { Outbox.Answer(id: $0.start.id, status: $0.status, reason: $0.reason, outcome: $0.outcome) },
            target: "device_id", newer: "start", in: tx)
        let retired = results.compactMap { result -> Int? in
            guard case .deactivate = result.outcome else { return nil }
            return result.start.deviceId
        }
        if !retired.isEmpty {
            try tx.query("UPDATE devices SET active = false WHERE id = ANY($1::bigint[])", [retired])
        }
    }

    /// The activity the app reported after a start (its update token) joins that start.
    /// - Throws: ``ActivityError`` naming `startToken` when it is malformed;
    ///   ``RegistrationRefusal/unknownStartToken`` when no device of `app` has it.
    public static func joinStart(
        startToken: String, gameId: String, activityId: Int, app: String = AppName.default,
        in session: PostgresSession
    ) throws {
        let token: String
        do {
            token = try Activities.normalizedToken(startToken)
        } catch {
            throw ActivityError(field: "startToken", reason: error.reason)
        }
        let device = try session.query("SELECT id FROM devices WHERE start_token = $1 AND app = $2", [token, app])
        guard let deviceId = try device.rows.first?.int("id") else {
            throw RegistrationRefusal.unknownStartToken
        }
        try session.query(
            "UPDATE outbox SET started_activity_id = $3 WHERE device_id = $1 AND game_id = $2",
            [deviceId, gameId, activityId])
    }

    /// How many starts wait (pending, due or not), of those going through FCM or straight to APNs.
    public static func pendingStarts(viaFCM: Bool = false, in session: PostgresSession) throws -> Int {
        try session.query(
            """
            SELECT count(*) AS n FROM outbox s JOIN devices d ON d.id = s.device_id
            WHERE s.kind = 'start' AND s.state = 'pending' AND (d.fcm_token IS NOT NULL) = $1
            """, [viaFCM])[0].int("n")
    }

    /// Every start of a game, in planning order.
    public static func starts(gameId: String, in session: PostgresSession) throws -> [DeviceStart] {
        try session.query(
            """
            SELECT \(startColumns) FROM outbox s JOIN devices d ON d.id = s.device_id
            WHERE s.game_id = $1 ORDER BY s.id
            """, [gameId]
        ).rows.map(decodeStart)
    }

    private static let columns =
        "id, start_token, environment, bundle_id, follows, channels, registered_at, active, fcm_token, fcm_kind, app"

    private static func decode(_ row: PostgresRow) throws -> Device {
        let follows = try row.string("follows").dropFirst().dropLast().split(separator: ",").map {
            String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return Device(
            id: try row.int("id"), startToken: try row.string("start_token"), environment: try row.value("environment"),
            bundleId: try row.string("bundle_id"), follows: follows, channels: try row.bool("channels"),
            registeredAt: try row.date("registered_at"), active: try row.bool("active"),
            fcm: FCMAddress(kind: try row.text("fcm_kind"), value: try row.text("fcm_token")),
            app: try row.string("app"))
    }

    private static let startColumns = """
        s.id, s.device_id, s.game_id, d.start_token, d.environment, s.apns_id::text AS apns_id, s.payload, s.state,
        s.attempts, s.last_status, s.last_reason, s.started_activity_id, d.fcm_token, d.fcm_kind,
        s.trace_parent
        """

    private static func decodeStart(_ row: PostgresRow) throws -> DeviceStart {
        DeviceStart(
            id: try row.int("id"), deviceId: try row.int("device_id"), gameId: try row.string("game_id"),
            startToken: try row.string("start_token"), environment: try row.value("environment"),
            apnsId: try row.string("apns_id"), payload: try row.string("payload"), state: try row.string("state"),
            attempts: try row.int("attempts"), lastStatus: try row.optionalInt("last_status"),
            lastReason: try row.text("last_reason"), activityId: try row.optionalInt("started_activity_id"),
            fcm: FCMAddress(kind: try row.text("fcm_kind"), value: try row.text("fcm_token")),
            traceParent: try row.text("trace_parent"))
    }
}
