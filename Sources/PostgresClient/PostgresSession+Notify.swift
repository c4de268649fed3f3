import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

/// A `NOTIFY` received on a channel this session listens to.
public struct PostgresNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String
    /// The server process that sent it.
    public var senderPID: Int
}

extension PostgresSession {
    /// The server process serving this session (for `pg_terminate_backend` and logs).
    public var backendPID: Int { Int(PQbackendPID(handle)) }

    /// Waits up to `timeout` seconds for notifications and returns those that arrived (maybe none).
    ///
    /// Blocks the connection's own thread in `poll(2)` on the libpq socket.
    /// - Throws: ``PostgresError`` of kind `.connection` when the connection is lost.
    public func waitForNotifications(timeout: Double) throws(PostgresError) -> [PostgresNotification] {
        assert(PostgresConnection.isOnConnectionQueue, "libpq called off the connection's queue")
        var received = try drainNotifications()
        if !received.isEmpty { return received }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { throw lost("the connection has no socket") }
        let ready = poll(&descriptor, 1, Int32(max(0, timeout) * 1000))
        if ready < 0, errno != EINTR { throw lost("poll failed: \(String(cString: strerror(errno)))") }
        received = try drainNotifications()
        return received
    }

    private func drainNotifications() throws(PostgresError) -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else {
            throw lost(String(cString: PQerrorMessage(handle)).trimmingWhitespace())
        }
        var received: [PostgresNotification] = []
        while let notify = PQnotifies(handle) {
            received.append(
                PostgresNotification(
                    channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra),
                    senderPID: Int(notify.pointee.be_pid)))
            PQfreemem(notify)
        }
        return received
    }

    private func lost(_ message: String) -> PostgresError {
        PostgresError(kind: .connection, message: "connection lost: \(message)")
    }
}
