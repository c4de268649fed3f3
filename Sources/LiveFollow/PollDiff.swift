import Foundation
import ScoreDomain

/// What a newer document of a polled game adds to the log (pure): the converter gives the whole game
/// so far, the log holds what earlier polls stored; only the difference is appended, so a poll that
/// repeats the last one appends nothing and a restarted follower goes on where the log is.
///
/// - A message whose id is not in the log is new.
/// - A message whose id is in the log with the same content is skipped.
/// - A scoring play, card or shoot-out attempt the provider **edited** (same id, other content) is
///   retracted (`event.retracted`, reason `edited by the provider`) and stored again under a revision
///   id `<id>~<n>`; a later poll compares with the newest revision. A changed schedule, clock or
///   situation is stored as a revision without a retraction (the fold takes a newer one as it is); any
///   other changed message (a period's start, the end) cannot be taken back and is kept, with a note.
/// - A scoring play, card or attempt of this format that the document no longer has was **removed** by
///   the provider: it is retracted (reason `removed by the provider`). One that comes back after its
///   retraction is stored again as a revision.
///
/// Retractions come first, then the new messages in the converter's game order.
public enum PollDiff {
    /// The messages to append and what could not be taken.
    public struct Outcome: Sendable, Equatable {
        public var messages: [FeedMessage]
        public var notes: [String]
        public var retractions: Int { messages.count { if case .retracted = $0.event { true } else { false } } }
    }

    /// The difference between the log's stream of the game (`stored`, in order) and the converter's
    /// messages of the newest document (`converted`).
    /// - Parameter owner: the prefix of the message ids this follower's format makes (`"nhl-web-"`):
    ///   only its plays are retracted when missing; messages from other sources are left alone.
    public static func diff(stored: [FeedMessage], converted: [FeedMessage], owner: String) -> Outcome {
        var retracted = Set<String>()
        var newest: [String: (revision: Int, message: FeedMessage)] = [:]
        for message in stored {
            if case .retracted(let id, _) = message.event { retracted.insert(id) }
            let (base, revision) = split(message.id)
            if revision >= newest[base]?.revision ?? -1 { newest[base] = (revision, message) }
        }
        let at = stored.map(\.at).max() ?? converted.first?.at ?? Date(timeIntervalSince1970: 0)
        var retractions: [FeedMessage] = []
        var additions: [FeedMessage] = []
        var notes: [String] = []
        func retract(_ message: FeedMessage, _ reason: String) {
            retractions.append(
                FeedMessage(
                    id: message.id + "-retracted", gameId: message.gameId, at: at,
                    event: .retracted(id: message.id, reason: reason)))
        }
        var present = Set<String>()
        for message in converted {
            present.insert(message.id)
            guard let (revision, old) = newest[message.id] else {
                additions.append(message)
                continue
            }
            var probe = message
            probe.id = old.id
            let live = !retracted.contains(old.id)
            if live, probe.hasSameContent(as: old) { continue }
            var revised = message
            revised.id = "\(message.id)~\(revision + 1)"
            if isRetractable(old.event) {
                if live { retract(old, "edited by the provider") }
                additions.append(revised)
            } else if isRevisable(message.event) {
                additions.append(revised)
            } else {
                notes.append("\(old.id): the provider changed a \(old.event.type), which cannot be taken back; kept")
            }
        }
        for (base, entry) in newest where base.hasPrefix(owner) && !present.contains(base) {
            guard isRetractable(entry.message.event), !retracted.contains(entry.message.id) else { continue }
            retract(entry.message, "removed by the provider")
        }
        retractions.sort { $0.id < $1.id }
        return Outcome(messages: retractions + additions, notes: notes)
    }

    /// `"x~2"` → `("x", 2)`; an id without a revision is revision 0.
    static func split(_ id: String) -> (base: String, revision: Int) {
        guard let mark = id.lastIndex(of: "~"), let revision = Int(id[id.index(after: mark)...]), revision > 0 else {
            return (id, 0)
        }
        return (String(id[..<mark]), revision)
    }

    /// The events `event.retracted` takes back.
    static func isRetractable(_ event: ScoreEvent) -> Bool {
        switch event {
        case .pointsScored(let scored): scored.kind != .correction
        case .cardShown, .shootoutAttempt: true
        default: false
        }
    }

    /// The events a newer one simply replaces in the fold.
    static func isRevisable(_ event: ScoreEvent) -> Bool {
        switch event {
        case .gameScheduled, .clockSet, .situationChanged, .scoreCorrected: true
        default: false
        }
    }
}
