import NIOCore
import ScoreStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Fans the projection's changes out to the live-stream clients of this process.
///
/// It keeps the newest changes in memory, each rendered once as its `state` event, so a client that
/// is a little behind (or reconnects soon after a drop) is served without a query; older positions
/// are read from the database. A subscriber is only woken (an `AsyncStream` holding at most one
/// wake-up), it then reads a page of what follows its own position: a slow client never makes the
/// hub buffer for it.
///
/// The subscriptions live outside the actor, behind a lock: a client takes its place (or is refused,
/// past the limit) before its response starts, and gives it back the moment it leaves, also when its
/// response is dropped unwritten.
public actor ChangeHub {
    /// Why a subscriber is woken.
    enum Wakeup: Sendable {
        /// New changes were published.
        case changes
        /// Nothing new for a while: time for a keep-alive.
        case idle
    }

    /// One change in memory: its position, its game and its `state` event, rendered once for every client.
    struct Entry: Sendable {
        var position: Int
        var gameId: String
        var event: ByteBuffer
    }

    /// The newest changes, oldest first.
    private var recent: [Entry] = []
    private let capacity: Int
    /// Every change after this position and up to ``head`` is in `recent` (nothing before ``start(head:)``).
    private var coveredFrom = Int.max
    /// The newest position the hub knows of.
    public private(set) var head = 0
    private let clients = Mutex(Clients())

    /// The subscribers, and how many left since the allocator was last trimmed.
    private struct Clients {
        var wakeups: [Int: AsyncStream<Wakeup>.Continuation] = [:]
        var next = 0
        var closed = false
        var left = 0
    }

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
        recent += fresh.map {
            Entry(
                position: $0.position, gameId: $0.gameId,
                event: StreamLimits.event(position: $0.position, data: $0.state))
        }
        head = last.position
        if recent.count > capacity {
            let dropped = recent.count - capacity
            coveredFrom = recent[dropped - 1].position
            recent.removeFirst(dropped)
        }
        wake(.changes)
    }

    /// Wakes every subscriber. At an idle wake-up (every few seconds), gives the memory freed by the
    /// clients that left back to the system: glibc's allocator keeps it otherwise.
    func wake(_ reason: Wakeup) {
        let left = clients.withLock { clients in
            for continuation in clients.wakeups.values { continuation.yield(reason) }
            defer { if reason == .idle { clients.left = 0 } }
            return clients.left
        }
        if reason == .idle && left > 0 { Self.trimAllocator() }
    }

    /// At most `limit` changes after `position` (of one game, or all) when memory reaches back that
    /// far: the position they account for (past other games' changes too) and whether that is the head.
    func changes(after position: Int, gameId: String?, limit: Int) -> (
        changes: [Entry], reached: Int, complete: Bool
    )? {
        guard position >= coveredFrom else { return nil }
        var page: [Entry] = []
        for entry in recent[firstIndex(after: position)...] where gameId == nil || entry.gameId == gameId {
            guard page.count < limit else { return (page, page[page.count - 1].position, false) }
            page.append(entry)
        }
        return (page, head, true)
    }

    /// How many changes after `position` (of one game, or all) memory holds: when `position` is
    /// older than memory, at least as many as the client is behind.
    func backlog(after position: Int, gameId: String?) -> Int {
        let after = recent[firstIndex(after: position)...]
        guard let gameId else { return after.count }
        return after.reduce(0) { $0 + ($1.gameId == gameId ? 1 : 0) }
    }

    /// The index of the first change in memory after `position` (`recent` is in position order).
    private func firstIndex(after position: Int) -> Int {
        var (low, high) = (0, recent.count)
        while low < high {
            let middle = (low + high) / 2
            if recent[middle].position <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The answer to ``subscribe(limit:)``.
    enum Admission {
        case subscribed(Subscription)
        /// `limit` clients are streaming already.
        case full
        /// The server is shutting down.
        case closed
    }

    /// A new subscription, unless `limit` clients stream already or the hub is closed.
    nonisolated func subscribe(limit: Int) -> Admission {
        clients.withLock { clients in
            guard !clients.closed else { return .closed }
            guard clients.wakeups.count < limit else { return .full }
            let (stream, continuation) = AsyncStream.makeStream(of: Wakeup.self, bufferingPolicy: .bufferingNewest(1))
            clients.next += 1
            clients.wakeups[clients.next] = continuation
            return .subscribed(Subscription(id: clients.next, wakeups: stream, hub: self))
        }
    }

    /// Ends a subscription (once; later calls do nothing).
    nonisolated fileprivate func unsubscribe(_ id: Int) {
        clients.withLock { clients in
            guard let continuation = clients.wakeups.removeValue(forKey: id) else { return }
            continuation.finish()
            clients.left += 1
        }
    }

    /// How many clients are streaming.
    public var subscriberCount: Int { clients.withLock { $0.wakeups.count } }

    /// Ends every subscription and refuses new ones: the streams finish their responses.
    func close() {
        clients.withLock { clients in
            clients.closed = true
            for continuation in clients.wakeups.values { continuation.finish() }
            clients.wakeups.removeAll()
        }
    }

    /// glibc's `malloc_trim`, looked up once (`nil` where the C library has none).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
            return nil
        #endif
    }()

    /// Returns the allocator's free memory to the system (glibc keeps what it freed otherwise).
    static func trimAllocator() {
        _ = mallocTrim?(0)
    }
}

/// A client's place among the hub's subscribers: its wake-ups, and a second stream that ends when
/// its connection's inbound side closes. The place is given back by ``cancel()`` or when the last
/// reference goes.
final class Subscription: Sendable {
    let id: Int
    let wakeups: AsyncStream<ChangeHub.Wakeup>
    /// Ends when the client's side of the connection closes (``clientLeft()``).
    let left: AsyncStream<Void>
    private let leaving: AsyncStream<Void>.Continuation
    private let hub: ChangeHub

    fileprivate init(id: Int, wakeups: AsyncStream<ChangeHub.Wakeup>, hub: ChangeHub) {
        (self.id, self.wakeups, self.hub) = (id, wakeups, hub)
        (left, leaving) = AsyncStream.makeStream(of: Void.self)
    }

    /// The client closed its side of the connection.
    func clientLeft() { leaving.finish() }

    /// Gives the place back.
    func cancel() {
        hub.unsubscribe(id)
        leaving.finish()
    }

    deinit { cancel() }
}
