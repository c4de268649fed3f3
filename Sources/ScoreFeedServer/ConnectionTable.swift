import NIOCore

/// The open HTTP connections of a server against its cap: a pure value that decides whom to close
/// to make room (the connection that has waited longest for a request's head) and when to say so in
/// the log (at most once per `noticeInterval`).
struct ConnectionTable: Sendable {
    /// What to do with a new connection.
    enum Admission: Sendable, Equatable {
        case admit
        /// Admit it after closing this connection (the oldest waiting for a request's head).
        case admitEvicting(Int)
        /// Close it: the cap is reached and every connection is busy with a request.
        case refuse
    }

    /// A line for the log: the cap was reached; connections evicted and refused since the last notice.
    struct Notice: Sendable, Equatable {
        var evicted: Int
        var refused: Int
    }

    let capacity: Int
    let noticeInterval: TimeAmount
    /// Each open connection and, while it waits for a request's head, its place in `waitQueue`.
    private var connections: [Int: Int?] = [:]
    /// `(ticket, id)` in the order the connections started waiting; stale entries are skipped.
    private var waitQueue: [(ticket: Int, id: Int)] = []
    private var queueStart = 0
    private var nextTicket = 0
    private var lastNotice: NIODeadline?
    private var pending = Notice(evicted: 0, refused: 0)

    init(capacity: Int, noticeInterval: TimeAmount = .seconds(10)) {
        self.capacity = capacity
        self.noticeInterval = noticeInterval
    }

    /// The connections counted against the cap.
    var count: Int { connections.count }

    /// A new connection `id` (waiting for its first request): admitted, possibly by evicting another.
    mutating func admit(_ id: Int, at now: NIODeadline) -> (Admission, Notice?) {
        var admission = Admission.admit
        if connections.count >= capacity {
            if let victim = oldestWaiting() {
                connections[victim] = nil
                admission = .admitEvicting(victim)
                pending.evicted += 1
            } else {
                pending.refused += 1
                return (.refuse, notice(at: now))
            }
        }
        connections[id] = .some(nil)
        waiting(id)
        return (admission, admission == .admit ? nil : notice(at: now))
    }

    /// Connection `id` waits for a request's head (again).
    mutating func waiting(_ id: Int) {
        guard let ticket = connections[id], ticket == nil else { return }
        connections[id] = nextTicket
        waitQueue.append((nextTicket, id))
        nextTicket += 1
        // Keep-alive connections wait again after each request: drop the stale entries now and then.
        if waitQueue.count - queueStart > 2 * connections.count + 1024 {
            waitQueue = waitQueue[queueStart...].filter { connections[$0.id] == .some($0.ticket) }
            queueStart = 0
        }
    }

    /// Connection `id` is reading, handling or answering a request: it is not closed to make room.
    mutating func busy(_ id: Int) {
        guard connections[id] != nil else { return }
        connections[id] = .some(nil)
    }

    /// Connection `id` closed (nothing when it was evicted already).
    mutating func remove(_ id: Int) {
        connections[id] = nil
    }

    private mutating func oldestWaiting() -> Int? {
        defer { compactQueue() }
        while queueStart < waitQueue.count {
            let (ticket, id) = waitQueue[queueStart]
            queueStart += 1
            if let current = connections[id], current == ticket { return id }
        }
        return nil
    }

    private mutating func compactQueue() {
        if queueStart > 1024 && queueStart * 2 > waitQueue.count {
            waitQueue.removeFirst(queueStart)
            queueStart = 0
        }
    }

    private mutating func notice(at now: NIODeadline) -> Notice? {
        if let lastNotice, now < lastNotice + noticeInterval { return nil }
        lastNotice = now
        defer { pending = Notice(evicted: 0, refused: 0) }
        return pending
    }
}
