/// The advances after the first `.` of an event: `F-T` or `FXT` items separated by `;`, each followed
/// by any number of parenthesised notes. They override whatever the basic play implied.
enum AdvanceParser {
    static func parse(_ slice: ArraySlice<UInt8>, into moves: inout Moves) throws(EventError) {
        var listed: UInt8 = 0
        for item in Ascii.split(slice, on: Ascii.semicolon) {
            guard item.count >= 3,
                let from = Ascii.base(item[item.startIndex], batter: true), from <= 3,
                let to = Ascii.base(item[item.startIndex + 2]), to >= 1,
                let groups = Ascii.groups(item, from: item.startIndex + 3)
            else { throw EventError(reason: "cannot read advance \"\(Ascii.text(item))\"") }
            let bit = UInt8(1) << from
            guard listed & bit == 0 else {
                throw EventError(reason: "advance \"\(Ascii.text(item))\" moves a runner listed before")
            }
            listed |= bit
            switch item[item.startIndex + 1] {
            case Ascii.minus:
                moves[from] = Int8(to)
            case Ascii.letterX:
                moves[from] = isOut(groups) ? Moves.out : Int8(to)
            default:
                throw EventError(reason: "cannot read advance \"\(Ascii.text(item))\"")
            }
        }
    }

    /// `FXT` is an out unless the first parenthesis with a fielding credit holds an error
    /// (`BX2(7E4)`, `3XH(E2)`); notes such as `(UR)`, `(NR)`, `(RBI)`, `(TUR)`, `(TH)` are not
    /// fielding credits. Only that first credit cancels the out: `1X2(54)(E5/TH)` is still an out,
    /// and a later error-free credit puts the runner out after the error (`BX3(E9)(95/TH)`: safe on
    /// the error, then thrown out 9-5, as Chadwick scores it).
    static func isOut(_ groups: [ArraySlice<UInt8>]) -> Bool {
        var firstHasError: Bool?
        for group in groups {
            guard let credit = Ascii.credit(group) else { continue }
            let error = credit.contains(Ascii.letterE)
            if firstHasError == nil {
                firstHasError = error
            } else if !error {
                return true
            }
        }
        return firstHasError != true
    }
}
