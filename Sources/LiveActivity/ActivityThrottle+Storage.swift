import Foundation
import ScoreDomain

/// Why a stored throttle state could not be read.
public struct ThrottleStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}

extension ActivityThrottle {
    /// The compact text form the throttle is stored in between events.
    ///
    /// `t1`, then space-separated fields in a fixed order: integers in decimal, dates as Foundation's
    /// seconds since 2001-01-01 printed as Swift prints a `Double` (so they read back exactly), `-` for
    /// nil, `0`/`1` for booleans, strings as `<UTF-8 length>:<bytes>`. Several times smaller than the
    /// JSON form and far cheaper to write and read, which matters when one event touches thousands
    /// of activities.
    public var storageText: String {
        var out = ThrottleWriter()
        out.token("t1")
        out.date(registeredAt)
        out.bool(frequentUpdates)
        out.bool(ended)
        out.optional(lastSentAt) { $0.date($1) }
        out.optional(lastTimestamp) { $0.int($1) }
        out.optional(shown) { out, content in
            out.int(content.homeScore)
            out.int(content.awayScore)
            out.int(content.inningNumber)
            out.int(content.outs)
            out.token(content.half.rawValue)
            out.bases(content.bases)
            out.token(content.status.rawValue)
        }
        out.optional(latest) { $0.state($1) }
        out.optional(pending) { out, pending in
            out.state(pending.state)
            out.optional(pending.alertTitle) { $0.string($1) }
            out.date(pending.due)
        }
        out.int(highPriority.count)
        for time in highPriority { out.date(time) }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Reads the form written by ``storageText``.
    ///
    /// - Throws: ``ThrottleStorageError`` when the text is not such a form.
    public init(storageText: String) throws(ThrottleStorageError) {
        var reader = ThrottleReader(Array(storageText.utf8))
        guard try reader.token() == "t1" else { throw ThrottleStorageError(description: "unknown throttle format") }
        let registeredAt = try reader.date()
        let frequentUpdates = try reader.bool()
        let ended = try reader.bool()
        let lastSentAt = try reader.optional { r throws(ThrottleStorageError) in try r.date() }
        let lastTimestamp = try reader.optional { r throws(ThrottleStorageError) in try r.int() }
        let shown = try reader.optional { r throws(ThrottleStorageError) in
            Content(
                homeScore: try r.int(), awayScore: try r.int(), inningNumber: try r.int(), outs: try r.int(),
                half: try r.enumeration(Half.self), bases: try r.bases(), status: try r.enumeration(GameStatus.self))
        }
        let latest = try reader.optional { r throws(ThrottleStorageError) in try r.state() }
        let pending = try reader.optional { r throws(ThrottleStorageError) in
            Pending(
                state: try r.state(), alertTitle: try r.optional { r throws(ThrottleStorageError) in try r.string() },
                due: try r.date())
        }
        let count = try reader.int()
        var highPriority: [Date] = []
        for _ in 0..<max(0, count) { highPriority.append(try reader.date()) }
        guard reader.atEnd else { throw ThrottleStorageError(description: "trailing data in a throttle state") }
        self.init(
            registeredAt: registeredAt, frequentUpdates: frequentUpdates, lastSentAt: lastSentAt,
            lastTimestamp: lastTimestamp, shown: shown, latest: latest, pending: pending, highPriority: highPriority,
            ended: ended)
    }
}

private struct ThrottleWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(512) }

    mutating func token(_ text: String) {
        if !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
        bytes += text.utf8
    }

    mutating func int(_ value: Int) { token(String(value)) }
    mutating func bool(_ value: Bool) { token(value ? "1" : "0") }
    mutating func date(_ value: Date) { token("\(value.timeIntervalSinceReferenceDate)") }
    mutating func bases(_ value: Bases) {
        int((value.first ? 1 : 0) | (value.second ? 2 : 0) | (value.third ? 4 : 0))
    }

    mutating func string(_ value: String) {
        token("\(value.utf8.count):")
        bytes += value.utf8
    }

    mutating func optional<T>(_ value: T?, _ write: (inout ThrottleWriter, T) -> Void) {
        guard let value else { return token("-") }
        write(&self, value)
    }

    mutating func state(_ state: ScoreState) {
        string(state.gameId)
        for team in [state.home, state.away] {
            string(team.code)
            string(team.name)
            string(team.logo)
        }
        date(state.startsAt)
        int(state.homeScore)
        int(state.awayScore)
        int(state.inningNumber)
        token(state.half.rawValue)
        int(state.outs)
        bases(state.bases)
        token(state.status.rawValue)
        int(state.version)
        date(state.updatedAt)
    }
}

private struct ThrottleReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    private func fail(_ what: String) -> ThrottleStorageError {
        ThrottleStorageError(description: "bad throttle state: \(what) expected at byte \(index)")
    }

    /// The next space-separated token.
    mutating func token() throws(ThrottleStorageError) -> Substring {
        if index > 0 {
            guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { throw fail("a space") }
            index += 1
        }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: " ") { index += 1 }
        guard index > start else { throw fail("a value") }
        return Substring(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `-` (consumed, returns nil) or the value `read` reads.
    mutating func optional<T>(_ read: (inout ThrottleReader) throws(ThrottleStorageError) -> T)
        throws(ThrottleStorageError) -> T?
    {
        let dash = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-")
        let ends = index + 2 == bytes.count || (index + 2 < bytes.count && bytes[index + 2] == UInt8(ascii: " "))
        if dash, ends {
            index += 2
            return nil
        }
        return try read(&self)
    }

    mutating func int() throws(ThrottleStorageError) -> Int {
        guard let value = Int(try token()) else { throw fail("an integer") }
        return value
    }

    mutating func bool() throws(ThrottleStorageError) -> Bool {
        switch try token() {
        case "0": return false
        case "1": return true
        default: throw fail("0 or 1")
        }
    }

    mutating func date() throws(ThrottleStorageError) -> Date {
        guard let seconds = Double(try token()) else { throw fail("a date") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    mutating func enumeration<T: RawRepresentable<String>>(_ type: T.Type) throws(ThrottleStorageError) -> T {
        guard let value = T(rawValue: String(try token())) else { throw fail("a \(T.self)") }
        return value
    }

    mutating func bases() throws(ThrottleStorageError) -> Bases {
        let mask = try int()
        guard (0...7).contains(mask) else { throw fail("bases 0…7") }
        return Bases(first: mask & 1 != 0, second: mask & 2 != 0, third: mask & 4 != 0)
    }

    mutating func string() throws(ThrottleStorageError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { throw fail("a space") }
        index += 1
        var length = 0
        var digits = 0
        while index < bytes.count, digits < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            length = length * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        guard digits > 0, index < bytes.count, bytes[index] == UInt8(ascii: ":"), length < bytes.count - index else {
            throw fail("a string")
        }
        index += 1
        let text = bytes[index..<(index + length)]
        index += length
        return String(decoding: text, as: UTF8.self)
    }

    mutating func team() throws(ThrottleStorageError) -> Team {
        Team(code: try string(), name: try string(), logo: try string())
    }

    mutating func state() throws(ThrottleStorageError) -> ScoreState {
        ScoreState(
            gameId: try string(), home: try team(), away: try team(), startsAt: try date(), homeScore: try int(),
            awayScore: try int(), inningNumber: try int(), half: try enumeration(Half.self), outs: try int(),
            bases: try bases(), status: try enumeration(GameStatus.self), version: try int(), updatedAt: try date())
    }
}
