import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import Retry

/// A fixed number of HTTP/2 connections to one server, opened on first use, replaced when they
/// close, go away or trip their ``ErrorRateGuard`` (after the shared ``Backoff`` when they failed).
///
/// ``execute(_:deadline:)`` spreads a batch of requests over the usable connections in contiguous
/// slices, each written and flushed at once. Call ``shutdown()`` before releasing the pool.
public final class HTTP2ConnectionPool: Sendable {
    /// How to reach the server and how to behave.
    public struct Configuration: Sendable {
        /// The server's host name or IP address.
        public var host: String
        /// The server's port.
        public var port: Int
        /// TLS settings; ALPN is set to `h2` by the pool.
        public var tls: TLSConfiguration
        /// How many connections to keep (at least 1).
        public var connections: Int
        /// Limit for TCP connect, TLS handshake and the server's first SETTINGS.
        public var connectTimeout: TimeAmount = .seconds(10)
        /// A PING is sent this often on every connection.
        public var pingInterval: TimeAmount = .seconds(60)
        /// A connection whose PING is not answered in this time is closed.
        public var pingTimeout: TimeAmount = .seconds(10)
        /// When a connection retires itself for its errors.
        public var errorPolicy = ErrorRateGuard.Policy()
        /// Which answers count as errors for the guard (default: 4xx and 5xx).
        public var isError: @Sendable (HTTP2Response) -> Bool = { $0.status >= 400 }
        /// Answers after which the connection takes no new requests and is replaced (the server says
        /// the connection itself is the problem).
        public var retiresConnection: @Sendable (HTTP2Response) -> Bool = { _ in false }
        /// The wait before reconnecting after a failed connect or a retirement for errors.
        public var backoff = Backoff.reconnect

        /// Creates a configuration with the defaults above.
        public init(host: String, port: Int, tls: TLSConfiguration, connections: Int = 1) {
            self.host = host
            self.port = port
            self.tls = tls
            self.connections = max(1, connections)
        }
    }

    private enum Slot {
        case empty(failures: Int, notBefore: NIODeadline)
        case connecting(EventLoopFuture<HTTP2Connection>, failures: Int)
        case ready(HTTP2Connection)
    }

    private struct State {
        var slots: [Slot]
        var shutDown = false
        var next = 0
    }

    /// The configuration the pool was made with.
    public let configuration: Configuration
    private let group: any EventLoopGroup
    private let sslContext: NIOSSLContext
    private let logger: Logger
    private let state: NIOLockedValueBox<State>

    /// Creates a pool; nothing connects until the first request.
    /// - Throws: When the TLS configuration is unusable.
    public init(
        _ configuration: Configuration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger
    ) throws {
        self.configuration = configuration
        self.group = group
        self.logger = logger
        var tls = configuration.tls
        tls.applicationProtocols = ["h2"]
        self.sslContext = try NIOSSLContext(configuration: tls)
        self.state = NIOLockedValueBox(
            State(
                slots: Array(
                    repeating: .empty(failures: 0, notBefore: .uptimeNanoseconds(0)), count: configuration.connections))
        )
    }

    /// Sends the requests and returns one outcome per request, in order; never throws.
    ///
    /// Requests of one call may run concurrently in any order; a caller that needs order (two
    /// pushes of one activity) sends them in separate calls.
    public func execute(_ requests: [HTTP2Request], deadline: NIODeadline) async -> [HTTP2Outcome] {
        guard !requests.isEmpty else { return [] }
        let connections: [HTTP2Connection]
        do {
            connections = try await usableConnections(deadline: deadline)
        } catch let error as HTTP2ClientError {
            return Array(repeating: .failure(error), count: requests.count)
        } catch {
            return Array(repeating: .failure(HTTP2ClientError(.connectFailed, "\(error)")), count: requests.count)
        }
        let slice = (requests.count + connections.count - 1) / connections.count
        let batches = stride(from: 0, to: requests.count, by: slice).enumerated().map { number, start in
            let connection = connections[number]
            return (
                connection,
                connection.batch(Array(requests[start..<min(requests.count, start + slice)]), deadline: deadline)
            )
        }
        return await withTaskCancellationHandler {
            for (connection, batch) in batches { connection.submit(batch) }
            var outcomes: [HTTP2Outcome] = []
            outcomes.reserveCapacity(requests.count)
            for (_, batch) in batches {
                // The handler always succeeds the promise.
                outcomes += (try? await batch.futureResult.get()) ?? []
            }
            return outcomes
        } onCancel: {
            for (connection, batch) in batches { connection.cancel(batch) }
        }
    }

    /// The connections that take requests now, connecting the missing ones (all slots, so requests
    /// spread), waiting out a backoff only when no connection is usable.
    private func usableConnections(deadline: NIODeadline) async throws -> [HTTP2Connection] {
        while true {
            let (pending, wait) = try claimSlots()
            var usable: [HTTP2Connection] = []
            var lastError: (any Error)?
            for (index, future) in pending {
                do {
                    let connection = try await future.get()
                    settle(index, .success(connection))
                    usable.append(connection)
                } catch {
                    settle(index, .failure(error))
                    lastError = error
                }
            }
            // Rotate so concurrent callers with small batches do not all start on the first connection.
            if !usable.isEmpty {
                let offset = state.withLockedValue { state in
                    state.next = (state.next + 1) % max(1, usable.count)
                    return state.next
                }
                return Array(usable[offset...] + usable[..<offset])
            }
            if let lastError, wait == nil {
                throw lastError as? HTTP2ClientError ?? HTTP2ClientError(.connectFailed, "\(lastError)")
            }
            let until = wait ?? (NIODeadline.now() + .milliseconds(10))
            guard until < deadline else {
                throw HTTP2ClientError(
                    .connectFailed, "no connection to \(configuration.host):\(configuration.port) before the deadline")
            }
            try await Task.sleep(nanoseconds: UInt64(max(0, (until - NIODeadline.now()).nanoseconds)))
        }
    }

    /// For every slot: its ready connection, its connect in progress, or a new connect when its
    /// backoff has passed. Also returns the earliest end of a backoff still running.
    private func claimSlots() throws(HTTP2ClientError) -> ([(Int, EventLoopFuture<HTTP2Connection>)], NIODeadline?) {
        let now = NIODeadline.now()
        var toConnect: [(Int, EventLoopPromise<HTTP2Connection>)] = []
        let claimed: Result<([(Int, EventLoopFuture<HTTP2Connection>)], NIODeadline?), HTTP2ClientError> =
            state.withLockedValue { state in
                guard !state.shutDown else { return .failure(HTTP2ClientError(.shutDown, "the client is shut down")) }
                var pending: [(Int, EventLoopFuture<HTTP2Connection>)] = []
                var wait: NIODeadline?
                for index in state.slots.indices {
                    if case .ready(let connection) = state.slots[index], !connection.state.isUsable {
                        let failures = connection.state.retiredForErrors ? 1 : 0
                        let notBefore = failures == 0 ? now : now + backoffDelay(failures)
                        logger.info(
                            "HTTP/2 connection retired",
                            metadata: [
                                "http2.host": "\(configuration.host)",
                                "http2.reason": "\(connection.state.reason ?? "closed")",
                            ])
                        state.slots[index] = .empty(failures: failures, notBefore: notBefore)
                    }
                    switch state.slots[index] {
                    case .ready(let connection):
                        pending.append((index, group.next().makeSucceededFuture(connection)))
                    case .connecting(let future, _):
                        pending.append((index, future))
                    case .empty(let failures, let notBefore) where notBefore <= now:
                        let promise = group.next().makePromise(of: HTTP2Connection.self)
                        state.slots[index] = .connecting(promise.futureResult, failures: failures)
                        toConnect.append((index, promise))
                        pending.append((index, promise.futureResult))
                    case .empty(_, let notBefore):
                        wait = min(wait ?? notBefore, notBefore)
                    }
                }
                return .success((pending, wait))
            }
        for (_, promise) in toConnect {
            let (configuration, context, group) = (configuration, sslContext, group)
            promise.completeWithTask {
                try await HTTP2Connection.connect(
                    host: configuration.host, port: configuration.port, tls: context,
                    settings: .init(
                        pingInterval: configuration.pingInterval, pingTimeout: configuration.pingTimeout,
                        errorPolicy: configuration.errorPolicy, isError: configuration.isError,
                        retiresConnection: configuration.retiresConnection),
                    connectTimeout: configuration.connectTimeout, group: group)
            }
        }
        return try claimed.get()
    }

    /// Records how a slot's connect ended.
    private func settle(_ index: Int, _ result: Result<HTTP2Connection, any Error>) {
        let closeLate: HTTP2Connection? = state.withLockedValue { state in
            guard case .connecting(_, let failures) = state.slots[index] else {
                // Shut down meanwhile, or already settled by another caller.
                if case .success(let connection) = result, state.shutDown { return connection }
                return nil
            }
            switch result {
            case .success(let connection):
                state.slots[index] = .ready(connection)
            case .failure(let error):
                logger.warning(
                    "cannot connect over HTTP/2",
                    metadata: ["http2.host": "\(configuration.host)", "http2.error": "\(error)"])
                state.slots[index] = .empty(failures: failures + 1, notBefore: .now() + backoffDelay(failures + 1))
            }
            return nil
        }
        if let closeLate { closeLate.channel.close(promise: nil) }
    }

    private func backoffDelay(_ failures: Int) -> TimeAmount {
        TimeAmount.nanoseconds(Int64((configuration.backoff.delay(attempt: failures) / .nanoseconds(1)).rounded()))
    }

    /// How many connections are open now.
    public var openConnections: Int {
        state.withLockedValue { state in
            state.slots.reduce(0) { count, slot in
                if case .ready(let connection) = slot, connection.state.isUsable { return count + 1 }
                return count
            }
        }
    }

    /// Closes every connection; requests afterwards fail with `shutDown`.
    public func shutdown() async {
        let slots = state.withLockedValue { state in
            state.shutDown = true
            return state.slots
        }
        for slot in slots {
            switch slot {
            case .ready(let connection): await connection.close()
            case .connecting(let future, _): if let connection = try? await future.get() { await connection.close() }
            case .empty: break
            }
        }
    }
}
