import Foundation

/// Deterministic times for a replayed game.
///
/// - First pitch (`startsAt`): `info,date` (or the date in the game id) and `info,starttime`
///   (`7:07PM`, `12:35PM`, `11:06AM`) read as local time at a FIXED offset of −04:00 (US Eastern
///   daylight time, whatever the park). A missing, unreadable or `0:00PM` start time means 19:05.
/// - Each play that is not `NP` takes 25 s per new pitch of its pitch string (letters only; pitches
///   already listed by the same batter's earlier record are not counted again), at least 20 s.
///   `NP` takes 10 s. A new half-inning adds a 150 s break first.
enum GameClock {
    static let offsetSeconds = -4 * 3600
    static let secondsPerPitch = 25
    static let minimumPlaySeconds = 20
    static let noPlaySeconds = 10
    static let halfInningBreakSeconds = 150
    static let defaultStart = (hour: 19, minute: 5)

    /// `(year, month, day)` from `info,date` (`yyyy/mm/dd`), else from the id (`TTTyyyymmddn`).
    static func date(of info: [String: String], id: String) -> (year: Int, month: Int, day: Int)? {
        if let text = info["date"] {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
                valid(year, month, day)
            {
                return (year, month, day)
            }
        }
        let utf8 = Array(id.utf8)
        guard utf8.count >= 11, utf8[3..<11].allSatisfy(Ascii.isDigit) else { return nil }
        let digits = utf8[3..<11].map { Int($0 - UInt8(ascii: "0")) }
        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
        let month = digits[4] * 10 + digits[5]
        let day = digits[6] * 10 + digits[7]
        return valid(year, month, day) ? (year, month, day) : nil
    }

    private static func valid(_ year: Int, _ month: Int, _ day: Int) -> Bool {
        (1800...9999).contains(year) && (1...12).contains(month) && (1...31).contains(day)
    }

    /// `(hour, minute)` in 24-hour form of `7:07PM`; the default for `0:00PM`, missing or bad text.
    static func startTime(_ text: String?) -> (hour: Int, minute: Int) {
        guard var text = text?.uppercased(), !text.isEmpty else { return defaultStart }
        var pm: Bool?
        if text.hasSuffix("PM") || text.hasSuffix("AM") {
            pm = text.hasSuffix("PM")
            text.removeLast(2)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...59).contains(minute)
        else { return defaultStart }
        switch pm {
        case nil:
            return (0...23).contains(hour) ? (hour, minute) : defaultStart
        case let pm?:
            guard (1...12).contains(hour) else { return defaultStart }
            return (hour % 12 + (pm ? 12 : 0), minute)
        }
    }

    /// Seconds since 1970 of the first pitch.
    static func startSeconds(info: [String: String], id: String) -> Int {
        let (year, month, day) = date(of: info, id: id) ?? (1970, 1, 1)
        let (hour, minute) = startTime(info["starttime"])
        return daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 - offsetSeconds
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Pitches in a pitch string: its capital letters (`.`, `>`, `*`, `+` and pickoff digits are
    /// markers, not pitches).
    static func pitchCount(_ pitches: String) -> Int {
        var count = 0
        for byte in pitches.utf8 where Ascii.isLetter(byte) { count += 1 }
        return count
    }
}
