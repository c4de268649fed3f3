import Foundation
import LiveActivity
import Logging
import ScoreDomain

/// Counts of one replay.
public struct ReplaySummary: Sendable, Equatable {
    public var messages = 0
    public var accepted = 0
    public var duplicates = 0
    public var commands = 0
    public var games: Set<String> = []

    public init() {}
}

/// A replay stopped at a message the service refused; earlier messages stay stored.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var underlying: String
    public var description: String { "\(file):\(line): \(underlying)" }
}

/// Sends feed files through the write path, message by message, in file order.
public struct Replayer: Sendable {
    public let ingestor: Ingestor
    /// Wall-clock speed-up: `nil` replays instantly, `2` at twice the real time between messages.
    public let speed: Double?

    public init(ingestor: Ingestor, speed: Double? = nil) {
        self.ingestor = ingestor
        self.speed = speed
    }

    /// Parses every file first (a bad line stops the replay before anything is stored), then ingests
    /// each message in its own transaction, calling `emit` for every command planned.
    ///
    /// - Throws: ``FeedFileError`` for an unreadable or invalid file, ``ReplayError`` for a message
    ///   the fold refuses (nothing of it is stored), or a database error.
    public func replay(
        files: [String], emit: (LiveActivityCommand) throws -> Void
    ) async throws -> ReplaySummary {
        var messages: [SourcedMessage] = []
        for file in files { messages += try FeedFile.read(file) }
        var summary = ReplaySummary()
        var previousAt: Date?
        for sourced in messages {
            if let speed, let previousAt {
                let gap = sourced.message.at.timeIntervalSince(previousAt) / speed
                if gap > 0 { try await Task.sleep(nanoseconds: UInt64(min(gap, 3600) * 1_000_000_000)) }
            }
            previousAt = sourced.message.at
            let result: IngestResult
            do {
                result = try await ingestor.ingest(sourced.message)
            } catch let error as StoreError {
                throw ReplayError(file: sourced.file, line: sourced.line, underlying: error.description)
            }
            summary.messages += 1
            summary.games.insert(sourced.message.gameId)
            switch result.outcome {
            case .appended: summary.accepted += 1
            case .duplicate: summary.duplicates += 1
            }
            if let command = result.command {
                summary.commands += 1
                try emit(command)
            }
        }
        return summary
    }
}
