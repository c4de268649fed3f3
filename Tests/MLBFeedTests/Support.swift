import Foundation
import MLBFeed
import ScoreDomain
import ScoreFeedTesting

/// The snapshots of a fixture game folder (`fixtures/mlb/<name>`), in name order.
func snapshots(_ game: String) throws -> [MLBSnapshot] {
    let folder = fixture("mlb/\(game)")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
    return try names.map { try MLBSnapshot(data: Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) }
}

/// One snapshot of a fixture game by its file number (1-based, as in `03-….json`).
func snapshot(_ game: String, _ number: Int) throws -> MLBSnapshot {
    try snapshots(game)[number - 1]
}

/// Runs the differ over documents in order from `view`; returns every message and the last view.
func replay(_ documents: [MLBSnapshot], from view: MLBGameView) -> (messages: [FeedMessage], view: MLBGameView) {
    var view = view
    var messages: [FeedMessage] = []
    for document in documents {
        let diff = MLBDiffer.diff(view, document)
        messages += diff.messages
        view = diff.view
    }
    return (messages, view)
}

/// The id suffix after `mlb-<gamePk>-`, e.g. `0003-outs-2`.
func shortIds(_ messages: [FeedMessage]) -> [String] {
    messages.map { message in
        let parts = message.id.split(separator: "-", maxSplits: 2)
        return String(parts[2])
    }
}
