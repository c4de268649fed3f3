/// Reads a Retrosheet event string (`basic/modifiers.advances`) into ``Moves``, following
/// feeds.md §1. Pure: whether the moved runners exist is checked by ``GameBuilder``.
enum EventParser {
    /// The moves of `event`; `#`, `!` and `?` are ignored.
    static func parse(_ event: String) throws(EventError) -> Moves {
        var text: [UInt8] = []
        text.reserveCapacity(event.utf8.count)
        for byte in event.utf8
        where byte != UInt8(ascii: "#") && byte != UInt8(ascii: "!") && byte != UInt8(ascii: "?") {
            text.append(byte)
        }
        let all = text[...]
        let dot = all.firstIndex(of: Ascii.dot) ?? all.endIndex
        // Modifiers (`/G`, `/FO`, `/TH`) follow the first `/` outside parentheses and change nothing.
        guard let basic = Ascii.split(all[..<dot], on: Ascii.slash).first, !basic.isEmpty else {
            throw EventError(reason: "empty basic play")
        }
        var moves = Moves()
        try parseBasic(basic, into: &moves)
        if dot < all.endIndex {
            try AdvanceParser.parse(all[(dot + 1)...], into: &moves)
        }
        return moves
    }

    /// The leading run of capital letters and the rest. `SBH`, `CSH`, `POCSH` keep the `H` in the
    /// rest so that the base follows the code as for `SB2`.
    private static func code(_ slice: ArraySlice<UInt8>) -> (code: String, rest: ArraySlice<UInt8>) {
        var end = slice.startIndex
        while end < slice.endIndex && Ascii.isLetter(slice[end]) { end += 1 }
        var code = Ascii.text(slice[slice.startIndex..<end])
        if code == "SBH" || code == "CSH" || code == "POCSH" {
            code.removeLast()
            end -= 1
        }
        return (code, slice[end...])
    }

    private static func parseBasic(_ basic: ArraySlice<UInt8>, into moves: inout Moves) throws(EventError) {
        if Ascii.isFielder(basic[basic.startIndex]) {
            try FielderParser.parse(basic, into: &moves)
            return
        }
        let (code, rest) = code(basic)
        if code == "K" || code == "W" || code == "IW" || code == "I",
            let plus = basic.firstIndex(of: Ascii.plus)
        {
            try parsePrimary(code, rest: basic[rest.startIndex..<plus], basic: basic, into: &moves)
            try parseSecondary(basic[(plus + 1)...], into: &moves)
        } else {
            try parsePrimary(code, rest: rest, basic: basic, into: &moves)
        }
    }

    /// A batter event (or a runner event standing alone) and what follows its code.
    private static func parsePrimary(
        _ code: String, rest: ArraySlice<UInt8>, basic: ArraySlice<UInt8>, into moves: inout Moves
    ) throws(EventError) {
        let digitsOnly = rest.allSatisfy(Ascii.isDigit)
        func require(_ valid: Bool) throws(EventError) {
            if !valid { throw EventError(reason: "unexpected \"\(Ascii.text(rest))\" after \(code)") }
        }
        switch code {
        case "K":
            // `K`, `K23`; a credit with an error (`K2E3`) puts the batter on 1st.
            try require(rest.allSatisfy { Ascii.isDigit($0) || $0 == Ascii.letterE })
            moves[0] = rest.contains(Ascii.letterE) ? 1 : Moves.out
        case "W", "IW", "I", "HP", "C":
            try require(rest.isEmpty)
            moves[0] = 1
        case "S", "FC":
            try require(digitsOnly)
            moves[0] = 1
        case "E":
            try require(digitsOnly && !rest.isEmpty)
            moves[0] = 1
        case "D", "DGR":
            try require(digitsOnly)
            moves[0] = 2
        case "T":
            try require(digitsOnly)
            moves[0] = 3
        case "H", "HR":
            try require(digitsOnly)
            moves[0] = Moves.home
        case "FLE":
            try require(digitsOnly && !rest.isEmpty)
        case "NP", "BK", "DI", "OA", "PB", "WP":
            try require(rest.isEmpty)
        case "SB", "CS", "PO", "POCS":
            try parseRunnerEvents(basic, into: &moves)
        default:
            throw EventError(reason: "unknown play \"\(Ascii.text(basic))\"")
        }
    }

    /// The event after `+` in `K+…`, `W+…`, `IW+…`.
    private static func parseSecondary(_ slice: ArraySlice<UInt8>, into moves: inout Moves) throws(EventError) {
        let (code, rest) = code(slice)
        switch code {
        case "SB", "CS", "PO", "POCS":
            try parseRunnerEvents(slice, into: &moves)
        case "WP", "PB", "OA", "DI", "BK":
            guard rest.isEmpty else { throw EventError(reason: "unknown event \"\(Ascii.text(slice))\" after +") }
        case "E":
            guard !rest.isEmpty, rest.allSatisfy(Ascii.isDigit) else {
                throw EventError(reason: "unknown event \"\(Ascii.text(slice))\" after +")
            }
        default:
            throw EventError(reason: "unknown event \"\(Ascii.text(slice))\" after +")
        }
    }

    /// `SB2`, `SB3;SB2`, `CS2(24)`, `PO1(E1/TH)`, `POCSH(1E2)`, … separated by `;`.
    private static func parseRunnerEvents(_ slice: ArraySlice<UInt8>, into moves: inout Moves) throws(EventError) {
        for item in Ascii.split(slice, on: Ascii.semicolon) {
            let (code, rest) = code(item)
            guard let baseByte = rest.first, let base = Ascii.base(baseByte),
                let groups = Ascii.groups(rest, from: rest.startIndex + 1)
            else { throw EventError(reason: "cannot read runner event \"\(Ascii.text(item))\"") }
            // An error in the fielding parenthesis cancels the out (`CS2(2E4)`, `PO1(E1/TH)`).
            let error = groups.contains { Ascii.credit($0)?.contains(Ascii.letterE) ?? false }
            switch code {
            case "SB" where base >= 2:
                moves[base - 1] = Int8(base)
            case "CS" where base >= 2, "POCS" where base >= 2:
                // Caught going to `base`; safe on an error, he reaches it.
                moves[base - 1] = error ? Int8(base) : Moves.out
            case "PO" where base <= 3:
                // Picked off at `base`; safe on an error, he stays.
                moves[base] = error ? Int8(base) : Moves.out
            default:
                throw EventError(reason: "cannot read runner event \"\(Ascii.text(item))\"")
            }
        }
    }
}
