import Foundation
import ScoreStore
import Testing

@testable import ScoreFeedServer

@Suite("OperatorTargets: a game's targets as the operator view shows them (pure)")
struct OperatorTargetsTests {
    /// The planners' default policies.
    let view = OperatorTargets()
    static let at = Date(timeIntervalSince1970: 1_777_676_760)  // 2026-05-01T23:06:00Z

    static func target(
        _ route: GameTarget.Route, id: Int, active: Bool = true, ended: Bool = false, frequent: Bool = false
    ) -> GameTarget {
        GameTarget(
            route: route, id: id, token: route == .android ? "" : "cdcdcdcdcdcdcdcdcdcd",
            fcmTarget: [.fcm, .android].contains(route) ? "fcm-device-0001:APA91b" : nil, frequentUpdates: frequent,
            registeredAt: at, active: active, endedAt: ended || !active ? at.addingTimeInterval(60) : nil)
    }

    @Test(
        "each route's hourly budget and what it counts",
        arguments: [
            (GameTarget.Route.apns, false, 12, "priority-10 pushes"), (.apns, true, 40, "priority-10 pushes"),
            (.fcm, false, 12, "priority-10 pushes"), (.fcm, true, 40, "priority-10 pushes"),
            (.channel, false, 120, "priority-10 broadcasts"), (.pushToStart, false, 10, "starts"),
            (.android, false, 720, "data messages"),
        ])
    func budgets(route: GameTarget.Route, frequent: Bool, limit: Int, counts: String) {
        let budget = view.budget(Self.target(route, id: 1, frequent: frequent))
        #expect(budget.limit == limit)
        #expect(budget.counts == counts)
    }

    @Test(
        "status: removed when inactive (ended or not), ended when its end was planned, else active",
        arguments: [
            (true, false, "active"), (true, true, "ended"), (false, false, "removed"), (false, true, "removed"),
        ])
    func status(active: Bool, ended: Bool, expected: String) {
        #expect(OperatorTargets.status(Self.target(.apns, id: 1, active: active, ended: ended)) == expected)
    }

    @Test("grouped by route (apns, channel, push-to-start, fcm, android), removed last in a group, then by id")
    func order() {
        let targets = [
            Self.target(.android, id: 9), Self.target(.apns, id: 5, active: false), Self.target(.fcm, id: 4),
            Self.target(.pushToStart, id: 2), Self.target(.apns, id: 7), Self.target(.channel, id: 1),
            Self.target(.apns, id: 3),
        ]
        let ordered = OperatorTargets.ordered(targets).map { "\($0.route.rawValue) \($0.id)" }
        #expect(ordered == ["apns 3", "apns 7", "apns 5", "channel 1", "push-to-start 2", "fcm 4", "android 9"])
    }

    @Test("one removed APNs target with a failed answer, in full; an Android follower shows its FCM target")
    func json() {
        var removed = Self.target(.apns, id: 5, active: false)
        removed.removedReason = "Unregistered"
        removed.budgetUsed = 3
        removed.pushes = ["sent": 2, "failed": 1]
        removed.lastAnswer = .init(status: 410, reason: "Unregistered", outcome: "unregistered", at: Self.at)
        #expect(
            view.json(removed).serialized()
                == #"{"budget":{"counts":"priority-10 pushes","limit":12,"used":3},"endedAt":"2026-05-01T23:07:00Z","environment":"production","fcmTarget":null,"frequentUpdates":false,"id":5,"lastAnswer":{"at":"2026-05-01T23:06:00Z","outcome":"unregistered","reason":"Unregistered","status":410},"pushes":{"failed":1,"pending":0,"sent":2,"superseded":0},"registeredAt":"2026-05-01T23:06:00Z","removed":{"at":"2026-05-01T23:07:00Z","reason":"Unregistered"},"route":"apns","status":"removed","target":"cdcdcdcd…","via":"apns"}"#
        )
        let follower = view.json(Self.target(.android, id: 9)).serialized()
        #expect(follower.contains(#""target":"fcm-devi…""#) && follower.contains(#""via":"fcm""#))
        #expect(follower.contains(#""removed":null"#) && follower.contains(#""lastAnswer":null"#))
    }

    @Test("the list counts every route, including those with no target")
    func counts() {
        let all = view.json(
            gameId: "g1", app: "default",
            targets: [Self.target(.apns, id: 1), Self.target(.apns, id: 2), Self.target(.android, id: 3)]
        ).serialized()
        #expect(
            all.hasPrefix(
                #"{"app":"default","counts":{"android":1,"apns":2,"channel":0,"fcm":0,"push-to-start":0,"topic":0}"#))
    }
}
