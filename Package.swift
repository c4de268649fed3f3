// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ScoreFeed",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "scorefeed", targets: ["scorefeed"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C shim -> safe database wrapper -> pure domain -> store/projection -> CLI
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "PostgresClient", dependencies: ["CLibPQ"]),
        .target(name: "ScoreDomain"),
        .target(name: "LiveActivity", dependencies: ["ScoreDomain"]),
        .target(name: "Retrosheet", dependencies: ["ScoreDomain"]),
        .target(
            name: "ScoreStore",
            dependencies: [
                "PostgresClient", "ScoreDomain", "LiveActivity",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "ChildProcess"),
        .target(
            name: "LocalPostgres",
            dependencies: ["PostgresClient", "ChildProcess", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "ScoreFeedCLI",
            dependencies: [
                "ScoreStore", "LocalPostgres", "ScoreDomain", "LiveActivity", "PostgresClient", "Retrosheet",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "scorefeed", dependencies: ["ScoreFeedCLI"]),
        // Helpers for tests: a fresh schema per test on the real PostgreSQL of SCOREFEED_DATABASE_URL.
        .target(name: "ScoreFeedTesting", dependencies: ["PostgresClient"]),

        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "ScoreFeedTesting"]),
        .testTarget(name: "ScoreDomainTests", dependencies: ["ScoreDomain"]),
        .testTarget(name: "LiveActivityTests", dependencies: ["LiveActivity", "ScoreDomain"]),
        .testTarget(name: "RetrosheetTests", dependencies: ["Retrosheet", "ScoreDomain"]),
        .testTarget(
            name: "ScoreStoreTests",
            dependencies: ["ScoreStore", "PostgresClient", "ScoreDomain", "LiveActivity", "ScoreFeedTesting"]
        ),
        .testTarget(name: "ScoreFeedCLITests", dependencies: ["ScoreFeedTesting", "ChildProcess"]),
    ],
    swiftLanguageModes: [.v6]
)
