import Foundation
import ScoreDomain

/// Why a stored throttle state could not be read.
public struct ThrottleStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}

extension ActivityThrottle {
    /// The compact text form the throttle is stored in between events.
    ///
    /// `t2`, then space-separated fields in a fixed order: integers in decimal, dates as Foundation's
    /// seconds since 2001-01-01 printed as Swift prints a `Double` (so they read back exactly), `-` for
    /// nil, `0`/`1` for booleans, strings as `<UTF-8 length>:<bytes>`, game states as their canonical
    /// JSON (so a new field of ``ScoreDomain/ScoreState`` needs nothing here), what the phone shows as
    /// a 64-bit digest of its content state. Several times smaller than the JSON form and far cheaper
    /// to write and read, which matters when one event touches thousands of activities. The `t1`
    /// form of earlier builds is still read.
    public var storageText: String { storageText(writingStates: { $0.canonicalJSON() }) }

    /// ``storageText`` with the states' JSON from `json` (a caller storing many throttles of one
    /// game memoizes it: their states are mostly the same).
    public func storageText(writingStates json: (ScoreState) -> String) -> String {
        var out = ThrottleWriter()
        out.token("t2")
        out.date(registeredAt)
        out.bool(frequentUpdates)
        out.bool(ended)
        out.optional(lastSentAt) { $0.date($1) }
        out.optional(lastTimestamp) { $0.int($1) }
        out.optional(shown) { $0.int(Int(bitPattern: UInt($1))) }
        out.optional(latest) { $0.string(json($1)) }
        out.optional(pending) { out, pending in
            out.string(json(pending.state))
            out.optional(pending.alertTitle) { $0.string($1) }
            out.date(pending.due)
        }
        out.int(highPriority.count)
        for time in highPriority { out.date(time) }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Reads the form written by ``storageText`` (or the `t1` form of earlier builds).
    ///
    /// - Throws: ``ThrottleStorageError`` when the text is not such a form.
    public init(storageText: String) throws(ThrottleStorageError) {
        try self.init(storageText: storageText, readingStates: Self.readState)
    }

    /// A game state as ``storageText`` stores it: its canonical JSON.
    public static func readState(_ json: String) throws(ThrottleStorageError) -> ScoreState {
        do {
            return try ScoreState(json: try JSONValue.parse(Data(json.utf8)))
        } catch {
            throw ThrottleStorageError(description: "bad throttle state: a game state (\(error))")
        }
    }

    /// ``init(storageText:)`` with the states read by `read` from their JSON (a caller reading many
    /// throttles of one game memoizes it).
    public init(
        storageText: String, readingStates read: (String) throws(ThrottleStorageError) -> ScoreState
    ) throws(ThrottleStorageError) {
        var reader = ThrottleReader(Array(storageText.utf8))
        let version = try reader.token()
        guard version == "t2" || version == "t1" else {
            throw ThrottleStorageError(description: "unknown throttle format")
        }
        let legacy = version == "t1"
        func state(_ r: inout ThrottleReader) throws(ThrottleStorageError) -> ScoreState {
            legacy ? try r.legacyState() : try read(try r.string())
        }
        let registeredAt = try reader.date()
        let frequentUpdates = try reader.bool()
        let ended = try reader.bool()
        let lastSentAt = try reader.optional { r throws(ThrottleStorageError) in try r.date() }
        let lastTimestamp = try reader.optional { r throws(ThrottleStorageError) in try r.int() }
        let shown = try reader.optional { r throws(ThrottleStorageError) in
            legacy ? try r.legacyShown() : UInt64(UInt(bitPattern: try r.int()))
        }
        let latest = try reader.optional { r throws(ThrottleStorageError) in try state(&r) }
        let pending = try reader.optional { r throws(ThrottleStorageError) in
            Pending(
                state: try state(&r), alertTitle: try r.optional { r throws(ThrottleStorageError) in try r.string() },
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

    // MARK: - The `t1` form of earlier builds: states field by field, what the phone shows as fields

    mutating func legacyState() throws(ThrottleStorageError) -> ScoreState {
        let team = { (r: inout ThrottleReader) throws(ThrottleStorageError) -> Team in
            Team(code: try r.string(), name: try r.string(), logo: try r.string())
        }
        return ScoreState(
            gameId: try string(), home: try team(&self), away: try team(&self), startsAt: try date(),
            homeScore: try int(), awayScore: try int(), inningNumber: try int(), half: try enumeration(Half.self),
            outs: try int(), bases: try bases(), status: try enumeration(GameStatus.self), version: try int(),
            updatedAt: try date())
    }

    /// The shown content of `t1` (scores, inning, outs, half, bases, status) as today's digest.
    mutating func legacyShown() throws(ThrottleStorageError) -> UInt64 {
        let (home, away, inning, outs) = (try int(), try int(), try int(), try int())
        let (half, bases, status) = (try enumeration(Half.self), try bases(), try enumeration(GameStatus.self))
        let blank = Team(code: "", name: "", logo: "")
        return APSPayload.contentDigest(
            ScoreState(
                gameId: "", home: blank, away: blank, startsAt: .distantPast, homeScore: home, awayScore: away,
                inningNumber: inning, half: half, outs: outs, bases: bases, status: status, updatedAt: .distantPast))
    }
}
