import ScoreDomain

/// Replays the records of one game (after its `id`) into a ``RetrosheetGame``: the play-by-play
/// state machine of feeds.md §1.
struct GameBuilder {
    private let id: String
    private let file: String
    private let idLine: Int
    private var info: [String: String] = [:]
    private var plays: [RetrosheetPlay] = []
    private var state = RetrosheetState()
    /// Position of the current half-inning (inning × 2, + 1 for the second half); 0 before play.
    private var halfIndex = 0
    private var lineScore = RetrosheetLineScore()
    private var totalOuts = 0
    /// Player ids by team (0 visitors, 1 home) and batting slot (0…9), to replace a runner on base
    /// by his pinch runner.
    private var lineup: [[String]] = [Array(repeating: "", count: 10), Array(repeating: "", count: 10)]

    init(id: String, file: String, line: Int) {
        self.id = id
        self.file = file
        self.idLine = line
        plays.reserveCapacity(100)
    }

    private func error(_ kind: RetrosheetError.Kind, _ line: Int, _ reason: String) -> RetrosheetError {
        RetrosheetError(kind: kind, file: file, line: line, gameId: id, reason: reason)
    }

    /// Applies one record of the game (any type but `id`).
    mutating func record(_ line: RecordScanner.Line, _ scanner: RecordScanner) throws(RetrosheetError) {
        let fields = line.fields
        let type = scanner.string(fields[0])
        let needed: Int
        switch type {
        case "play": needed = 7
        case "start", "sub": needed = 6
        case "info", "data", "badj", "padj", "ladj", "presadj", "radj": needed = 3
        case "version", "com": needed = 2
        default: throw error(.unknownRecord, line.number, "unknown record type \"\(type)\"")
        }
        if line.unterminatedQuote {
            throw error(.truncatedLine, line.number, "\(type) record ends inside a quoted field")
        }
        guard fields.count >= needed else {
            throw error(
                .truncatedLine, line.number, "\(type) record has \(fields.count) fields, needs \(needed)")
        }
        switch type {
        case "play":
            try play(fields, scanner, line: line.number)
        case "info":
            info[scanner.string(fields[1])] = scanner.string(fields[2])
        case "start", "sub":
            try lineupChange(fields, scanner, line: line.number, isSub: type == "sub")
        case "radj":
            guard let base = scanner.integer(fields[2]), (1...3).contains(base) else {
                throw error(.invalidValue, line.number, "radj base must be 1, 2 or 3")
            }
            state[base: base] = scanner.string(fields[1])
        default:
            break  // version, com, data, badj, padj, ladj, presadj: no effect on the score
        }
    }

    private mutating func lineupChange(
        _ fields: [Range<Int>], _ scanner: RecordScanner, line: Int, isSub: Bool
    ) throws(RetrosheetError) {
        guard let team = scanner.integer(fields[3]), team <= 1, let slot = scanner.integer(fields[4]), slot <= 9
        else { throw error(.invalidValue, line, "team must be 0 or 1 and batting slot 0 to 9") }
        let player = scanner.string(fields[1])
        let replaced = lineup[team][slot]
        lineup[team][slot] = player
        guard isSub, !replaced.isEmpty else { return }
        for base in 1...3 where state[base: base] == replaced {
            state[base: base] = player
        }
    }

    private mutating func play(_ fields: [Range<Int>], _ scanner: RecordScanner, line: Int) throws(RetrosheetError) {
        guard let inning = scanner.integer(fields[1]), (1...99).contains(inning) else {
            throw error(.invalidValue, line, "inning must be a number from 1 to 99")
        }
        let batting: Side
        if scanner.field(fields[2], is: "0") {
            batting = .away
        } else if scanner.field(fields[2], is: "1") {
            batting = .home
        } else {
            throw error(.invalidValue, line, "half must be 0 (visitors bat) or 1 (home bats)")
        }
        let battingFirst = (batting == .home) == (info["htbf"] == "true")
        let index = inning * 2 + (battingFirst ? 0 : 1)
        if index != halfIndex {
            guard index > halfIndex else {
                throw error(
                    .invalidValue, line,
                    "play in inning \(inning), half \(batting == .home ? 1 : 0) comes after inning \(state.inning), "
                        + "half \(state.batting == .home ? 1 : 0)")
            }
            halfIndex = index
            state = RetrosheetState(
                inning: inning, batting: batting, half: battingFirst ? .top : .bottom, outs: 0,
                awayScore: state.awayScore, homeScore: state.homeScore)
            lineScore.add(0, for: batting, inning: inning)
        }
        let event = scanner.string(fields[6])
        let before = state
        if event != "NP" {
            let moves: Moves
            do {
                moves = try EventParser.parse(event)
            } catch {
                throw self.error(.unparsablePlay, line, "cannot read play \"\(event)\": \(error.reason)")
            }
            try apply(moves, batter: scanner.string(fields[3]), event: event, line: line)
        }
        plays.append(
            RetrosheetPlay(
                line: line, inning: inning, batting: batting, batter: scanner.string(fields[3]),
                count: scanner.string(fields[4]), pitches: scanner.string(fields[5]), event: event, before: before,
                after: state))
    }

    /// Moves the runners and the batter, counts outs and runs.
    private mutating func apply(_ moves: Moves, batter: String, event: String, line: Int) throws(RetrosheetError) {
        var next = state
        next.first = nil
        next.second = nil
        next.third = nil
        var outs = 0
        var runs = 0
        for slot in 0...3 where moves[slot] == Moves.out { outs += 1 }
        guard state.outs + outs <= 3 else {
            throw error(
                .impossibleAdvance, line,
                "\"\(event)\" makes \(outs) outs with \(state.outs) out already: more than three in a half-inning")
        }
        // On the third out scorers leave forced runners where they were (`5(2)/FO/G` with two outs and
        // runners on 1st and 2nd): the half-inning is over, so two runners on a base are no error then.
        let endsHalf = state.outs + outs == 3
        func place(_ runner: String, on base: Int) throws(RetrosheetError) {
            guard next[base: base] == nil else {
                if endsHalf { return }
                throw error(.impossibleAdvance, line, "two runners end on \(Self.ordinal(base)) after \"\(event)\"")
            }
            next[base: base] = runner
        }
        for base in 1...3 {
            let destination = moves[base]
            guard let runner = state[base: base] else {
                if destination != Moves.unchanged {
                    throw error(
                        .impossibleAdvance, line,
                        "\"\(event)\" moves a runner from \(Self.ordinal(base)), which is empty")
                }
                continue
            }
            switch destination {
            case Moves.unchanged: try place(runner, on: base)
            case Moves.out: break
            case Moves.home: runs += 1
            default: try place(runner, on: Int(destination))
            }
        }
        switch moves[0] {
        case Moves.unchanged, Moves.out: break
        case Moves.home: runs += 1
        case let base: try place(batter, on: Int(base))
        }
        next.outs += outs
        if state.batting == .home { next.homeScore += runs } else { next.awayScore += runs }
        lineScore.add(runs, for: state.batting, inning: state.inning)
        totalOuts += outs
        state = next
    }

    static func ordinal(_ base: Int) -> String {
        switch base {
        case 1: "1st"
        case 2: "2nd"
        default: "3rd"
        }
    }

    /// The game, once every record up to the next `id` (or the end of the file) has been applied.
    func finish() throws(RetrosheetError) -> RetrosheetGame {
        for key in ["visteam", "hometeam"] {
            let code = info[key] ?? ""
            guard (1...8).contains(code.utf8.count), code.utf8.allSatisfy({ Ascii.isDigit($0) || isLetter($0) })
            else { throw error(.invalidValue, idLine, "info,\(key) must be a team code of 1 to 8 letters or digits") }
        }
        guard GameClock.date(of: info, id: id) != nil else {
            throw error(.invalidValue, idLine, "no valid info,date (yyyy/mm/dd) and no date in the game id")
        }
        return RetrosheetGame(
            id: id, file: file, line: idLine, info: info, plays: plays, final: state, lineScore: lineScore,
            totalOuts: totalOuts)
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        Ascii.isLetter(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
}
