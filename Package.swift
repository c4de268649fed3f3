// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ScoreFeed",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "scorefeed", targets: ["scorefeed"]),
        .executable(name: "scorefeed-bench", targets: ["scorefeed-bench"]),
    ],
    // Direct dependencies pinned exactly (the lock file is not committed: its revisions would be this
    // machine's local package copies); their own dependencies float within the ranges they declare.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-http2", exact: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", exact: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", exact: "1.6.2"),
        // The generated API client's runtime and its transport (OpenAPIClientTests only).
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", exact: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        // Traces: the tracing API, and OpenTelemetry's OTLP exporter over HTTP only (no gRPC stack).
        .package(url: "https://github.com/apple/swift-distributed-tracing", exact: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel", exact: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // C shim -> safe database wrapper -> pure domain -> store/projection -> CLI
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "PostgresClient", dependencies: ["CLibPQ"]),
        .target(name: "ScoreDomain"),
        // The one retry backoff (exponential, full jitter) every retry loop uses.
        .target(name: "Retry"),
        // Base64url, the encoding of JWTs (APNs provider tokens, Google OAuth assertions).
        .target(name: "JOSE"),
        .target(name: "LiveActivity", dependencies: ["ScoreDomain"]),
        .target(name: "Retrosheet", dependencies: ["ScoreDomain"]),
        // Real providers' documents of every sport (NHL, NBA, StatsBomb, Sportradar, …) converted to the
        // canonical feed: pure, document in, messages out.
        .target(name: "Providers", dependencies: ["ScoreDomain"]),
        // MLB Stats API live feed ("GUMBO"): the pure core (JSON Patch, snapshot reader, differ) and the
        // follower (HTTP polling with retries, feeding the Ingestor).
        .target(name: "MLBFeed", dependencies: ["ScoreDomain"]),
        .target(
            name: "MLBFollow",
            dependencies: [
                "Retry", "MLBFeed", "LiveFollow", "ScoreDomain", "ScoreStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Following live providers: the documents' client (conditional GETs), the log's game store, and
        // the followers of polled documents (NHL, NBA) and of Sportradar's push stream.
        .target(
            name: "LiveFollow",
            dependencies: [
                "Retry", "Providers", "ScoreDomain", "ScoreStore", "LiveActivity",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "ScoreStore",
            dependencies: [
                "Retry", "PostgresClient", "ScoreDomain", "LiveActivity",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(name: "ChildProcess"),
        // HTTP/2 requests spoken directly on SwiftNIO (its own framing, no nio-http2 stream machinery):
        // a pool of TLS connections to one server, batches written and flushed at once. APNs and FCM sit on it.
        .target(
            name: "HTTP2Client",
            dependencies: [
                "Retry",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // APNs: the client for Live Activity pushes, and the local APNs-compatible server tests and the demo use.
        .target(
            name: "APNs",
            dependencies: [
                "JOSE",
                "HTTP2Client",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // What the two local servers (APNs, FCM) share: TLS with a throw-away CA, HTTP/2, the listener
        // and its connections, the request logs, fault timing.
        .target(
            name: "LocalServer",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "APNsSandbox",
            dependencies: [
                "JOSE",
                "LocalServer",
                "Retry",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),
        // Firebase Cloud Messaging HTTP v1: service-account OAuth (RS256 JWT), messages:send on the HTTP/2 pool.
        .target(
            name: "FCM",
            dependencies: [
                "JOSE",
                "HTTP2Client", "ScoreDomain",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // A local FCM-compatible server (OAuth token endpoint + messages:send) with faults, for tests and the demo.
        .target(
            name: "FCMSandbox",
            dependencies: [
                "JOSE",
                "LocalServer", "ScoreDomain",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),
        .target(
            name: "PushDelivery",
            dependencies: [
                "Retry", "ScoreStore", "ScoreDomain", "LiveActivity", "APNs", "FCM", "PostgresClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "LocalPostgres",
            dependencies: ["PostgresClient", "ChildProcess", .product(name: "Logging", package: "swift-log")]
        ),
        // The long-running server: HTTP API, live stream, scoreboard, metrics, and the workers.
        .target(
            name: "ScoreFeedServer",
            dependencies: [
                "Retry", "ScoreStore", "ScoreDomain", "LiveActivity", "PostgresClient", "PushDelivery", "APNs", "FCM",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "ScoreFeedCLI",
            dependencies: [
                "ScoreStore", "LocalPostgres", "ScoreDomain", "LiveActivity", "PostgresClient", "Retrosheet",
                "PushDelivery", "APNs", "APNsSandbox", "FCM", "FCMSandbox", "ScoreFeedServer", "MLBFeed", "MLBFollow",
                "LiveFollow", "Providers", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .executableTarget(name: "scorefeed", dependencies: ["ScoreFeedCLI"]),
        // The benchmarks (`scorefeed-bench`), a target of their own so the shipped CLI does not carry them.
        .target(
            name: "ScoreFeedBench",
            dependencies: [
                "ScoreFeedCLI", "ScoreStore", "ScoreDomain", "PostgresClient", "Retrosheet", "Providers",
                "PushDelivery", "APNs", "APNsSandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "scorefeed-bench", dependencies: ["ScoreFeedBench"]),
        // Helpers for tests: a fresh schema per test on the real PostgreSQL of SCOREFEED_DATABASE_URL.
        .target(
            name: "ScoreFeedTesting",
            dependencies: ["PostgresClient", "ScoreStore", .product(name: "Logging", package: "swift-log")]
        ),
        // A local GUMBO-compatible HTTP/1.1 server (SwiftNIO) serving snapshots and patches, with faults.
        .target(
            name: "MLBFeedTesting",
            dependencies: [
                "MLBFeed", "ScoreDomain", "LiveFollowTesting",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "ScoreFeedTesting"]),
        .testTarget(name: "ScoreDomainTests", dependencies: ["ScoreDomain"]),
        .testTarget(name: "RetryTests", dependencies: ["Retry"]),
        .testTarget(name: "LiveActivityTests", dependencies: ["LiveActivity", "ScoreDomain"]),
        .testTarget(name: "RetrosheetTests", dependencies: ["Retrosheet", "ScoreDomain"]),
        // A local HTTP server serving recorded provider documents in sequence, with faults.
        .target(
            name: "LiveFollowTesting",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "LiveFollowTests",
            dependencies: [
                "LiveFollow", "LiveFollowTesting", "Providers", "ScoreStore", "ScoreDomain", "PostgresClient",
                "ScoreFeedTesting", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ProvidersTests", dependencies: ["Providers", "ScoreDomain", "ScoreFeedTesting"]),
        .testTarget(
            name: "ScoreStoreTests",
            dependencies: [
                "ScoreStore", "PostgresClient", "ScoreDomain", "LiveActivity", "ScoreFeedTesting",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ScoreFeedCLITests",
            dependencies: [
                "ScoreFeedTesting", "ChildProcess", "MLBFeedTesting", "LiveFollowTesting", "ScoreDomain",
                "PostgresClient",
            ]
        ),
        .testTarget(name: "MLBFeedTests", dependencies: ["MLBFeed", "ScoreDomain", "ScoreFeedTesting"]),
        .testTarget(
            name: "MLBFollowTests",
            dependencies: [
                "Retry", "MLBFollow", "LiveFollow", "MLBFeed", "MLBFeedTesting", "ScoreStore", "ScoreDomain",
                "PostgresClient",
                "ScoreFeedTesting", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "APNsTests",
            dependencies: [
                "APNs", "APNsSandbox", "HTTP2Client", "JOSE", "Retry",
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "FCMTests",
            dependencies: [
                "JOSE",
                "FCM", "FCMSandbox", "ScoreDomain", "ScoreFeedTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FCMSandboxTests",
            dependencies: [
                "JOSE",
                "FCMSandbox", "HTTP2Client", "ScoreDomain",
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "PushDeliveryTests",
            dependencies: [
                "Retry", "PushDelivery", "APNs", "APNsSandbox", "FCM", "FCMSandbox", "ScoreStore", "ScoreDomain",
                "LiveActivity", "PostgresClient", "ScoreFeedTesting",
            ]
        ),
        .testTarget(
            name: "ScoreFeedServerTests",
            dependencies: [
                "ScoreFeedServer", "ScoreStore", "ScoreDomain", "PostgresClient", "ScoreFeedTesting", "ChildProcess",
                "APNs", "APNsSandbox", "FCM", "FCMSandbox", "LocalPostgres", "Retry",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // ScoreFeed's API client generated from docs/openapi.yaml (Generated/, committed; written by
        // scripts/generate-openapi-client with the configuration beside it) against a running scorefeed serve.
        .testTarget(
            name: "OpenAPIClientTests",
            dependencies: [
                "ScoreFeedTesting", "ChildProcess",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
