import Foundation
import Logging
import PostgresClient
import ScoreStore

/// The checkout's root folder (this file is `<root>/Sources/ScoreFeedTesting/TestStore.swift`).
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The path of a file in `fixtures/`.
public func fixture(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("fixtures").appendingPathComponent(name).path
}

/// The `scorefeed` executable next to the test bundle (scripts/test builds both).
public func scorefeedExecutable(_ name: String = "scorefeed") throws -> URL {
    let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
        throw TestDatabaseError("\(url.path) is missing: build it first (`swift build`; scripts/test does)")
    }
    return url
}

/// A logger that keeps test output to warnings and worse.
public let quietLogger: Logger = {
    var logger = Logger(label: "test")
    logger.logLevel = .warning
    return logger
}()

/// A migrated schema of its own and a connection to it, for one test.
public func withStore<T: Sendable>(migrated: Bool = true, _ body: (PostgresConnection) async throws -> T)
    async throws -> T
{
    try await TestDatabase.withSchema { url in
        let connection = try await PostgresConnection.connect(url)
        do {
            if migrated { try await Migrator().migrate(connection, logger: quietLogger) }
            let value = try await body(connection)
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }
}

/// Replays a fixture file into the store (as `scorefeed replay` does, the pushes to the outbox only).
@discardableResult
public func replay(_ file: String, _ connection: PostgresConnection) async throws -> ReplaySummary {
    try await Replayer(ingestor: Ingestor(connection: connection)).replay(files: [file]) { _, _ in }
}

/// The number of rows in a table.
public func count(_ table: String, _ connection: PostgresConnection) async throws -> Int {
    try await connection.query("SELECT count(*) AS n FROM \(table)")[0].int("n")
}

/// Three activities per fixture game: a plain production one, one with frequent updates, one
/// sandbox, registered 15 minutes before the scheduled first pitch (the game's own clock).
public let activityTokens = [
    String(repeating: "a1", count: 32), String(repeating: "b2", count: 32), String(repeating: "c3", count: 32),
]

/// Registers ``activityTokens`` for the game of a fixture file.
public func registerActivities(for file: String, _ connection: PostgresConnection) async throws {
    let first = try FeedFile.read(file)[0].message
    guard case .gameScheduled(_, _, let startsAt, _) = first.event else { throw TestDatabaseError("no game.scheduled") }
    let registeredAt = startsAt.addingTimeInterval(-15 * 60)
    for (index, token) in activityTokens.enumerated() {
        _ = try await connection.withSession { session in
            try Activities.register(
                gameId: first.gameId, token: token, environment: index == 2 ? .sandbox : .production,
                bundleId: "com.example.scores", frequentUpdates: index == 1, at: registeredAt, in: session)
        }
    }
}

/// What `replay` prints for a fixture: the golden pushes of its activity 0 (production, no frequent
/// updates, registered 15 minutes before the first pitch, like the replay's audience), each line
/// `{"gameId":…,` + the push's members. The golden files hold one kind of stream: the pushes.
public func audienceGolden(_ name: String) throws -> String {
    let gameId = try FeedFile.read(fixture("\(name).jsonl"))[0].message.gameId
    let golden = try String(contentsOfFile: fixture("\(name).pushes.jsonl"), encoding: .utf8)
    let prefix = #"{"activity":0,"apnsId":""#
    return golden.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix(prefix), let end = line.dropFirst(prefix.count).firstIndex(of: "\"") else { return nil }
        return #"{"gameId":"\#(gameId)","# + line[line.index(end, offsetBy: 2)...] + "\n"
    }.joined()
}

/// The FCM registration of an iPhone whose app sends its Live Activity pushes through FCM, and the
/// Live Activity token it reports (registered like activity 0: it gets exactly activity 0's pushes).
public let fcmIOSRegistration = "fcm-ios-device-0001:APA91bHsandboxIOSregistrationToken0001"
public let fcmActivityToken = String(repeating: "d4", count: 32)
/// The FCM registration of an Android device that follows the game (a Live Update).
public let androidRegistration = "fcm-android-device-0001:APA91bHsandboxAndroidRegistration0001"

/// Registers, for the game of a fixture file, one activity through FCM (``fcmActivityToken`` to
/// ``fcmIOSRegistration``) and one Android follower (``androidRegistration``), both 15 minutes before
/// the scheduled first pitch (the game's own clock), as ``registerActivities(for:_:)`` does.
public func registerFCMTargets(for file: String, _ connection: PostgresConnection) async throws {
    let first = try FeedFile.read(file)[0].message
    guard case .gameScheduled(_, _, let startsAt, _) = first.event else { throw TestDatabaseError("no game.scheduled") }
    let registeredAt = startsAt.addingTimeInterval(-15 * 60)
    try await connection.withSession { session in
        _ = try Activities.register(
            gameId: first.gameId, token: fcmActivityToken, environment: .production, bundleId: "com.example.scores",
            frequentUpdates: false, fcm: .token(fcmIOSRegistration), at: registeredAt, in: session)
        _ = try Followers.follow(
            gameId: first.gameId, fcm: .token(androidRegistration), at: registeredAt, in: session)
    }
}

/// An Android follower's messages as golden JSON lines: `{"data":{…},"event":…,"expiration":…,"reason":…,"seq":…}`.
public func androidLines(_ pushes: [TargetPush]) -> String {
    pushes.map { push in
        #"{"data":\#(push.payload),"event":"\#(push.event.rawValue)","expiration":\#(push.expiration),"#
            + #""reason":"\#(push.reason)","seq":\#(push.timestamp)}"# + "\n"
    }.joined()
}
