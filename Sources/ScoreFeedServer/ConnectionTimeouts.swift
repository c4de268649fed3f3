import NIOCore

/// Which timeout applies to one HTTP connection, and when: a pure state machine fed with what the
/// connection's handlers see (bytes in, reads asked for, request and response parts) and the time.
///
/// - A new connection, and one that has sent part of a request's headers, must finish its headers
///   within `header` of its opening (or of that first byte): a slowloris trickling a byte at a time
///   gains nothing.
/// - While a request's body is expected and the server is asking for it, some of it must arrive within
///   `body`; a handler that is not reading (back-pressure) starts no clock.
/// - Between requests, a keep-alive connection may stay silent for `idle`.
/// - While a handler runs or a response (a live stream, say) is being written, no timeout applies.
/// - After a response marked `Connection: close` the output is closed and the rest of the input is
///   read and dropped for at most `linger`, so the client sees the answer rather than a reset.
struct ConnectionTimeouts: Sendable, Equatable {
    /// The durations of the timeouts.
    struct Limits: Sendable, Equatable {
        var header: TimeAmount
        var idle: TimeAmount
        var body: TimeAmount
        var linger: TimeAmount = .seconds(2)
    }

    /// Why the server closed a connection (the label of the closed-connections metric).
    enum Reason: String, Sendable, Equatable, CaseIterable {
        case headerTimeout = "header-timeout"
        case idleTimeout = "idle-timeout"
        case bodyTimeout = "body-timeout"
        /// Closed at the connection cap to make room (see ``ConnectionTable``).
        case evicted
        /// Refused at the connection cap: every other connection was busy.
        case refused
        /// The end of the drain after a `Connection: close` response.
        case lingerEnded = "linger-ended"
        /// The client closed its side before a request's headers were complete: nothing can be answered.
        case clientLeft = "client-left"
    }

    /// What a handler of the connection saw.
    enum Event: Sendable, Equatable {
        /// Bytes arrived from the client.
        case bytes
        /// The pipeline asked the socket for more bytes.
        case readRequested
        /// A request's head was decoded.
        case requestHead
        /// A request's end was decoded.
        case requestEnd
        /// A response's head is being written; `closes` when it says `Connection: close`.
        case responseHead(closes: Bool)
        /// A response's end was written.
        case responseEnd
        /// The client closed its side.
        case inputEnded
        /// The timer set at ``deadline`` fired.
        case timer
    }

    /// What the handlers must do.
    enum Action: Sendable, Equatable {
        /// Pass the event on.
        case proceed
        /// Drop the bytes that arrived (the connection is draining after its last response).
        case discard
        /// Close the output (after the response's last byte is written) and drain the input.
        case closeOutput
        /// Close the connection.
        case close(Reason)
    }

    let limits: Limits
    private let openedAt: NIODeadline
    /// Requests whose head arrived and whose response has not ended.
    private var inFlight = 0
    /// A request's head arrived and its end has not.
    private var readingRequest = false
    /// Since when the server has asked for body bytes that have not come.
    private var bodyWaitingSince: NIODeadline?
    /// Since when bytes of a request whose head is not complete have been arriving.
    private var headStartedAt: NIODeadline?
    /// When the last response ended (`nil` before the first one).
    private var idleSince: NIODeadline?
    private var closeAfterResponse = false
    private var lingerUntil: NIODeadline?
    private var closed = false

    init(limits: Limits, openedAt: NIODeadline) {
        self.limits = limits
        self.openedAt = openedAt
    }

    /// When the connection is to be closed unless something happens first, and why (`nil`: never).
    var deadline: (at: NIODeadline, reason: Reason)? {
        if closed { return nil }
        if let lingerUntil { return (lingerUntil, .lingerEnded) }
        if readingRequest { return bodyWaitingSince.map { ($0 + limits.body, .bodyTimeout) } }
        if inFlight > 0 { return nil }
        if let headStartedAt { return (headStartedAt + limits.header, .headerTimeout) }
        guard let idleSince else { return (openedAt + limits.header, .headerTimeout) }
        return (idleSince + limits.idle, .idleTimeout)
    }

    /// What a connection that is not busy with a request waits for: the connections that may be closed
    /// to make room at the cap, the first kind before the second (see ``ConnectionTable``).
    enum Waiting: Sendable, Equatable {
        /// Its first request, or the rest of a request's headers (half-open).
        case request
        /// Its next request, after answered ones (an idle kept-alive connection).
        case nextRequest
    }

    /// What the connection waits for, `nil` while it is busy with a request (or closing).
    var waiting: Waiting? {
        guard !closed && lingerUntil == nil && inFlight == 0 && !readingRequest else { return nil }
        return idleSince == nil || headStartedAt != nil ? .request : .nextRequest
    }

    /// Takes one event at `now` and says what to do.
    mutating func receive(_ event: Event, at now: NIODeadline) -> Action {
        if closed { return event == .bytes ? .discard : .proceed }
        if lingerUntil != nil {
            switch event {
            case .bytes: return .discard
            case .inputEnded: return close(.lingerEnded)
            case .timer: return timerFired(at: now)
            default: return .proceed
            }
        }
        switch event {
        case .bytes:
            if readingRequest {
                bodyWaitingSince = nil
            } else if headStartedAt == nil {
                // The first request's headers are due from the connection's opening.
                headStartedAt = idleSince == nil && inFlight == 0 ? openedAt : now
            }
        case .readRequested:
            if readingRequest && bodyWaitingSince == nil { bodyWaitingSince = now }
        case .requestHead:
            inFlight += 1
            readingRequest = true
            headStartedAt = nil
            bodyWaitingSince = nil
        case .requestEnd:
            readingRequest = false
            bodyWaitingSince = nil
        case .responseHead(let closes):
            closeAfterResponse = closeAfterResponse || closes
        case .responseEnd:
            if closeAfterResponse {
                lingerUntil = now + limits.linger
                return .closeOutput
            }
            inFlight = max(0, inFlight - 1)
            if inFlight == 0 { idleSince = now }
        case .inputEnded:
            if waiting != nil { return close(.clientLeft) }
        case .timer:
            return timerFired(at: now)
        }
        return .proceed
    }

    private mutating func timerFired(at now: NIODeadline) -> Action {
        guard let deadline, deadline.at <= now else { return .proceed }
        return close(deadline.reason)
    }

    private mutating func close(_ reason: Reason) -> Action {
        closed = true
        return .close(reason)
    }
}
