import NIOCore

/// Requests handed to one connection together, and their outcomes as they arrive.
///
/// Confined to the connection's event loop (created on any thread, touched only on the loop once
/// submitted). Completes its promise once every request has an outcome.
final class HTTP2Batch: @unchecked Sendable {
    let requests: [HTTP2Request]
    let deadline: NIODeadline
    private(set) var outcomes: [HTTP2Outcome?]
    private var remaining: Int
    private let promise: EventLoopPromise<[HTTP2Outcome]>
    /// Succeeds (never fails) with one outcome per request once all have one.
    var futureResult: EventLoopFuture<[HTTP2Outcome]> { promise.futureResult }
    var timeout: Scheduled<Void>?

    init(_ requests: [HTTP2Request], deadline: NIODeadline, promise: EventLoopPromise<[HTTP2Outcome]>) {
        self.requests = requests
        self.deadline = deadline
        self.outcomes = Array(repeating: nil, count: requests.count)
        self.remaining = requests.count
        self.promise = promise
        if requests.isEmpty { promise.succeed([]) }
    }

    var isComplete: Bool { remaining == 0 }

    /// Records the outcome of request `index`; the first outcome of a request wins.
    func complete(_ index: Int, _ outcome: HTTP2Outcome) {
        guard outcomes[index] == nil else { return }
        outcomes[index] = outcome
        remaining -= 1
        if remaining == 0 {
            timeout?.cancel()
            timeout = nil
            promise.succeed(outcomes.map { $0! })
        }
    }

    /// Gives every request without an outcome this error.
    func failRemaining(_ error: HTTP2ClientError) {
        for index in outcomes.indices where outcomes[index] == nil { complete(index, .failure(error)) }
    }
}
