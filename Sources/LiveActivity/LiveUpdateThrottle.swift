import Foundation
import ScoreDomain

/// The data messages of ONE Android follower (a device that chose to follow one game, Google's
/// policy for sports Live Updates): a pure state machine, time passed in.
///
/// - One FCM data message per change of what the Live Update shows (``LiveUpdate/contentDigest(_:)``),
///   at most one per ``ThrottlePolicy/liveUpdateInterval``: changes inside the interval coalesce and
///   the latest goes out when it closes. With the default 5 s that is at most 12 a minute per followed
///   game, against FCM's 240 a minute per device (and a device follows at most a few games at once).
/// - Messages are non-collapsible and high priority (FCM allows only 20 collapsible messages in a
///   burst); each carries `seq`, the send time in milliseconds since 1970 (raised by one where two
///   would be equal), so the app drops one older than it shows. A time, not a count: a device that
///   follows the game again under a new FCM token or FID (a new follow, a new count) still gets
///   numbers greater than anything its earlier follow sent.
/// - The end goes out at once (`type` `end`), whatever the interval; nothing after it.
/// - Changes from before the follow (on the caller's clock) send nothing.
///
/// The pushes it returns are ``PlannedMessage`` values: `timestamp` is `seq`, `priority` 10, `payload`
/// the ``LiveUpdate`` data map, `expiration` when the message stops being worth delivering.
public struct LiveUpdateThrottle: Sendable, Equatable, Codable {
    /// When the device chose to follow the game.
    public let followedAt: Date
    private(set) var lastSentAt: Date?
    /// The `seq` of the last message (0: none yet): milliseconds since 1970 of its send time, or one
    /// more than the message before.
    private(set) var seq = 0
    private(set) var shown: UInt64?
    /// A change waiting for the interval to close, and when it does.
    private(set) var pending: ScoreState?
    private(set) var due: Date?
    public private(set) var ended = false

    /// - Parameter seq: the `seq` of the last message this device got for the game (it follows again
    ///   after unfollowing): the next one is greater, so the app never drops it as old.
    public init(followedAt: Date, seq: Int = 0) {
        self.followedAt = followedAt
        self.seq = seq
    }

    /// The last `seq` sent.
    public var lastSeq: Int { seq }

    /// The Live Update's start: the game as it is when the device follows it, at once, so the app shows
    /// it before the next change. Nothing for a game that is over (or when something was sent already).
    public mutating func start(_ state: ScoreState, at now: Date, policy: ThrottlePolicy) -> [PlannedMessage] {
        guard !ended, lastSentAt == nil, !state.status.isEnded else { return [] }
        return [send(state, event: .update, at: now, reason: .immediate, policy: policy)]
    }

    /// Takes one accepted change of the game and returns the messages due by `now`.
    public mutating func receive(_ change: GameChange, at now: Date, policy: ThrottlePolicy) -> [PlannedMessage] {
        var pushes = tick(at: now, policy: policy)
        guard !ended, now >= followedAt else { return pushes }
        if case .gameEnded = change.event {
            (pending, due) = (nil, nil)
            pushes.append(send(change.next, event: .end, at: now, reason: .final, policy: policy))
            return pushes
        }
        if pending != nil {
            pending = change.next.withoutHistory
            return pushes
        }
        let content = LiveUpdate.contentDigest(change.next)
        guard shown != content else { return pushes }
        let interval = Double(policy.liveUpdateInterval)
        if let lastSentAt, now < lastSentAt.addingTimeInterval(interval) {
            // Stored without the history lists: the message shows none of them.
            (pending, due) = (change.next.withoutHistory, lastSentAt.addingTimeInterval(interval))
            return pushes
        }
        pushes.append(send(change.next, content: content, event: .update, at: now, reason: .immediate, policy: policy))
        return pushes
    }

    /// The coalesced message whose interval closed by `now`, sent as of that moment.
    public mutating func tick(at now: Date, policy: ThrottlePolicy) -> [PlannedMessage] {
        guard !ended, let waiting = pending, let due, due <= now else { return [] }
        (pending, self.due) = (nil, nil)
        let content = LiveUpdate.contentDigest(waiting)
        guard shown != content else { return [] }
        return [send(waiting, content: content, event: .update, at: due, reason: .coalesced, policy: policy)]
    }

    /// When ``tick(at:policy:)`` must run next, if ever.
    public var nextDeadline: Date? { ended ? nil : due }

    /// Sends `state`; `content` is its ``LiveUpdate/contentDigest(_:)`` when the caller has it already.
    private mutating func send(
        _ state: ScoreState, content: UInt64? = nil, event: LiveActivityEvent, at time: Date,
        reason: PlannedMessage.Reason, policy: ThrottlePolicy
    ) -> PlannedMessage {
        seq = max(seq + 1, Int((time.timeIntervalSince1970 * 1000).rounded(.down)))
        lastSentAt = time
        shown = content ?? LiveUpdate.contentDigest(state)
        if event == .end { ended = true }
        let second = Int(time.timeIntervalSince1970.rounded(.down))
        return PlannedMessage(
            event: event, priority: 10, timestamp: seq, sendAt: time,
            expiration: second + (event == .end ? policy.dismissAfter : policy.staleAfter), reason: reason,
            version: state.version, payload: LiveUpdate.json(state, seq: seq, event: event))
    }

    /// The stored form: `l1 ` and the JSON of the fields.
    public var storageText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain values and ScoreState (canonical JSON) cannot fail.
        return "l1 " + String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    /// Reads ``storageText``.
    /// - Throws: ``ThrottleStorageError`` when the text is not that form.
    public init(storageText: String) throws(ThrottleStorageError) {
        guard storageText.hasPrefix("l1 ") else { throw ThrottleStorageError(description: "unknown follower format") }
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(storageText.utf8.dropFirst(3)))
        } catch {
            throw ThrottleStorageError(description: "bad follower state: \(error)")
        }
    }
}
