import Foundation
import Logging
import PostgresClient
import Retry

/// One kind of planned message (the outbox's rows of that `kind`), as ``DeliveryWorker`` delivers it:
/// how its messages are claimed, counted, recorded and handed back, and its sender (its requests, and
/// the pure verdict table from the service's answers to ``Outbox/Outcome``s, jitter passed in). Kinds: ``PushQueue`` (a push to
/// one target: an APNs token, an FCM-routed activity, an Android follower), ``BroadcastQueue`` (a
/// channel's broadcast) and ``StartQueue`` (a device's push-to-start). Every kind gets the worker's
/// pipelining, its stop and failure rules and the same metrics; each keeps its own rules in its claim
/// (one broadcast per channel in flight, a target's pushes in order) and its verdicts (a start whose
/// answer was lost is never sent again).
public protocol DeliveryQueue: Sendable {
    /// A claimed message.
    associatedtype Message: Sendable, Equatable
    /// What to record of one sent (or released) message.
    associatedtype Attempt: Sendable, Equatable

    /// Messages in one round (the next round is claimed while one is on the wire).
    var batchSize: Int { get }

    /// The service named in logs: `APNs` or `FCM`.
    var service: String { get }

    /// Claims up to `limit` due messages, each held for `lease` seconds; none that must wait for one of
    /// its own target's messages still on the wire.
    func claim(limit: Int, lease: Int, in tx: PostgresSession) throws -> [Message]

    /// Claims as ``claim(limit:lease:in:)`` while `onTheWire` is being sent. A kind whose messages go
    /// out in batches of one row (a group message's walk) may also claim the batch after one on the
    /// wire, to send once that one is recorded (``mustRecord(_:before:)``). Default: the plain claim.
    func claim(limit: Int, lease: Int, after onTheWire: [Message], in tx: PostgresSession) throws -> [Message]

    /// Whether `attempts` must be recorded before `messages` go out: a walk's next batch waits for the
    /// record of the one before, so a crash re-sends at most one batch. Default: `false`.
    func mustRecord(_ attempts: [Attempt], before messages: [Message]) -> Bool

    /// Records as ``record(_:in:)``, renewing for `lease` seconds the hold of `holding` (claimed, to be
    /// sent once this commits). Default: the plain record.
    func record(_ attempts: [Attempt], holding: [Message], lease: Int, in tx: PostgresSession) throws

    /// How many messages wait (due or not), and in how many seconds the next one is due (`nil`: unknown).
    func pending(in session: PostgresSession) throws -> (count: Int, nextIn: Double?)

    /// Records the attempts of a round in one transaction.
    func record(_ attempts: [Attempt], in tx: PostgresSession) throws

    /// Hands claimed but unsent messages back at once, instead of when their lease ends.
    func release(_ messages: [Message], in tx: PostgresSession) throws

    /// A round made ready to send (its requests built): ``prepare(_:)`` runs while the round before is
    /// on the wire, so the service is not left idle while the next round is built. Default: the messages.
    associatedtype Round: Sendable = [Message]

    /// The round of `messages`, ready to send: pure, no I/O.
    func prepare(_ messages: [Message]) -> Round

    /// Sends a round and decides each answer's outcome (a send cut short by the worker's stop is released).
    func send(_ round: Round, backoff: Backoff, logger: Logger) async -> DeliverySent<Message, Attempt>

    /// An attempt's outcome (`sent`, `retry`, `failed`, `deactivated`, `paused`, `released`) and the
    /// service's reason, for metrics.
    func observation(of attempt: Attempt) -> (outcome: String, reason: String?)

    /// The operator's line when delivery pauses: what to fix.
    func pauseMessage(_ reason: String) -> String
}

extension DeliveryQueue {
    public func claim(limit: Int, lease: Int, after onTheWire: [Message], in tx: PostgresSession) throws
        -> [Message]
    {
        try claim(limit: limit, lease: lease, in: tx)
    }

    public func mustRecord(_ attempts: [Attempt], before messages: [Message]) -> Bool { false }

    public func record(_ attempts: [Attempt], holding: [Message], lease: Int, in tx: PostgresSession) throws {
        try record(attempts, in: tx)
    }
}

extension DeliveryQueue where Round == [Message] {
    public func prepare(_ messages: [Message]) -> [Message] { messages }
}

/// What a round sent: its counts, the attempts to record, and the messages a pause held back (never
/// sent: to release).
public struct DeliverySent<Message: Sendable & Equatable, Attempt: Sendable & Equatable>: Sendable, Equatable {
    public var round: DeliveryRound
    public var attempts: [Attempt]
    public var withheld: [Message]

    public init(round: DeliveryRound, attempts: [Attempt], withheld: [Message] = []) {
        (self.round, self.attempts, self.withheld) = (round, attempts, withheld)
    }
}
