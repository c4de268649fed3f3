import Foundation
import ScoreDomain

/// The game clock as a phone draws it: the interval of SwiftUI's
/// `Text(timerInterval: start...end, pauseTime: pausedAt, countsDown:)`, computed from the state's
/// anchor (``GameClock``: its value at an instant, running or stopped, counting up or down).
///
/// - Counting down with `R` left at `T`: `end = T + R` (the clock reads 0:00 then), `start = end −`
///   the period's length (or `R` when that is longer).
/// - Counting up (soccer's match time) with `E` at `T`: `start = T − E` (the match time reads `E` at
///   `T`), `end = start +` the period's end minute + 30 minutes of stoppage time (a bound, so the
///   phone's clock never freezes in added time).
/// - Stopped: `pausedAt = T`, so the text shows `R` (or `E`) without moving.
///
/// It depends on the anchor only: a play whose clock agrees with the anchor (the fold keeps the
/// anchor within its tolerance) changes nothing here, so it pushes nothing.
struct PhoneClock: Equatable {
    var start: Date
    var end: Date
    var pausedAt: Date?
    var countsDown: Bool
    /// When the running clock reaches the end of its period: 0:00 counting down, soccer's period end
    /// minute (45', 90') counting up.
    var periodEnd: Date

    /// Stoppage time a counting-up clock keeps running for past the period's end minute.
    static let stoppageBoundMs = 30 * 60_000

    init?(_ state: ScoreState) {
        guard state.sport != .baseball, let clock = state.clock else { return nil }
        let rules = state.rules
        let kind = rules.kind(ofPeriod: state.periodNumber, sport: state.sport)
        let lengthMs = (kind == .regulation ? rules.periodMinutes : rules.overtimeMinutes) * 60_000
        let at = clock.at
        func seconds(_ ms: Int) -> TimeInterval { TimeInterval(ms) / 1000 }
        if clock.countsDown {
            end = at.addingTimeInterval(seconds(clock.ms))
            start = end.addingTimeInterval(-seconds(max(lengthMs, clock.ms)))
            periodEnd = end
        } else {
            start = at.addingTimeInterval(-seconds(clock.ms))
            let periodStartMs = rules.clockStart(ofPeriod: state.periodNumber, sport: state.sport) ?? 0
            let periodEndMs = periodStartMs + lengthMs
            end = start.addingTimeInterval(seconds(max(periodEndMs, clock.ms) + Self.stoppageBoundMs))
            periodEnd = start.addingTimeInterval(seconds(periodEndMs))
        }
        pausedAt = clock.running ? nil : at
        countsDown = clock.countsDown
    }

    /// `{"countsDown":…,"end":…,"pausedAt":…,"start":…}` (`pausedAt` only when stopped), dates as
    /// seconds since 2001-01-01: what Foundation's default `JSONDecoder` (ActivityKit's) reads as a `Date`.
    func write(to out: inout String) {
        out += #"{"countsDown":\#(countsDown),"end":"#
        Self.writeReferenceSeconds(end, to: &out)
        if let pausedAt {
            out += #","pausedAt":"#
            Self.writeReferenceSeconds(pausedAt, to: &out)
        }
        out += #","start":"#
        Self.writeReferenceSeconds(start, to: &out)
        out += "}"
    }

    /// Seconds since 2001-01-01 00:00:00 UTC to the millisecond: `806162700` or `806162700.25`.
    static func writeReferenceSeconds(_ date: Date, to out: inout String) {
        let ms = Int((date.timeIntervalSinceReferenceDate * 1000).rounded())
        let (whole, fraction) = ms.quotientAndRemainder(dividingBy: 1000)
        if fraction == 0 {
            out += String(whole)
            return
        }
        let sign = ms < 0 && whole == 0 ? "-" : ""
        var digits = String(abs(fraction))
        while digits.count < 3 { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        out += sign + String(whole) + "." + digits
    }
}

extension APSPayload {
    /// The content state of a clock sport: baseball's keys (so a widget built for baseball decodes it;
    /// `inning` carries the period label, `outs` 0, `bases` empty) plus `sport`, the `clock` interval,
    /// `shootout`, soccer's `redCards` and football's `possession`, `down`, `distance`, `yardLine`,
    /// each only when it has a value. Keys in sorted order; never `null`.
    static func writeSportContentState(_ state: ScoreState, to out: inout String) {
        out += #"{"status":{"awayScore":\#(state.awayScore),"bases":"#
        Bases.empty.jsonValue.write(to: &out)
        if let clock = PhoneClock(state) {
            out += #","clock":"#
            clock.write(to: &out)
        }
        let situation = state.situation
        if let situation, let down = situation.down, let distance = situation.distance {
            out += #","distance":\#(distance),"down":\#(down)"#
        }
        out += #","homeScore":\#(state.homeScore),"inning":"#
        JSONValue.writeString(state.periodLabel, to: &out)
        out += #","outs":0"#
        if let situation {
            out += #","possession":"#
            JSONValue.writeString(situation.possession.rawValue, to: &out)
        }
        if state.redCards.home != 0 || state.redCards.away != 0 {
            out += #","redCards":{"away":\#(state.redCards.away),"home":\#(state.redCards.home)}"#
        }
        if let shootout = state.shootout {
            out += #","shootout":{"away":\#(shootout.away),"home":\#(shootout.home)}"#
        }
        out += #","sport":"#
        JSONValue.writeString(state.sport.rawValue, to: &out)
        out += #","status":"#
        JSONValue.writeString(state.status.rawValue, to: &out)
        if let situation, situation.down != nil, situation.distance != nil, let yardLine = situation.yardLine {
            out += #","yardLine":\#(yardLine)"#
        }
        out += "}}"
    }

    /// `stale-date` of an update sent with `timestamp`: `staleAfter` seconds later; while a clock
    /// runs, not before `staleAfter` seconds after the moment it reaches its period's end (the phone
    /// runs it meanwhile, and a soccer half may pass with no event at all).
    static func staleDate(_ state: ScoreState, timestamp: Int, staleAfter: Int) -> Int {
        guard let clock = PhoneClock(state), clock.pausedAt == nil else { return timestamp + staleAfter }
        let periodEnd = Int(clock.periodEnd.timeIntervalSince1970.rounded(.down))
        return max(timestamp, periodEnd) + staleAfter
    }
}
