import Foundation

/// A game clock as an anchor: its value at an instant, whether it runs and which way it counts.
/// The value at any later instant follows from it, so a phone or a browser runs the clock itself and
/// the server pushes only when the clock starts, stops or jumps.
public struct GameClock: Sendable, Equatable {
    /// When the clock showed ``ms``.
    public var at: Date
    /// The clock's value at ``at`` in milliseconds: the time left in the period when it counts down,
    /// the match time when it counts up.
    public var ms: Int
    public var running: Bool
    public var countsDown: Bool

    public init(at: Date, ms: Int, running: Bool, countsDown: Bool) {
        self.at = at
        self.ms = ms
        self.running = running
        self.countsDown = countsDown
    }

    /// The clock's value at `instant` (never below 0 counting down; a stopped clock keeps its value).
    public func value(at instant: Date) -> Int {
        guard running else { return ms }
        let passed = Int((instant.timeIntervalSince(at) * 1000).rounded())
        return countsDown ? max(0, ms - max(0, passed)) : ms + max(0, passed)
    }

    /// `"M:SS"` of `ms`; counting down, seconds are rounded up (4:32.4 left shows `4:33`… as a game
    /// clock does) and under a minute tenths are shown (`0:04.3`; 59.95 s left is still `1:00`).
    public static func display(_ ms: Int, countsDown: Bool) -> String {
        guard ms >= 0, ms < 6_000_000_000 else { return displayText(ms, countsDown: countsDown) }
        if countsDown && (ms + 99) / 100 < 600 {
            let tenths = (ms + 99) / 100
            return clockText(minutes: 0, seconds: tenths / 10, tenths: tenths % 10)
        }
        let seconds = countsDown ? (ms + 999) / 1000 : ms / 1000
        return clockText(minutes: seconds / 60, seconds: seconds % 60, tenths: nil)
    }

    /// ``display(_:countsDown:)`` by string concatenation, for values the fast path does not take.
    private static func displayText(_ ms: Int, countsDown: Bool) -> String {
        if countsDown && (ms + 99) / 100 < 600 {
            let tenths = (ms + 99) / 100
            return "0:" + twoDigits(tenths / 10) + "." + String(tenths % 10)
        }
        let seconds = countsDown ? (ms + 999) / 1000 : ms / 1000
        return String(seconds / 60) + ":" + twoDigits(seconds % 60)
    }

    /// `"M:SS"` or `"M:SS.t"` written byte by byte into a small string (no interpolation, no
    /// allocation). `minutes` below 100,000, `seconds` 0-59, `tenths` 0-9.
    private static func clockText(minutes: Int, seconds: Int, tenths: Int?) -> String {
        String(unsafeUninitializedCapacity: 15) { buffer in
            let zero = UInt8(ascii: "0")
            var count = 0
            var divisor = 1
            while divisor * 10 <= minutes { divisor *= 10 }
            while divisor > 0 {
                buffer[count] = zero + UInt8(minutes / divisor % 10)
                count += 1
                divisor /= 10
            }
            buffer[count] = UInt8(ascii: ":")
            buffer[count + 1] = zero + UInt8(seconds / 10)
            buffer[count + 2] = zero + UInt8(seconds % 10)
            count += 3
            if let tenths {
                buffer[count] = UInt8(ascii: ".")
                buffer[count + 1] = zero + UInt8(tenths)
                count += 2
            }
            return count
        }
    }

    /// Soccer's match minute of match time `ms` in a period that ends at `endMinute`: `"53'"`, or in
    /// stoppage time `"45+2'"`.
    public static func matchMinute(_ ms: Int, periodEndMinute: Int) -> String {
        let minute = ms / 60_000 + 1
        if minute > periodEndMinute { return "\(periodEndMinute)+\(minute - periodEndMinute)'" }
        return "\(minute)'"
    }

    /// The feed's text of a clock value, exact: `"12:00"`, `"0:04.3"` (what ``parse(_:)`` reads back).
    public static func feedText(_ ms: Int) -> String {
        let tenths = ms / 100
        let seconds = tenths / 10
        let text = String(seconds / 60) + ":" + twoDigits(seconds % 60)
        return tenths % 10 == 0 ? text : text + "." + String(tenths % 10)
    }

    /// Parses a feed clock value, `"M:SS"` or `"M:SS.t"` (minutes 0–999), into milliseconds.
    public static func parse(_ text: String) -> Int? {
        // Byte by byte (it runs for every play of a document with clocks): minutes of 1 to 3 digits,
        // ':', seconds of 2 digits below 60, optionally '.' and one digit of tenths, nothing else.
        var bytes = text.utf8.makeIterator()
        var next = bytes.next()
        var minutes = 0
        var minuteDigits = 0
        while let byte = next, let value = digit(byte) {
            minutes = minutes * 10 + value
            minuteDigits += 1
            guard minuteDigits <= 3 else { return nil }
            next = bytes.next()
        }
        guard minuteDigits >= 1, next == UInt8(ascii: ":"), let tens = bytes.next().flatMap(digit),
            let units = bytes.next().flatMap(digit), tens * 10 + units < 60
        else { return nil }
        var tenths = 0
        switch bytes.next() {
        case nil: break
        case UInt8(ascii: "."):
            guard let value = bytes.next().flatMap(digit), bytes.next() == nil else { return nil }
            tenths = value
        default: return nil
        }
        return (minutes * 60 + tens * 10 + units) * 1000 + tenths * 100
    }

    /// The value of an ASCII digit.
    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
