import ScoreStore

/// Fans the projection's changes out to the live-stream clients of this process.
///
/// It keeps the newest changes in memory, so a client that is a little behind (or reconnects
/// soon after a drop) is served without a query; older positions are read from the database. A
/// subscriber is only woken (an `AsyncStream<Void>` holding at most one wake-up), it then reads
/// what follows its own position: a slow client never makes the hub buffer for it.
public actor ChangeHub {
    /// Why a subscriber is woken.
    enum Wakeup: Sendable {
        /// New changes were published.
        case changes
        /// Nothing new for a while: time for a keep-alive.
        case idle
    }

    /// The newest changes, oldest first.
    private var recent: [StateChange] = []
    private let capacity: Int
    /// Every change after this position and up to ``head`` is in `recent` (nothing before ``start(head:)``).
    private var coveredFrom = Int.max
    /// The newest position the hub knows of.
    public private(set) var head = 0
    private var subscribers: [Int: AsyncStream<Wakeup>.Continuation] = [:]
    private var nextSubscriber = 0
    private var closed = false

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// Starts from the database's newest position: changes before it are read from the database.
    func start(head: Int) {
        self.head = max(self.head, head)
        coveredFrom = self.head
    }

    /// Adds committed changes (in position order) and wakes every subscriber.
    func publish(_ changes: [StateChange]) {
        let fresh = changes.filter { $0.position > head }
        guard let last = fresh.last else { return }
        recent += fresh
        head = last.position
        if recent.count > capacity {
            let dropped = recent.count - capacity
            coveredFrom = recent[dropped - 1].position
            recent.removeFirst(dropped)
        }
        wake(.changes)
    }

    /// Wakes every subscriber.
    func wake(_ reason: Wakeup) {
        for continuation in subscribers.values { continuation.yield(reason) }
    }

    /// The changes after `position` (of one game, or all) and the newest position they account
    /// for, when memory reaches back that far.
    func changes(after position: Int, gameId: String?) -> (changes: [StateChange], head: Int)? {
        guard position >= coveredFrom else { return nil }
        // `recent` is in position order: skip to the first change after `position` (binary search).
        var low = 0
        var high = recent.count
        while low < high {
            let middle = (low + high) / 2
            if recent[middle].position <= position { low = middle + 1 } else { high = middle }
        }
        let after = recent[low...]
        return (gameId.map { id in after.filter { $0.gameId == id } } ?? Array(after), head)
    }

    /// Whether the hub refuses new subscriptions (the server is shutting down).
    var isClosed: Bool { closed }

    /// A new subscription, or `nil` once the hub is closed (the server is shutting down).
    func subscribe() -> (id: Int, wakeups: AsyncStream<Wakeup>)? {
        guard !closed else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: Wakeup.self, bufferingPolicy: .bufferingNewest(1))
        nextSubscriber += 1
        subscribers[nextSubscriber] = continuation
        return (nextSubscriber, stream)
    }

    func unsubscribe(_ id: Int) {
        subscribers.removeValue(forKey: id)?.finish()
    }

    /// How many clients are streaming.
    public var subscriberCount: Int { subscribers.count }

    /// Ends every subscription and refuses new ones: the streams finish their responses.
    func close() {
        closed = true
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }
}
