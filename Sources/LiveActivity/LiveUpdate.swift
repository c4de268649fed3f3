import Foundation
import ScoreDomain

/// The FCM `data` map of one Android Live Update message: every value a string (FCM's rule), keys
/// written in sorted order. docs/android-contract.md documents each key and shows the app side.
///
/// `{"away":"TEX","awayScore":"3","bases":"1-3","chip":"3-2 T4","gameId":"…","half":"top","home":"ANA",
/// "homeScore":"2","inning":"4","outs":"1","progress":"6","progressMax":"18","seq":"5","status":"inprogress",
/// "text":"Top 4th, 1 out","title":"TEX 3 – 2 ANA","type":"update","updatedAt":"1554076800"}`
public enum LiveUpdate {
    /// `type`: `update` while the game goes on, `end` once (the app then shows the final and stops).
    public static func type(_ event: LiveActivityEvent) -> String { event == .end ? "end" : "update" }

    /// The data map's JSON object text. A clock sport's carries baseball's keys (`inning` the period
    /// number, `half` `top`, `outs` 0, `bases` empty) and its own (``sportMembers(_:)``).
    public static func json(_ state: ScoreState, seq: Int, event: LiveActivityEvent) -> String {
        let (progress, progressMax) = Self.progress(state)
        let baseball = state.sport == .baseball
        var members: [(String, String)] = [
            ("away", state.away.code), ("awayScore", String(state.awayScore)),
            ("bases", baseball ? bases(state.bases) : ""), ("chip", chip(state)), ("gameId", state.gameId),
            ("half", baseball ? state.half.rawValue : Half.top.rawValue), ("home", state.home.code),
            ("homeScore", String(state.homeScore)),
            ("inning", String(baseball ? state.inningNumber : state.periodNumber)),
            ("outs", String(baseball ? state.outs : 0)), ("progress", String(progress)),
            ("progressMax", String(progressMax)), ("seq", String(seq)), ("status", state.status.rawValue),
            ("text", text(state)), ("title", title(state)), ("type", type(event)),
            ("updatedAt", String(Int(state.updatedAt.timeIntervalSince1970.rounded(.down)))),
        ]
        if !baseball {
            members += sportMembers(state)
            members.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        }
        var out = "{"
        for (key, value) in members {
            if out.utf8.count > 1 { out += "," }
            JSONValue.writeString(key, to: &out)
            out += ":"
            JSONValue.writeString(value, to: &out)
        }
        return out + "}"
    }

    /// A 64-bit digest (FNV-1a) of what the Live Update shows (every key but `seq`, `type` and
    /// `updatedAt`): equal digests, nothing new on the phone.
    public static func contentDigest(_ state: ScoreState) -> UInt64 {
        let (progress, progressMax) = Self.progress(state)
        var text =
            "\(state.away.code)|\(state.awayScore)|\(bases(state.bases))|\(chip(state))|\(state.half.rawValue)|"
            + "\(state.home.code)|\(state.homeScore)|\(state.inningNumber)|\(state.outs)|\(progress)/\(progressMax)|"
            + "\(state.status.rawValue)|\(Self.text(state))|\(title(state))"
        if state.sport != .baseball {
            text += "|\(state.periodNumber)"
            for (key, value) in sportMembers(state) { text += "|\(key)=\(value)" }
        }
        return fnv1a64(text)
    }

    /// Occupied bases as `1-3`, `1-2-3`, or empty.
    static func bases(_ bases: Bases) -> String {
        [(bases.first, "1"), (bases.second, "2"), (bases.third, "3")].filter(\.0).map(\.1).joined(separator: "-")
    }

    /// The status-bar chip (`setShortCriticalText`, about 7 characters): away score, dash, home score
    /// and where the game is: `3-2 T4`, `4-5 B11`, `3-2 F`; `PRE`, `PPD`, `CAN` without a score.
    /// A clock sport's is ``sportChip(_:)``.
    public static func chip(_ state: ScoreState) -> String {
        if state.sport != .baseball { return sportChip(state) }
        let score = "\(state.awayScore)-\(state.homeScore)"
        switch state.status {
        case .scheduled: return state.inningNumber == 0 ? "PRE" : "\(score) DLY"
        case .inprogress:
            guard state.inningNumber > 0 else { return score }
            return "\(score) \(state.half == .top ? "T" : "B")\(state.inningNumber)"
        case .delayed: return "\(score) DLY"
        case .suspended: return "\(score) SUS"
        case .closed: return "\(score) F"
        case .postponed: return "PPD"
        case .cancelled: return "CAN"
        }
    }

    /// The notification's title: `TEX 3 – 2 ANA`.
    public static func title(_ state: ScoreState) -> String {
        "\(state.away.code) \(state.awayScore) \u{2013} \(state.homeScore) \(state.home.code)"
    }

    /// The notification's text: the inning and outs, or the status in words.
    /// A clock sport's is ``sportText(_:)``.
    public static func text(_ state: ScoreState) -> String {
        if state.sport != .baseball { return sportText(state) }
        switch state.status {
        case .scheduled: return "Pre-game"
        case .inprogress:
            guard state.inningNumber > 0 else { return "Underway" }
            return "\(state.inning), \(state.outs) \(state.outs == 1 ? "out" : "outs")"
        case .delayed: return "Delayed, \(state.inning)"
        case .suspended: return "Suspended, \(state.inning)"
        case .closed: return state.inningNumber > 9 ? "Final/\(state.inningNumber)" : "Final"
        case .postponed: return "Postponed"
        case .cancelled: return "Cancelled"
        }
    }

    /// `ProgressStyle`'s progress: half-innings completed of the regulation 18 (more in extra innings);
    /// a finished game is complete.
    /// A clock sport's counts periods: ``sportProgress(_:)``.
    public static func progress(_ state: ScoreState) -> (value: Int, max: Int) {
        if state.sport != .baseball { return sportProgress(state) }
        let done = state.inningNumber == 0 ? 0 : (state.inningNumber - 1) * 2 + (state.half == .bottom ? 1 : 0)
        let max = Swift.max(18, state.inningNumber * 2)
        return state.status == .closed ? (max, max) : (done, max)
    }
}
