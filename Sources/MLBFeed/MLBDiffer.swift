import Foundation
import ScoreDomain

/// Turns the difference between what was sent for a game and a newer GUMBO document into canonical
/// messages. Pure: no I/O, no clock.
///
/// Message ids are `mlb-<gamePk>-<vvvv>-<what>`: `vvvv` is the version the message gets in the game's
/// stream (the view's version + 1, + 2, …, zero-padded to 4 digits) and `<what>` names the change
/// (`scheduled`, `started`, `top-5`, `away-runs-3`, `outs-2`, `delayed`, `corrected-2-1`, `final` …).
/// The same view and document always give the same messages, so a document seen twice, or a replay
/// of the same documents, adds nothing to the log. `at` is the document's timecode.
///
/// Order within one document: schedule (or re-schedule before the start), a pre-game delay, the
/// start, the resumption of a delayed or suspended game, score corrections, then half-inning by
/// half-inning the runs (`run.scored`, at most 4 per message) and the inning changes, the outs of
/// the current half-inning, the bases, then a delay or suspension, then the end. See `docs/mlb-feed.md`.
public enum MLBDiffer {
    /// The messages `snapshot` adds to `view`, and the view after them.
    ///
    /// A document older than the view's timecode, or of another game, is ignored (no messages, the
    /// view unchanged). A document with the same timecode is compared (it adds nothing when equal).
    public static func diff(_ view: MLBGameView, _ snapshot: MLBSnapshot) -> MLBDiff {
        guard snapshot.gamePk == view.gamePk else {
            return MLBDiff(outcome: .otherGame(gamePk: snapshot.gamePk), messages: [], view: view, notes: [])
        }
        if let last = view.timecode, snapshot.timecode < last {
            return MLBDiff(outcome: .stale(last: last), messages: [], view: view, notes: [])
        }
        var emitter = Emitter(gamePk: view.gamePk, gameId: view.gameId, at: snapshot.timecode.date, state: view.state)
        emitter.apply(snapshot, previousPlays: view.scoringPlays)
        var next = view
        next.state = emitter.state
        next.timecode = snapshot.timecode
        next.scoringPlays = snapshot.scoringPlays
        return MLBDiff(outcome: .applied, messages: emitter.messages, view: next, notes: emitter.notes)
    }

    /// Whether a document shows a game that has started (first pitch thrown).
    static func hasStarted(_ snapshot: MLBSnapshot, phase: MLBPhase) -> Bool {
        switch phase {
        case .scheduled: false
        case .inProgress, .suspended, .final: true
        case .delayed, .postponed, .cancelled: snapshot.currentInning != nil
        }
    }

    /// The half-inning a document is at: by `inningState` (`Middle` is the end of the top half,
    /// `End` the end of the bottom half), else by `isTopInning`.
    static func half(_ snapshot: MLBSnapshot) -> Half {
        switch snapshot.inningState?.lowercased() {
        case "top", "middle": .top
        case "bottom", "end": .bottom
        default: (snapshot.isTopInning ?? true) ? .top : .bottom
        }
    }

    /// Scoring plays of `old` that `new` rewrote: gone, another score, or overturned since.
    static func rewrittenPlays(_ old: [MLBSnapshot.ScoringPlay]?, _ new: [MLBSnapshot.ScoringPlay]) -> [Int] {
        guard let old else { return [] }
        var current: [Int: MLBSnapshot.ScoringPlay] = [:]
        for play in new where current[play.atBatIndex] == nil { current[play.atBatIndex] = play }
        return old.compactMap { play in
            guard let now = current[play.atBatIndex] else { return play.atBatIndex }
            let changed =
                now.awayScore != play.awayScore || now.homeScore != play.homeScore
                || (now.isOverturned && !play.isOverturned)
            return changed ? play.atBatIndex : nil
        }
    }
}

/// Builds the messages of one document, folding each one so only accepted messages are sent.
private struct Emitter {
    let gamePk: Int
    let gameId: String
    let at: Date
    var state: ScoreState?
    var messages: [FeedMessage] = []
    var notes: [String] = []

    init(gamePk: Int, gameId: String, at: Date, state: ScoreState?) {
        self.gamePk = gamePk
        self.gameId = gameId
        self.at = at
        self.state = state
    }

    private var started: Bool { (state?.inningNumber ?? 0) >= 1 }
    private var status: GameStatus? { state?.status }
    private var halfIndex: Int { state.map { $0.inningNumber * 2 + ($0.half == .bottom ? 1 : 0) } ?? 0 }

    mutating func emit(_ event: ScoreEvent, _ what: String) {
        let version = (state?.version ?? 0) + 1
        let number = String(version)
        let padded = number.count >= 4 ? number : String(repeating: "0", count: 4 - number.count) + number
        let message = FeedMessage(id: "mlb-\(gamePk)-\(padded)-\(what)", gameId: gameId, at: at, event: event)
        do {
            state = try ScoreFold.apply(message, to: state)
            messages.append(message)
        } catch {
            notes.append("\(event.type) (\(what)) not sent: \(error)")
        }
    }

    mutating func apply(_ document: MLBSnapshot, previousPlays: [MLBSnapshot.ScoringPlay]?) {
        var snapshot = document
        if !snapshot.hasTotals, let current = state, current.homeScore + current.awayScore > 0 {
            // A document without the totals (a partial update) says nothing about the score: keep it.
            snapshot.awayRuns = current.awayScore
            snapshot.homeRuns = current.homeScore
            notes.append("the document has no liveData.linescore.teams totals: the score is kept")
        }
        let phase = MLBPhase(snapshot.status)
        let targetStarted = MLBDiffer.hasStarted(snapshot, phase: phase)

        // The game, or its new schedule while it has not started.
        if let current = state {
            if !started, current.status == .scheduled,
                current.home != snapshot.home || current.away != snapshot.away || current.startsAt != snapshot.startsAt
            {
                emit(
                    .gameScheduled(home: snapshot.home, away: snapshot.away, startsAt: snapshot.startsAt), "rescheduled"
                )
            }
        } else {
            emit(.gameScheduled(home: snapshot.home, away: snapshot.away, startsAt: snapshot.startsAt), "scheduled")
        }

        let rewritten = MLBDiffer.rewrittenPlays(previousPlays, snapshot.scoringPlays)
        if let current = state, current.status.isEnded {
            // After the end only the score can change.
            if current.awayScore != snapshot.awayRuns || current.homeScore != snapshot.homeRuns || !rewritten.isEmpty {
                correct(home: snapshot.homeRuns, away: snapshot.awayRuns, plays: rewritten)
            }
            let ended: MLBPhase =
                current.status == .closed ? .final : current.status == .postponed ? .postponed : .cancelled
            if phase != ended {
                notes.append(
                    "the game ended as \(current.status.rawValue) but the feed now says \"\(snapshot.status.detailedState)\""
                )
            }
            return
        }

        if !targetStarted, !started, status == .scheduled, phase == .delayed || phase == .suspended {
            emit(.statusChanged(.delayed), "delayed")
        }
        if targetStarted, !started {
            emit(.gameStarted, "started")
        }
        if started, status == .delayed || status == .suspended, phase == .inProgress {
            emit(.statusChanged(.inprogress), "resumed")
        }
        if let current = state,
            snapshot.awayRuns < current.awayScore || snapshot.homeRuns < current.homeScore || !rewritten.isEmpty
        {
            correct(
                home: min(current.homeScore, snapshot.homeRuns), away: min(current.awayScore, snapshot.awayRuns),
                plays: rewritten)
        }
        if targetStarted, started {
            advance(to: snapshot)
        }
        // Runs that could not be sent as run.scored (the game was not in progress) align the score.
        if let current = state, current.awayScore != snapshot.awayRuns || current.homeScore != snapshot.homeRuns {
            correct(home: snapshot.homeRuns, away: snapshot.awayRuns, plays: [])
        }

        switch phase {
        case .delayed where started && status == .inprogress:
            emit(.statusChanged(.delayed), "delayed")
        case .suspended where started && (status == .inprogress || status == .delayed):
            emit(.statusChanged(.suspended), "suspended")
        case .final where started:
            emit(.gameEnded(.closed), "final")
        case .postponed:
            emit(.gameEnded(.postponed), "postponed")
        case .cancelled:
            emit(.gameEnded(.cancelled), "cancelled")
        default:
            break
        }
    }

    private mutating func correct(home: Int, away: Int, plays: [Int]) {
        if !plays.isEmpty {
            notes.append("scoring play(s) rewritten: at-bat \(plays.map(String.init).joined(separator: ", "))")
        }
        emit(.scoreCorrected(homeScore: home, awayScore: away), "corrected-\(away)-\(home)")
    }

    /// Runs and inning changes up to the document's half-inning, then its outs and bases.
    private mutating func advance(to snapshot: MLBSnapshot) {
        guard let current = state else { return }
        let inning = snapshot.currentInning ?? 1
        let half = MLBDiffer.half(snapshot)
        let from = halfIndex
        let to = inning * 2 + (half == .bottom ? 1 : 0)
        var owed = (
            away: max(0, snapshot.awayRuns - current.awayScore), home: max(0, snapshot.homeRuns - current.homeScore)
        )
        if to < from {
            notes.append(
                "the feed's half-inning \(half.displayName) \(inning) is before \(current.inning): the inning is kept")
        }
        // Runs of the later half-innings are the linescore's; the rest belongs to the current one.
        var later: [(index: Int, side: Side, runs: Int)] = []
        if to > from {
            for index in (from + 1)...to {
                let number = index / 2
                let side: Side = index % 2 == 0 ? .away : .home
                let line = snapshot.innings.first { $0.number == number }
                let runs = (side == .away ? line?.awayRuns : line?.homeRuns) ?? 0
                later.append((index, side, runs))
            }
        }
        let laterAway = later.filter { $0.side == .away }.reduce(0) { $0 + $1.runs }
        let laterHome = later.filter { $0.side == .home }.reduce(0) { $0 + $1.runs }
        let nowAway = max(0, owed.away - laterAway)
        let nowHome = max(0, owed.home - laterHome)
        let battingFirst: [Side] = current.half == .top ? [.away, .home] : [.home, .away]
        for side in battingFirst { score(side, side == .away ? nowAway : nowHome) }
        owed.away -= nowAway
        owed.home -= nowHome

        if to > from {
            if let state, state.status == .inprogress, state.outs < 3 {
                emit(.outRecorded(outs: 3 - state.outs), "outs-3")
            }
            for entry in later {
                let runs = min(entry.runs, entry.side == .away ? owed.away : owed.home)
                guard runs > 0 || entry.index == to else { continue }
                let number = entry.index / 2
                let entryHalf: Half = entry.index % 2 == 0 ? .top : .bottom
                emit(.inningChanged(inning: number, half: entryHalf), "\(entryHalf.rawValue)-\(number)")
                score(entry.side, runs)
                if entry.side == .away { owed.away -= runs } else { owed.home -= runs }
            }
            score(.away, owed.away)
            score(.home, owed.home)
        }

        guard let state, state.status == .inprogress, halfIndex == to else { return }
        if snapshot.outs > state.outs {
            emit(.outRecorded(outs: snapshot.outs - state.outs), "outs-\(snapshot.outs)")
        } else if snapshot.outs < state.outs {
            notes.append("outs went from \(state.outs) to \(snapshot.outs) in \(state.inning): kept")
        }
        if MLBPhase(snapshot.status) == .inProgress, let bases = snapshot.bases, let now = self.state, now.outs < 3,
            bases != now.bases
        {
            let named = [bases.first ? "1" : "", bases.second ? "2" : "", bases.third ? "3" : ""].joined()
            emit(.basesChanged(bases), "bases-\(named.isEmpty ? "empty" : named)")
        }
    }

    /// `run.scored` for `runs` of `side`, in messages of at most 4; nothing when the game is not in
    /// progress (the score is then aligned by a correction).
    private mutating func score(_ side: Side, _ runs: Int) {
        var left = runs
        while left > 0, let state, state.status == .inprogress {
            let chunk = min(4, left)
            let total = (side == .away ? state.awayScore : state.homeScore) + chunk
            emit(.runScored(team: side, runs: chunk), "\(side.rawValue)-runs-\(total)")
            left -= chunk
        }
    }
}
