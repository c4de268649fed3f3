import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection cap and timeouts of `serve`'s HTTP server.
enum ConnectionLimits {
    /// The descriptors kept out of the cap for the database connections, the push clients, the log and
    /// the event loops: a twentieth of the limit, at least 256.
    static func reserve(descriptors: Int) -> Int { max(256, descriptors / 20) }

    /// The default cap for a process that may open `descriptors` files.
    static func defaultCapacity(descriptors: Int) -> Int { max(16, descriptors - reserve(descriptors: descriptors)) }

    /// Raises the soft limit of open files to the hard one and returns the limit now in force.
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// TCP keepalive and the user timeout of an accepted connection: a peer that vanished without a
    /// FIN (a stream client whose network went away) is found within about a minute, not the
    /// kernel's 15 minutes of retransmissions. Probes after 30 s of silence, every 10 s, 3 unanswered:
    /// closed; unacknowledged data for 60 s: closed.
    static let socketOptions: [(option: ChannelOptions.Types.SocketOption, value: SocketOptionValue)] = {
        #if os(Linux)
            let tcp = NIOBSDSocket.OptionLevel.tcp
            return [
                (ChannelOptions.Types.SocketOption(level: .socket, name: .so_keepalive), 1),
                (.init(level: tcp, name: .init(rawValue: TCP_KEEPIDLE)), 30),
                (.init(level: tcp, name: .init(rawValue: TCP_KEEPINTVL)), 10),
                (.init(level: tcp, name: .init(rawValue: TCP_KEEPCNT)), 3),
                (.init(level: tcp, name: .init(rawValue: TCP_USER_TIMEOUT)), 60_000),
            ]
        #else
            return [(ChannelOptions.Types.SocketOption(level: .socket, name: .so_keepalive), 1)]
        #endif
    }()

    /// Sets ``socketOptions`` on a TCP connection (on its event loop).
    static func setSocketOptions(_ channel: any Channel) throws {
        guard let address = channel.remoteAddress, address.protocol == .inet || address.protocol == .inet6,
            let options = channel.syncOptions
        else { return }
        for (option, value) in socketOptions { try options.setOption(option, value: value) }
    }

    /// The HTTP/1 server with the cap and timeouts of `configuration`, counting into `metrics`.
    static func server(
        _ configuration: ServerConfiguration, metrics: ServerMetrics, logger: Logger
    ) -> HTTPServerBuilder {
        let descriptors = raiseDescriptorLimit()
        let highest = defaultCapacity(descriptors: descriptors)
        var capacity = configuration.maxConnections ?? highest
        if capacity > highest {
            logger.warning(
                "\(ServerConfiguration.Variable.maxConnections) is above what the open-file limit allows: using \(highest)",
                metadata: ["connections.requested": "\(capacity)", "descriptors.limit": "\(descriptors)"])
            capacity = highest
        }
        logger.info(
            "HTTP connections: at most \(capacity)",
            metadata: [
                "descriptors.limit": "\(descriptors)", "timeout.header": "\(configuration.headerTimeout)",
                "timeout.idle": "\(configuration.idleTimeout)", "timeout.body": "\(configuration.bodyTimeout)",
            ])
        let limits = ConnectionTimeouts.Limits(
            header: TimeAmount(configuration.headerTimeout), idle: TimeAmount(configuration.idleTimeout),
            body: TimeAmount(configuration.bodyTimeout))
        let registry = ConnectionRegistry(capacity: capacity, limits: limits, metrics: metrics, logger: logger)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(base: HTTP1Channel(responder: responder), registry: registry)
        }
    }
}
