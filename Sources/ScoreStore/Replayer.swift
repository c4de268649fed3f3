import Foundation
import LiveActivity
import PostgresClient
import ScoreDomain

/// Counts of one replay.
public struct ReplaySummary: Sendable, Equatable {
    public var messages = 0
    public var accepted = 0
    public var duplicates = 0
    /// Pushes planned for the audience (an activity registered before each game) and emitted.
    public var pushes = 0
    /// Duplicates an earlier run had already projected: their pushes were planned (and printed)
    /// then, and are not printed again. Duplicates stored by an earlier run that stopped before
    /// projecting them are projected now and their pushes printed.
    public var projectedEarlier = 0
    public var games: Set<String> = []
    /// Games that were skipped (`--keep-going`), with file, line and reason.
    public var failures: [String] = []

    public init() {}

    mutating func count(_ outcomes: [AppendOutcome], of messages: ArraySlice<SourcedMessage>) {
        self.messages += outcomes.count
        for (outcome, sourced) in zip(outcomes, messages) {
            games.insert(sourced.message.gameId)
            switch outcome {
            case .appended: accepted += 1
            case .duplicate: duplicates += 1
            }
        }
    }
}

/// A replay stopped at a message the service refused; earlier messages stay stored.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var underlying: String
    public var description: String { "\(file):\(line): \(underlying)" }
}

/// The pushes a replay prints, one at a time: the game and the push.
public typealias PushSink = (_ gameId: String, _ push: PlannedMessage) throws -> Void

/// Sends feed files through the write path (ingest → log), then the projector (log → projection
/// and pushes), in file order: the same code path as the server. What it emits is what a phone
/// would receive: the pushes of an activity registered 15 minutes before each game's first pitch
/// (``PushTarget/audience(for:frequentUpdates:)``), planned by the same planner as the stored
/// activities' pushes.
public struct Replayer: Sendable {
    public let ingestor: Ingestor
    public let projector: Projector
    /// Wall-clock speed-up: `nil` replays instantly, `2` at twice the real time between messages.
    public let speed: Double?
    /// Messages appended per transaction when replaying instantly.
    public let batchSize: Int

    public init(ingestor: Ingestor, projector: Projector = Projector(), speed: Double? = nil, batchSize: Int = 500) {
        self.ingestor = ingestor
        self.projector = projector
        self.speed = speed
        self.batchSize = batchSize
    }

    /// Parses every file first (a bad line stops the replay before anything is stored), then appends
    /// the messages in order, projects them and calls `emit` for every push they planned.
    ///
    /// - Throws: ``FeedFileError`` for an unreadable or invalid file, ``ReplayError`` for a message
    ///   the fold refuses (the messages before it stay stored, nothing of it is), or a database error.
    public func replay(
        files: [String], emit: PushSink
    ) async throws -> ReplaySummary {
        var messages: [SourcedMessage] = []
        for file in files { messages += try FeedFile.read(file) }
        return try await replay(messages: messages, emit: emit)
    }

    /// Appends the messages in order (in batches, or one by one at ``speed``), projects them and
    /// calls `emit` for every push they planned.
    public func replay(messages: [SourcedMessage], emit: PushSink) async throws -> ReplaySummary {
        var audience: Audience? = Audience()
        return try await replay(messages: messages, audience: &audience, emit: emit)
    }

    /// Like ``replay(messages:emit:)``, with an audience kept by the caller across calls (a follower
    /// stores one document's messages at a time).
    ///
    /// Messages that reuse one id with different content stop the replay before anything is stored.
    public func replay(
        messages: [SourcedMessage], audience: inout Audience?, emit: PushSink
    ) async throws -> ReplaySummary {
        if let (index, earlier, conflict) = IdConflict.first(in: messages.lazy.map(\.message)) {
            let (refused, first) = (messages[index], messages[earlier])
            throw ReplayError(
                file: refused.file, line: refused.line,
                underlying: "\(IdConflict.code): message id \"\(conflict.messageId)\" is also used at \(first.file):"
                    + "\(first.line) for another message (game \"\(conflict.gameId)\"); nothing was stored")
        }
        var summary = ReplaySummary()
        let projectedBefore = try await checkpoint()
        var start = 0
        var previousAt: Date?
        while start < messages.count {
            let end = speed == nil ? min(start + batchSize, messages.count) : start + 1
            if let speed, let previousAt {
                let gap = messages[start].message.at.timeIntervalSince(previousAt) / speed
                if gap > 0 { try await Task.sleep(nanoseconds: UInt64(min(gap, 3600) * 1_000_000_000)) }
            }
            previousAt = messages[start].message.at
            let batch = messages[start..<end]
            do {
                let outcomes = try await ingestor.ingest(batch.map(\.message))
                summary.count(outcomes, of: batch)
                try await project(outcomes, after: projectedBefore, audience: &audience, summary: &summary, emit: emit)
            } catch let rejection as IngestRejection {
                summary.count(rejection.outcomes, of: batch)
                try await project(
                    rejection.outcomes, after: projectedBefore, audience: &audience, summary: &summary, emit: emit)
                try await flushPending(Array(summary.games), audience: &audience, summary: &summary, emit: emit)
                let refused = batch[batch.startIndex + rejection.index]
                throw ReplayError(file: refused.file, line: refused.line, underlying: rejection.description)
            }
            start = end
        }
        try await flushPending(Array(summary.games), audience: &audience, summary: &summary, emit: emit)
        return summary
    }

    /// On the events' own clock no later event closes the last intervals: send what still waits,
    /// to the stored activities and to the audience.
    private func flushPending(
        _ games: [String], audience: inout Audience?, summary: inout ReplaySummary, emit: PushSink
    ) async throws {
        guard case .eventTime = projector.clock, !games.isEmpty else { return }
        let planner = projector.planner
        _ = try await ingestor.connection.transaction { tx in
            try PushScheduler.flushPending(games: games, planner: planner, in: tx)
        }
        audience?.flush(planner)
        try emitPushes(&audience, summary: &summary, emit: emit)
    }

    /// Replays whole games, each in ONE transaction: a game the fold refuses is not stored at all,
    /// and the games before it stay stored. `progress` is called after each game.
    ///
    /// - Parameter keepGoing: record a refused game in ``ReplaySummary/failures`` and go on with the
    ///   next one instead of stopping.
    /// - Throws: ``ReplayError`` naming the refused message's file and line.
    public func replay(
        games: [[SourcedMessage]], keepGoing: Bool = false, emit: PushSink,
        progress: (_ games: Int, _ summary: ReplaySummary) -> Void = { _, _ in }
    ) async throws -> ReplaySummary {
        var summary = ReplaySummary()
        let projectedBefore = try await checkpoint()
        var audience: Audience? = Audience()
        var pending: [AppendOutcome] = []
        for (index, game) in games.enumerated() {
            do {
                let outcomes = try await ingestor.ingest(game.map(\.message), partial: false)
                summary.count(outcomes, of: game[...])
                pending += outcomes
            } catch let rejection as IngestRejection {
                let refused = game[rejection.index]
                let error = ReplayError(
                    file: refused.file, line: refused.line,
                    underlying: "game \(refused.message.gameId) not stored: \(rejection.description)")
                guard keepGoing else {
                    try await project(
                        pending, after: projectedBefore, audience: &audience, summary: &summary, emit: emit)
                    try await flushPending(Array(summary.games), audience: &audience, summary: &summary, emit: emit)
                    throw error
                }
                summary.failures.append(error.description)
            }
            // Project in pages of about a thousand events rather than after every game.
            if pending.count >= projector.pageSize || index == games.count - 1 {
                try await project(pending, after: projectedBefore, audience: &audience, summary: &summary, emit: emit)
                pending = []
            }
            progress(index + 1, summary)
        }
        try await flushPending(Array(summary.games), audience: &audience, summary: &summary, emit: emit)
        return summary
    }

    /// The projection's checkpoint: events after it have not been projected yet.
    private func checkpoint() async throws -> Int {
        try await ingestor.connection.withSession { try Projector.checkpoint(in: $0) }
    }

    /// Brings the projection up to date (with the audience) and emits the pushes it planned. Counts
    /// the duplicates an earlier run had already projected (at or before `projectedBefore`): their
    /// pushes were planned then. Duplicates stored by an earlier run that stopped before projecting
    /// them are projected now, like the messages appended now.
    private func project(
        _ outcomes: [AppendOutcome], after projectedBefore: Int, audience: inout Audience?,
        summary: inout ReplaySummary, emit: PushSink
    ) async throws {
        for case .duplicate(let position) in outcomes where position <= projectedBefore {
            summary.projectedEarlier += 1
        }
        try await projector.catchUp(ingestor.connection, audience: &audience)
        try emitPushes(&audience, summary: &summary, emit: emit)
    }

    private func emitPushes(_ audience: inout Audience?, summary: inout ReplaySummary, emit: PushSink) throws {
        guard let pushes = audience?.take() else { return }
        summary.pushes += pushes.count
        for (gameId, push) in pushes { try emit(gameId, push) }
    }
}
