/// Where the batter (slot 0) and the runners on 1st, 2nd and 3rd (slots 1…3) end up after one
/// event: ``unchanged`` (not moved: the batter stays at the plate, a runner on his base), ``out``,
/// a base 1…3, or ``home`` (a run).
struct Moves: Equatable {
    static let unchanged: Int8 = -1
    static let out: Int8 = 0
    static let home: Int8 = 4

    private var batter: Int8 = unchanged
    private var first: Int8 = unchanged
    private var second: Int8 = unchanged
    private var third: Int8 = unchanged

    /// Destination of slot 0 (batter) … 3 (runner on 3rd).
    subscript(slot: Int) -> Int8 {
        get {
            switch slot {
            case 0: batter
            case 1: first
            case 2: second
            default: third
            }
        }
        set {
            switch slot {
            case 0: batter = newValue
            case 1: first = newValue
            case 2: second = newValue
            default: third = newValue
            }
        }
    }
}

/// Why an event string could not be read; ``GameBuilder`` adds file, line and game.
struct EventError: Error {
    var reason: String
}

/// Byte constants and small helpers for parsing event strings.
enum Ascii {
    static let dot = UInt8(ascii: ".")
    static let slash = UInt8(ascii: "/")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let semicolon = UInt8(ascii: ";")
    static let open = UInt8(ascii: "(")
    static let close = UInt8(ascii: ")")
    static let letterE = UInt8(ascii: "E")
    static let letterB = UInt8(ascii: "B")
    static let letterH = UInt8(ascii: "H")
    static let letterX = UInt8(ascii: "X")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    static func isFielder(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") }
    static func isLetter(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }

    /// Base number of `1`, `2`, `3` or `H` (4); `B` (0) only when `batter` is allowed.
    static func base(_ byte: UInt8, batter: Bool = false) -> Int? {
        switch byte {
        case UInt8(ascii: "1"): 1
        case UInt8(ascii: "2"): 2
        case UInt8(ascii: "3"): 3
        case letterH: 4
        case letterB where batter: 0
        default: nil
        }
    }

    /// Splits `slice` at `separator` bytes that are outside parentheses.
    static func split(_ slice: ArraySlice<UInt8>, on separator: UInt8) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var depth = 0
        var start = slice.startIndex
        for index in slice.indices {
            switch slice[index] {
            case open: depth += 1
            case close: depth -= 1
            case separator where depth == 0:
                parts.append(slice[start..<index])
                start = index + 1
            default: break
            }
        }
        parts.append(slice[start..<slice.endIndex])
        return parts
    }

    /// Reads `(…)(…)…` from `index` to the end of `slice`: the contents of each group, or `nil` when
    /// anything else is there or a group is not closed.
    static func groups(_ slice: ArraySlice<UInt8>, from index: Int) -> [ArraySlice<UInt8>]? {
        var contents: [ArraySlice<UInt8>] = []
        var cursor = index
        while cursor < slice.endIndex {
            guard slice[cursor] == open,
                let end = slice[(cursor + 1)...].firstIndex(of: close)
            else { return nil }
            contents.append(slice[(cursor + 1)..<end])
            cursor = end + 1
        }
        return contents
    }

    /// The fielding credit of a group (`6E4` of `(6E4/TH)`), or `nil` for a note like `(UR)`, `(NR)`,
    /// `(RBI)`, `(TUR)`, `(TH)`, `(WP)`.
    static func credit(_ group: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let first = group.first, isFielder(first) || first == letterE else { return nil }
        return group[group.startIndex..<(group.firstIndex(of: slash) ?? group.endIndex)]
    }

    static func text(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }
}
