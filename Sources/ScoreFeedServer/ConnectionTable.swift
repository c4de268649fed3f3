import NIOCore

/// The open HTTP connections of a server against its cap: a pure value that decides whom to close
/// to make room and when to say so in the log (at most once per `noticeInterval`).
///
/// At the cap the connection closed is the one that has waited longest among those that never sent a
/// request or have sent part of a request's headers (``ConnectionTimeouts/Waiting/request``); only when
/// none is left, the one idle longest between requests (``ConnectionTimeouts/Waiting/nextRequest``), so
/// a provider's pooled keep-alive connection outlives a flood of half-open ones.
struct ConnectionTable: Sendable {
    /// What to do with a new connection.
    enum Admission: Sendable, Equatable {
        case admit
        /// Admit it after closing this connection.
        case admitEvicting(Int)
        /// Close it: the cap is reached and every connection is busy with a request.
        case refuse
    }

    /// A line for the log: the cap was reached; connections evicted and refused since the last notice.
    struct Notice: Sendable, Equatable {
        var evicted: Int
        var refused: Int
    }

    /// The connections waiting in one state, in the order they started to: `(ticket, id)`, stale
    /// entries (whose ticket is no longer the connection's) skipped.
    private struct Queue: Sendable {
        var entries: [(ticket: Int, id: Int)] = []
        var start = 0

        var count: Int { entries.count - start }

        /// The oldest entry whose ticket is still current, removed.
        mutating func popOldest(current: (Int, Int) -> Bool) -> Int? {
            defer {
                if start > 1024 && start * 2 > entries.count {
                    entries.removeFirst(start)
                    start = 0
                }
            }
            while start < entries.count {
                let (ticket, id) = entries[start]
                start += 1
                if current(ticket, id) { return id }
            }
            return nil
        }

        /// Drops the stale entries.
        mutating func compact(current: (Int, Int) -> Bool) {
            entries = entries[start...].filter { current($0.ticket, $0.id) }
            start = 0
        }
    }

    let capacity: Int
    let noticeInterval: TimeAmount
    /// Where a waiting connection stands: its ticket in the queue of its state.
    private struct Place: Sendable, Equatable {
        var ticket: Int
        var state: ConnectionTimeouts.Waiting
    }

    /// Each open connection and, while it waits, its place.
    private var connections: [Int: Place?] = [:]
    private var halfOpen = Queue()
    private var idle = Queue()
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
        waiting(id, .request)
        return (admission, admission == .admit ? nil : notice(at: now))
    }

    /// Connection `id` waits in `state` (`nil`: it is busy with a request, and not closed to make room).
    /// A connection keeps its place while its state stays the same.
    mutating func waiting(_ id: Int, _ state: ConnectionTimeouts.Waiting?) {
        guard let place = connections[id] else { return }
        guard let state else {
            connections[id] = .some(nil)
            return
        }
        if place?.state == state { return }
        connections[id] = Place(ticket: nextTicket, state: state)
        switch state {
        case .request: halfOpen.entries.append((nextTicket, id))
        case .nextRequest: idle.entries.append((nextTicket, id))
        }
        nextTicket += 1
        // Keep-alive connections wait again after each request: drop the stale entries now and then.
        if halfOpen.count + idle.count > 2 * connections.count + 1024 {
            let current = isCurrent
            halfOpen.compact(current: current)
            idle.compact(current: current)
        }
    }

    /// Connection `id`, evicted but found busy with a request when it was to be closed, counts again.
    mutating func restore(_ id: Int) {
        connections[id] = .some(nil)
    }

    /// Connection `id` closed (nothing when it was evicted already).
    mutating func remove(_ id: Int) {
        connections[id] = nil
    }

    /// Whether a queue's entry `(ticket, id)` is still the connection's place (a copy: the queues are
    /// changed while it is asked).
    private var isCurrent: (Int, Int) -> Bool {
        let connections = self.connections
        return { ticket, id in connections[id]??.ticket == ticket }
    }

    private mutating func oldestWaiting() -> Int? {
        let current = isCurrent
        return halfOpen.popOldest(current: current) ?? idle.popOldest(current: current)
    }

    private mutating func notice(at now: NIODeadline) -> Notice? {
        if let lastNotice, now < lastNotice + noticeInterval { return nil }
        lastNotice = now
        defer { pending = Notice(evicted: 0, refused: 0) }
        return pending
    }
}
