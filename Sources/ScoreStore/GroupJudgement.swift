import ScoreDomain

/// The fold's verdict on the calls of one group, in order, each against what the calls before it
/// left: pure.
struct GroupJudgement {
    /// What one call keeps: how many of its messages (a prefix) are appended, and its refusal.
    struct Verdict {
        var accepted: Int
        var rejection: IngestRejection?
    }

    /// Each game's state after the calls judged so far.
    private(set) var states: [String: ScoreState?]
    /// Messages stored before the group, by id.
    let stored: [String: EventLog.StoredMessage]
    /// The messages accepted so far in the group, by id.
    private var seen: [String: FeedMessage] = [:]

    init(states: [String: ScoreState?], stored: [String: EventLog.StoredMessage]) {
        self.states = states
        self.stored = stored
    }

    /// Judges one call's messages: duplicates (an id already stored or accepted, with the same
    /// content) are never folded; an id reused with other content is refused like a message the
    /// fold refuses. A refusal keeps the messages before it (`partial`) or none of the call; a call
    /// that holds one id twice with different content is refused whole.
    mutating func judge(_ messages: [FeedMessage], partial: Bool) -> Verdict {
        if let (index, _, conflict) = IdConflict.first(in: messages) {
            let refusal = IngestRefusal.idConflict(conflict)
            return Verdict(
                accepted: 0,
                rejection: IngestRejection(outcomes: [], index: index, messageId: conflict.messageId, error: refusal))
        }
        // Applied in place, and undone for a refusal that keeps nothing: a copy of the group's
        // dictionaries per call cost time in the square of the group's calls.
        var before: [String: ScoreState??] = [:]
        var added: [String] = []
        var kept = 0
        var rejection: IngestRejection?
        scan: for (index, message) in messages.enumerated() {
            let earlier =
                stored[message.id].map { ($0.message, Optional($0.position)) } ?? seen[message.id].map { ($0, nil) }
            if let (earlier, position) = earlier {
                if let conflict = IdConflict.between(message, earlier, position: position) {
                    rejection = IngestRejection(
                        outcomes: [], index: index, messageId: message.id, error: .idConflict(conflict))
                    break scan
                }
                kept += 1
                continue
            }
            switch Result(catching: { () throws(FoldError) in
                try ScoreFold.apply(message, to: states[message.gameId] ?? nil)
            }) {
            case .success(let next):
                if before.index(forKey: message.gameId) == nil {
                    before.updateValue(states[message.gameId], forKey: message.gameId)
                }
                states[message.gameId] = next
                seen[message.id] = message
                added.append(message.id)
                kept += 1
            case .failure(let error):
                rejection = IngestRejection(outcomes: [], index: index, messageId: message.id, error: .fold(error))
                break scan
            }
        }
        if rejection != nil, !partial {
            for (game, state) in before {
                if let state { states[game] = state } else { states.removeValue(forKey: game) }
            }
            for id in added { seen.removeValue(forKey: id) }
            return Verdict(accepted: 0, rejection: rejection)
        }
        return Verdict(accepted: kept, rejection: rejection)
    }
}
