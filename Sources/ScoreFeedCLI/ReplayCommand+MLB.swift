import Foundation
import LiveActivity
import LiveFollow
import MLBFeed
import MLBFollow
import ScoreStore

extension ReplayCommand {
    /// `--format mlb-feed`: documents → differ (from the log's view of each game) → messages → replay.
    func replayMLB(_ replayer: Replayer, emit: PushSink) async throws -> ReplaySummary {
        let files = try FeedSources.expand(paths) { $0.hasSuffix(".json") }
        // Read every document first: a bad one stops the replay before anything is stored.
        var snapshots: [(file: String, snapshot: MLBSnapshot)] = []
        for file in files {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CLIError("\(file): cannot read the file: \(error.localizedDescription)")
            }
            do {
                snapshots.append((file, try MLBSnapshot(data: data)))
            } catch {
                throw CLIError("\(file): \(error)")
            }
        }
        let store = GameStore(replayer: replayer)
        var views: [Int: MLBGameView] = [:]
        var messages: [SourcedMessage] = []
        var applied = 0
        var stale = 0
        for (file, snapshot) in snapshots {
            if views[snapshot.gamePk] == nil { views[snapshot.gamePk] = try await store.view(gamePk: snapshot.gamePk) }
            let diff = MLBDiffer.diff(views[snapshot.gamePk]!, snapshot)
            switch diff.outcome {
            case .applied: applied += 1
            case .stale, .otherGame: stale += 1
            }
            for note in diff.notes { Output.error("\(file): \(note)") }
            views[snapshot.gamePk] = diff.view
            messages += diff.messages.map { SourcedMessage(message: $0, file: file, line: 1) }
        }
        Output.error(
            "\(snapshots.count) document(s) of \(views.count) game(s): \(applied) applied, \(stale) older than the "
                + "newest applied (ignored)")
        return try await replayer.replay(messages: messages, emit: emit)
    }
}
