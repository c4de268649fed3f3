import Foundation
import ScoreDomain

/// A GUMBO timecode, `metaData.timeStamp`: `YYYYMMDD_HHMMSS` in UTC, e.g. `20260401_231502`.
///
/// Timecodes order the versions of a game's document: a later document has a later timecode.
public struct MLBTimecode: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text as the feed writes it.
    public let text: String
    /// The instant it names.
    public let date: Date

    /// Parses `YYYYMMDD_HHMMSS`; `nil` when the text has another shape or names no real instant of
    /// ``InputRules/years``.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 15, bytes[8] == UInt8(ascii: "_"),
            bytes.enumerated().allSatisfy({ $0.offset == 8 || (48...57).contains($0.element) })
        else { return nil }
        let digits = Array(text)
        func part(_ range: Range<Int>) -> String { String(digits[range]) }
        let rfc = "\(part(0..<4))-\(part(4..<6))-\(part(6..<8))T\(part(9..<11)):\(part(11..<13)):\(part(13..<15))Z"
        guard let date = InputRules.timestamp(rfc) else { return nil }
        self.text = text
        self.date = date
    }

    /// The timecode of an instant (to the second, UTC).
    public init(date: Date) {
        let rfc = rfc3339(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        let digits = rfc.filter(\.isNumber)
        let text = String(digits.prefix(8)) + "_" + String(digits.dropFirst(8).prefix(6))
        self.text = text
        self.date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    public static func < (lhs: MLBTimecode, rhs: MLBTimecode) -> Bool { lhs.text < rhs.text }

    public var description: String { text }
}
