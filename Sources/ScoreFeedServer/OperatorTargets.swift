import APNs
import Foundation
import LiveActivity
import ScoreDomain
import ScoreStore

/// What the operator view shows of one game's push targets (`GET /v1/games/{id}/targets`): each
/// target with its route, its token or id shortened as in the logs, whether it is active, ended or
/// removed (why, when), its budget used in the last hour against the budget, its last answer and its
/// pushes by state. Pure: the targets come from ``GameTargets``, the budgets from the policies.
struct OperatorTargets {
    /// The Live Activities' and followers' throttle policy.
    var policy = ThrottlePolicy()
    /// The broadcast channels' throttle policy.
    var channelPolicy = ThrottlePolicy.channel

    /// The routes in the order the view groups them.
    static let routes: [GameTarget.Route] = [.apns, .channel, .pushToStart, .fcm, .android, .topic]

    /// The hourly budget a target's `budgetUsed` is counted against, and what it counts.
    func budget(_ target: GameTarget) -> (limit: Int, counts: String) {
        switch target.route {
        case .apns, .fcm:
            (target.frequentUpdates ? policy.frequentHourlyBudget : policy.hourlyBudget, "priority-10 pushes")
        case .channel: (channelPolicy.hourlyBudget, "priority-10 broadcasts")
        case .pushToStart: (Devices.startsPerHour, "starts")
        case .android, .topic: (3600 / max(1, policy.liveUpdateInterval), "data messages")
        }
    }

    /// `removed` when no longer reached, `ended` when its end was planned, else `active`.
    static func status(_ target: GameTarget) -> String {
        !target.active ? "removed" : target.endedAt != nil ? "ended" : "active"
    }

    /// The targets grouped by route (in ``routes`` order), the active and ended before the removed,
    /// then in registration order.
    static func ordered(_ targets: [GameTarget]) -> [GameTarget] {
        targets.sorted { a, b in
            let (ra, rb) = (routes.firstIndex(of: a.route) ?? 0, routes.firstIndex(of: b.route) ?? 0)
            if ra != rb { return ra < rb }
            if a.active != b.active { return a.active }
            return a.id < b.id
        }
    }

    func json(gameId: String, app: String, targets: [GameTarget]) -> JSONValue {
        .object([
            "gameId": .string(gameId), "app": .string(app),
            "counts": .object(
                [
                    "apns": count(.apns, in: targets), "channel": count(.channel, in: targets),
                    "push-to-start": count(.pushToStart, in: targets), "fcm": count(.fcm, in: targets),
                    "android": count(.android, in: targets), "topic": count(.topic, in: targets),
                ]),
            "targets": .array(Self.ordered(targets).map(json)),
        ])
    }

    private func count(_ route: GameTarget.Route, in targets: [GameTarget]) -> JSONValue {
        .int(targets.count { $0.route == route })
    }

    func json(_ target: GameTarget) -> JSONValue {
        let (limit, counts) = budget(target)
        let shown = target.route == .android || target.route == .topic ? target.fcmTarget ?? "" : target.token
        let removed: JSONValue =
            target.active
            ? .null
            : .object([
                "reason": target.removedReason.map(JSONValue.string) ?? .null,
                "at": target.endedAt.map { .string(rfc3339($0)) } ?? .null,
            ])
        let answer: JSONValue =
            target.lastAnswer.map { answer in
                .object([
                    "status": answer.status.map(JSONValue.int) ?? .null,
                    "reason": answer.reason.map(JSONValue.string) ?? .null, "outcome": .string(answer.outcome),
                    "at": answer.at.map { .string(rfc3339($0)) } ?? .null,
                ])
            } ?? .null
        return .object([
            "route": .string(target.route.rawValue), "id": .int(target.id),
            "target": .string(APNsRedaction.token(shown)),
            "via": .string(target.fcmTarget == nil ? "apns" : "fcm"),
            "fcmTarget": target.fcmTarget.map { .string(APNsRedaction.token($0)) } ?? .null,
            "environment": target.environment.map { .string($0.rawValue) } ?? .null,
            "frequentUpdates": .bool(target.frequentUpdates),
            "registeredAt": .string(rfc3339(target.registeredAt)), "status": .string(Self.status(target)),
            "endedAt": target.endedAt.map { .string(rfc3339($0)) } ?? .null, "removed": removed,
            "budget": .object(["used": .int(target.budgetUsed), "limit": .int(limit), "counts": .string(counts)]),
            "lastAnswer": answer,
            "pushes": .object([
                "pending": .int(target.pushes["pending"] ?? 0), "sent": .int(target.pushes["sent"] ?? 0),
                "failed": .int(target.pushes["failed"] ?? 0), "superseded": .int(target.pushes["superseded"] ?? 0),
            ]),
        ])
    }
}
