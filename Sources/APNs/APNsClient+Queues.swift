import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore

extension APNsClient {
    /// Sends queues of pushes: the queues side by side, the pushes of one queue one after another
    /// (each once the previous one is answered). Each push is handled as by ``send(_:timeout:)``.
    ///
    /// The requests go through async-http-client's event-loop API and the caller waits once, so a
    /// round of a thousand pushes costs no thousand tasks. Cancelling the calling task cancels the
    /// requests in flight (they report a transport error) and starts no more.
    /// - Parameters:
    ///   - queues: The pushes, each queue in sending order.
    ///   - timeout: The time one request may take (default: ``requestTimeout``).
    /// - Returns: The results, in the shape of `queues`.
    public func send(queues: [[APNsRequest]], timeout: Duration? = nil) async -> [[APNsResult]] {
        guard !queues.isEmpty else { return [] }
        let jwt: String
        do {
            jwt = try await tokenProvider.token()
        } catch {
            return queues.map { $0.map { log(APNsResult(error: error), $0) } }
        }
        let batch = RequestBatch(client: self, jwt: jwt, timeout: TimeAmount(timeout ?? requestTimeout))
        let results = await withTaskCancellationHandler {
            await batch.run(queues)
        } onCancel: {
            batch.cancel()
        }
        let answers = results.joined().map { ($0.status, $0.reason) }
        if answers.contains(where: { $0 == (403, "ExpiredProviderToken") }) {
            await tokenProvider.tokenExpired(jwt)
        } else if answers.contains(where: { $0 == (429, "TooManyProviderTokenUpdates") }) {
            await tokenProvider.keepCurrentToken()
        }
        return zip(queues, results).map { queue, results in zip(queue, results).map { log($1, $0) } }
    }
}

/// The requests of one ``APNsClient/send(queues:timeout:)`` call, and the means to cancel them.
private final class RequestBatch: Sendable {
    private let client: APNsClient
    private let jwt: String
    private let timeout: TimeAmount
    private let state = NIOLockedValueBox(State())

    private struct State {
        var cancelled = false
        var lastId = 0
        var inFlight: [Int: HTTPClient.Task<HTTPClient.Response>] = [:]
    }

    init(client: APNsClient, jwt: String, timeout: TimeAmount) {
        self.client = client
        self.jwt = jwt
        self.timeout = timeout
    }

    /// The results of every queue, in order; never fails.
    func run(_ queues: [[APNsRequest]]) async -> [[APNsResult]] {
        let loop = client.eventLoopGroup.any()
        let futures = queues.map { send($0, from: 0, results: [], on: loop) }
        let outcomes = (try? await EventLoopFuture.whenAllComplete(futures, on: loop).get()) ?? []
        return zip(queues, outcomes).map { queue, outcome in
            (try? outcome.get()) ?? queue.map { _ in APNsResult(error: APNsClient.cancelledBeforeStart) }
        }
    }

    /// Cancels the requests in flight; no more are started.
    func cancel() {
        let tasks = state.withLockedValue { state in
            state.cancelled = true
            return Array(state.inFlight.values)
        }
        for task in tasks { task.cancel() }
    }

    private func send(_ queue: [APNsRequest], from index: Int, results: [APNsResult], on loop: any EventLoop)
        -> EventLoopFuture<[APNsResult]>
    {
        guard index < queue.count else { return loop.makeSucceededFuture(results) }
        return execute(queue[index], retryIfNotStarted: true, on: loop).flatMap { result in
            self.send(queue, from: index + 1, results: results + [result], on: loop)
        }
    }

    private func execute(_ request: APNsRequest, retryIfNotStarted: Bool, on loop: any EventLoop)
        -> EventLoopFuture<APNsResult>
    {
        guard APNsClient.isValidToken(request.deviceToken) else {
            return loop.makeSucceededFuture(
                APNsResult(error: APNsError(.invalidRequest, "device token must be ASCII letters and digits")))
        }
        let http: HTTPClient.Request
        do {
            http = try client.makeRequest(request, jwt: jwt)
        } catch {
            return loop.makeSucceededFuture(APNsResult(error: APNsClient.transportError(error)))
        }
        let started: (id: Int, task: HTTPClient.Task<HTTPClient.Response>)? = state.withLockedValue { state in
            guard !state.cancelled else { return nil }
            let task = client.httpClient.execute(
                request: http, delegate: ResponseAccumulator(request: http, maxBodySize: 64 * 1024),
                eventLoop: .indifferent,
                deadline: .now() + timeout, logger: client.logger)
            state.lastId += 1
            state.inFlight[state.lastId] = task
            return (state.lastId, task)
        }
        guard let started else {
            return loop.makeSucceededFuture(APNsResult(error: APNsClient.cancelledBeforeStart))
        }
        return started.task.futureResult.map { response in
            APNsClient.result(
                status: Int(response.status.code), headers: response.headers, body: response.body ?? ByteBuffer())
        }.recover { error in
            APNsResult(error: APNsClient.transportError(error))
        }.flatMap { result in
            self.state.withLockedValue { _ = $0.inFlight.removeValue(forKey: started.id) }
            if retryIfNotStarted, result.error == APNsClient.notStarted {
                return self.execute(request, retryIfNotStarted: false, on: loop)
            }
            return loop.makeSucceededFuture(result)
        }
    }
}
