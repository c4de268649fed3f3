/// Basic plays made of fielders: `8`, `63`, `64(1)3`, `54(1)3`, `8(B)84(2)`, `3(B)6(1)`, `64(1)`,
/// `4(1)`, `1E3`.
///
/// Each `(runner)` after a run of fielders puts that runner out (safe one base further when the run
/// holds an error). A trailing run of fielders puts the batter out (safe at 1st on an error); a play
/// ending in `)` leaves the batter safe at 1st unless `(B)` named him.
enum FielderParser {
    static func parse(_ basic: ArraySlice<UInt8>, into moves: inout Moves) throws(EventError) {
        var index = basic.startIndex
        var batterNamed = false
        var endsInParenthesis = false
        while index < basic.endIndex {
            let runStart = index
            while index < basic.endIndex && (Ascii.isFielder(basic[index]) || basic[index] == Ascii.letterE) {
                index += 1
            }
            let run = basic[runStart..<index]
            guard !run.isEmpty, Ascii.isFielder(run.last!) else { throw failure(basic) }
            let error = run.contains(Ascii.letterE)
            if index == basic.endIndex {
                moves[0] = error ? 1 : Moves.out
                endsInParenthesis = false
                break
            }
            guard basic[index] == Ascii.open, index + 2 < basic.endIndex, basic[index + 2] == Ascii.close,
                let slot = Ascii.base(basic[index + 1], batter: true), slot <= 3
            else { throw failure(basic) }
            moves[slot] = error ? Int8(slot + 1) : Moves.out
            if slot == 0 { batterNamed = true }
            endsInParenthesis = true
            index += 3
        }
        if endsInParenthesis && !batterNamed {
            moves[0] = 1
        }
    }

    private static func failure(_ basic: ArraySlice<UInt8>) -> EventError {
        EventError(reason: "cannot read fielding play \"\(Ascii.text(basic))\"")
    }
}
